// A chat completion, as the openai README writes it.
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'], // This is the default and can be omitted
});

const messages: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'developer', content: 'Talk like a pirate.' },
  { role: 'user', content: 'Are semicolons optional in JavaScript?' },
];

const completion: OpenAI.ChatCompletion = await client.chat.completions.create({
  model: 'gpt-4.1-mini',
  messages,
  temperature: undefined,
  max_completion_tokens: 200,
});

console.log(completion.choices[0]?.message.content);
console.log(completion.model, completion.usage?.total_tokens);
