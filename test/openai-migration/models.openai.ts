// The model list: iterated with for await, and read as a whole.
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

const ids: string[] = [];
for await (const model of client.models.list()) {
  ids.push(model.id);
}
console.log(`iterated: ${ids.length}`);

const page = await client.models.list();
console.log(`data: ${page.data.length}`);
console.log(page.data.some((model) => model.id === 'gpt-4.1-mini'));
