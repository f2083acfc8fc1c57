// Cancelling: a request aborted through `signal`, and a stream left early with `break`.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

const controller = new AbortController();
const request = client.chat.completions.create(
  { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Write a long story.' }] },
  { signal: controller.signal, timeout: 10 * 1000 },
);
controller.abort();
try {
  await request;
} catch (err) {
  if (err instanceof ModelGate.APIUserAbortError) console.log('aborted');
  else throw err;
}

const stream = await client.chat.completions.create({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Count to one hundred.' }],
  stream: true,
});
let chunks = 0;
for await (const chunk of stream) {
  chunks += chunk.choices.length;
  if (chunks === 2) break;
}
console.log(`stopped after ${chunks} chunks`);
