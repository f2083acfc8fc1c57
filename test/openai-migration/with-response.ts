// The raw Response next to the parsed data, as the openai README's "Advanced usage" shows.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

const { data: completion, response: raw } = await client.chat.completions
  .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'say this is a test.' }] })
  .withResponse();
console.log(raw.status, raw.headers.get('content-type'));
console.log(completion.choices[0]!.message.content);

const httpResponse = await client.chat.completions
  .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'say this is a test.' }] })
  .asResponse();
console.log(httpResponse.statusText || 'OK');
