// openai's tool runner: a function tool in openai's runnable shape, the runner's events, and its
// final content (as the openai README's "Automated function calls" section uses it).
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

async function getWeather(args: { city: string }) {
  return { city: args.city, celsius: 21 };
}

const runner = client.chat.completions
  .runTools({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: {
          function: getWeather,
          parse: JSON.parse,
          description: 'Current weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ],
  })
  .on('functionToolCall', (functionCall) => console.log(`call: ${functionCall.name} ${functionCall.arguments}`))
  .on('functionToolCallResult', (result) => console.log(`result: ${result}`));

const finalContent = await runner.finalContent();
console.log(`answer: ${finalContent}`);
console.log(`messages: ${runner.messages.map((message) => message.role).join(' ')}`);
