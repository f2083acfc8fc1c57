// A server runs the tools and hands the streamed run to a page: runner.toReadableStream() on
// the server, openai's ChatCompletionStreamingRunner.fromReadableStream() on the page, which
// rebuilds the whole conversation, tool messages included. The page's lines import from
// 'openai/lib/ChatCompletionStreamingRunner' and stay as they are when the server moves over.
import ModelGate from 'modelgate';
import { ChatCompletionStreamingRunner } from 'openai/lib/ChatCompletionStreamingRunner';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

// The server's handler.
function handler(): Response {
  const runner = client.chat.completions.runTools({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    stream: true,
    tools: [
      {
        type: 'function',
        function: {
          name: 'getWeather',
          description: 'Current weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          parse: JSON.parse,
          function: () => ({ celsius: 21 }),
        },
      },
    ],
  });
  return new Response(runner.toReadableStream());
}

// The page.
const response = handler();
const page = ChatCompletionStreamingRunner.fromReadableStream(response.body!);
await page.done();
console.log(`messages: ${page.messages.map((message) => message.role).join(' ')}`);
const tool = page.messages.find((message) => message.role === 'tool');
console.log(`tool result: ${tool?.content}`);
const call = page.messages.find((message) => message.role === 'assistant');
console.log(`call answered: ${call?.role === 'assistant' && call.tool_calls?.[0]?.id === (tool?.role === 'tool' ? tool.tool_call_id : '')}`);
console.log(`completions: ${page.allChatCompletions().length}, answer quotes it: ${(await page.finalContent())?.includes('celsius')}`);
