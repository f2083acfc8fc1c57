// A chat completion, as the openai README writes it.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

const messages: ModelGate.ChatCompletionMessageParam[] = [
  { role: 'developer', content: 'Talk like a pirate.' },
  { role: 'user', content: 'Are semicolons optional in JavaScript?' },
];

const completion: ModelGate.ChatCompletion = await client.chat.completions.create({
  model: 'gpt-4.1-mini',
  messages,
  temperature: undefined,
  max_completion_tokens: 200,
});

console.log(completion.choices[0]?.message.content);
console.log(completion.model, completion.usage?.total_tokens);
