// A tool made with openai's zodFunction() helper, sent through parse(): the call's arguments
// come back parsed (`parsed_arguments`), as the openai README's "Auto-parsing function tool
// calls" section uses it.
import OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { z } from 'zod';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

const GetWeather = z.object({
  city: z.string(),
  unit: z.enum(['celsius', 'fahrenheit']),
});

const completion = await client.chat.completions.parse({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'What is the weather in Paris, in celsius?' }],
  tools: [zodFunction({ name: 'getWeather', parameters: GetWeather })],
});

const call = completion.choices[0]!.message.tool_calls?.[0];
if (call?.type === 'function') {
  const args = call.function.parsed_arguments as z.infer<typeof GetWeather>;
  console.log(`${call.function.name} ${typeof args.city} ${['celsius', 'fahrenheit'].includes(args.unit)}`);
}
