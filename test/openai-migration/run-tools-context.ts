// openai 6.49's runner options: `toolContext` reaches each function as its third argument (and
// is never sent), `afterCompletion(completion, runner)` is awaited after each step's tool
// messages and after the final reply; the assistant turns carry openai's `parsed` fields.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

type Tenant = { tenantID: string };

const runner = client.chat.completions.runTools(
  {
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    toolContext: { tenantID: 'acme' } satisfies Tenant,
    tools: [
      {
        type: 'function',
        function: {
          name: 'getWeather',
          description: 'Current weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          parse: JSON.parse,
          function: (args: { city: string }, _runner, context: Tenant) => {
            console.log(`tool: ${typeof args.city} for ${context.tenantID}`);
            return { celsius: 21 };
          },
        },
      },
    ],
  },
  {
    afterCompletion: async (completion, done) => {
      console.log(`after ${completion.choices[0]!.finish_reason}: ${done.messages.map((message) => message.role).join(' ')}`);
    },
  },
);
runner.on('message', (message) => {
  if (message.role !== 'assistant') return;
  const call = message.tool_calls?.[0];
  const parsedArguments = call?.type === 'function' ? (call.function as { parsed_arguments?: unknown }).parsed_arguments : 'none';
  console.log(`turn: parsed=${JSON.stringify((message as { parsed?: unknown }).parsed)} parsed_arguments=${JSON.stringify(parsedArguments)}`);
});

console.log(`answer: ${(await runner.finalContent())?.includes('celsius')}`);
