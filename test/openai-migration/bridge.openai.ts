// A server hands a streamed reply to a page: the server turns the stream into a body with
// toReadableStream(), and the page (here in the same process) reads it back with openai's
// ChatCompletionStream.fromReadableStream(), as openai's "stream-to-client" examples do.
// The page's lines import from 'openai/lib/ChatCompletionStream' and stay as they are when the
// server moves over.
import OpenAI from 'openai';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

// The server's handler.
async function handler(): Promise<Response> {
  const stream = await client.chat.completions.create({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'Say something short.' }],
    stream: true,
  });
  return new Response(stream.toReadableStream());
}

// The page.
const response = await handler();
const runner = ChatCompletionStream.fromReadableStream(response.body!);
let deltas = '';
runner.on('content', (delta) => {
  deltas += delta;
});
const completion = await runner.finalChatCompletion();
const content = completion.choices[0]!.message.content ?? '';
console.log(`same text: ${deltas === content} ${content.length > 10}`);
console.log(`finish: ${completion.choices[0]!.finish_reason}`);
