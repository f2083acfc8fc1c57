// openai's streaming helper: stream() returns at once, events as the reply arrives, then the
// assembled completion (as the openai README's "Streaming Helpers" section uses it).
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

let deltas = 0;
let text = '';
const stream = client.chat.completions
  .stream({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'Say something about rivers.' }],
  })
  .on('content.delta', ({ delta, snapshot }) => {
    deltas++;
    text += delta;
    if (text !== snapshot) console.log('snapshot out of step');
  });

const completion = await stream.finalChatCompletion();
const content = completion.choices[0]!.message.content;
console.log(`deltas: ${deltas > 1}`);
console.log(`assembled: ${text === content}`);
console.log(`finish: ${completion.choices[0]!.finish_reason}`);
console.log(content);
