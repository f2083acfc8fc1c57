// openai's tool runner, streamed: the reply's text arrives as `content` events while the
// runner answers the tool calls in between (openai's README, "Automated function calls"
// with `stream: true`).
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

async function getWeather(args: { city: string }) {
  return { city: args.city, celsius: 21 };
}

let streamed = '';
const runner = client.chat.completions
  .runTools({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    stream: true,
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
  .on('content', (delta) => {
    streamed += delta;
  })
  .on('functionToolCallResult', (result) => console.log(`result: ${result}`));

const finalContent = await runner.finalContent();
console.log(`streamed the answer: ${finalContent !== null && streamed.endsWith(finalContent)}`);
console.log(`completions: ${runner.allChatCompletions().length}`);
console.log(`messages: ${runner.messages.map((message) => message.role).join(' ')}`);
