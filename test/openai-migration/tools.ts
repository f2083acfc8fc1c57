// Tool calls: stream the reply with the `.stream()` helper, take the assembled completion,
// answer the calls, ask again.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

const tools: ModelGate.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const messages: ModelGate.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

const stream = client.chat.completions.stream({
  model: 'gpt-4.1-mini',
  messages,
  tools,
});
const completion = await stream.finalChatCompletion();
const message = completion.choices[0]!.message;
console.log(`finish: ${completion.choices[0]!.finish_reason}`);
messages.push(message);

for (const call of message.tool_calls ?? []) {
  if (call.type !== 'function') continue;
  const args = JSON.parse(call.function.arguments) as { city: string };
  console.log(`call: ${call.function.name} ${typeof args.city}`);
  messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ celsius: 21 }) });
}

const answer = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
console.log(`answer: ${answer.choices[0]!.message.content}`);
