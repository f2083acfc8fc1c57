// `parallel_tool_calls: false`: the runner runs a turn's calls one after another, in call
// order, each call's tool message added before the next call starts.
import ModelGate from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

function slow(name: string) {
  return async (args: Record<string, unknown>) => {
    console.log(`start ${name} ${typeof args}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
    console.log(`end ${name}`);
    return { name, ok: true };
  };
}

const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const runner = client.chat.completions
  .runTools({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: 'What is the weather and the time in Paris?' }],
    parallel_tool_calls: false,
    tools: [
      { type: 'function', function: { name: 'getWeather', description: 'Weather', parameters, parse: JSON.parse, function: slow('getWeather') } },
      { type: 'function', function: { name: 'getTime', description: 'Time', parameters, parse: JSON.parse, function: slow('getTime') } },
    ],
  })
  .on('message', (message) => {
    if (message.role === 'tool') console.log('tool message');
  });

await runner.done();
console.log(`sent parallel_tool_calls: false, messages: ${runner.messages.map((message) => message.role).join(' ')}`);
