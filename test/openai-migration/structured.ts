// Structured output with a Zod schema, as the openai README writes it: the schema wrapped by
// openai's zodResponseFormat() helper. modelgate's parse() reads that helper's object as it
// is (and takes any Standard Schema without a helper too).
import ModelGate from 'modelgate';
import { zodResponseFormat } from 'openai/helpers/zod';
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
  response_format: zodResponseFormat(CalendarEvent, 'event'),
});

const message = completion.choices[0]!.message;
if (message.parsed) {
  console.log(typeof message.parsed.name, Array.isArray(message.parsed.participants));
} else {
  console.log('refused:', message.refusal);
}
