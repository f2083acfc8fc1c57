// Streaming with for await, as the openai README and examples/stream.ts write it.
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

const { data: stream, response } = await client.chat.completions
  .create({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'Say "Sheep sleep deep" ten times fast!' }],
    stream: true,
    stream_options: { include_usage: true },
  })
  .withResponse();

console.log(response.headers.get('content-type'));
let text = '';
for await (const chunk of stream) {
  const delta = chunk.choices[0]?.delta?.content || '';
  process.stdout.write(delta);
  text += delta;
  if (chunk.usage) console.log(`\nusage: ${chunk.usage.total_tokens}`);
}
console.log(`text: ${text}`);
