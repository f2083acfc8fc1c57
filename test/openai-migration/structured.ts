// Structured output with a Zod schema, as the openai README writes it.
// openai wraps the schema with its zodResponseFormat() helper; modelgate takes any Standard
// Schema as it is (the lines marked below differ, see the test).
import ModelGate from 'modelgate';
import { z } from 'zod';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
});

const CalendarEvent = z.object({
  name: z.string(),
  date: z.string(),
  participants: z.array(z.string()),
});

const completion = await client.chat.completions.parse({
  model: 'gpt-4.1-mini',
  messages: [
    { role: 'system', content: 'Extract the event information.' },
    { role: 'user', content: 'Alice and Bob are going to a science fair on Friday.' },
  ],
  response_format: CalendarEvent, // differs: the schema itself
});

const message = completion.choices[0]!.message;
if (message.parsed) {
  console.log(typeof message.parsed.name, Array.isArray(message.parsed.participants));
} else {
  console.log('refused:', message.refusal);
}
