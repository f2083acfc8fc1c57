// The client's options read back, one call's withResponse() and asResponse() giving the same
// Response, and toFile() given a Response-like object (node-fetch's, or a test double).
import OpenAI, { toFile } from 'openai';

const options = {
  apiKey: process.env['OPENAI_API_KEY'],
  baseURL: process.env['OPENAI_BASE_URL'],
};
const client = new OpenAI({ ...options, logLevel: 'warn', maxRetries: 1, timeout: 20_000 });
console.log(`key: ${client.apiKey === options.apiKey}, baseURL: ${client.baseURL === options.baseURL}`);
console.log(`logLevel: ${client.logLevel}, maxRetries: ${client.maxRetries}, timeout: ${client.timeout}`);

const call = client.chat.completions.create({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'say this is a test.' }],
});
const { response } = await call.withResponse();
console.log(`same response: ${response === (await call.asResponse())}, status: ${response.status}`);

const download = { url: 'https://files.example/notes/memo.txt', blob: async () => new Blob(['hello there']) };
const file = await toFile(download);
console.log(`file: ${file.name} ${file.size} ${await file.text()}`);
