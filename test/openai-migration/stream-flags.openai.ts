// The stream helper's `ended`, `errored` and `aborted`: after a whole reply, after abort()
// (which sets `errored` too), and after an error, read in the listeners and after the end.
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
  maxRetries: 0,
});

type Flags = { ended: boolean; errored: boolean; aborted: boolean };
const flags = ({ ended, errored, aborted }: Flags) => `ended ${ended}, errored ${errored}, aborted ${aborted}`;
const params = { model: 'gpt-4.1-mini', messages: [{ role: 'user' as const, content: 'Count to ten.' }] };

const whole = client.chat.completions.stream(params);
console.log(`before: ${flags(whole)}`);
whole.on('end', () => console.log(`whole, in end: ${flags(whole)}`));
await whole.done();
console.log(`whole, after: ${flags(whole)}`);

const stopped = client.chat.completions.stream(params);
stopped.on('abort', () => console.log(`stopped, in abort: ${flags(stopped)}`));
stopped.on('end', () => console.log(`stopped, in end: ${flags(stopped)}`));
stopped.once('chunk', () => stopped.abort());
await stopped.done().catch((err) => console.log(`stopped: ${err instanceof OpenAI.APIUserAbortError}`));
console.log(`stopped, after: ${flags(stopped)}`);

const failed = client.chat.completions.stream({ ...params, model: 'no-such-model' });
failed.on('error', () => console.log(`failed, in error: ${flags(failed)}`));
await failed.done().catch((err) => console.log(`failed: ${err instanceof OpenAI.APIError}`));
console.log(`failed, after: ${flags(failed)}`);
