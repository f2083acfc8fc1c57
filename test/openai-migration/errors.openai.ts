// Error handling with instanceof, on the client's statics and on named imports.
import OpenAI, { APIError, RateLimitError } from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
  maxRetries: 0,
});

await client.chat.completions
  .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
  .catch(async (err) => {
    if (err instanceof OpenAI.APIError) {
      const status: number | undefined = err.status;
      console.log(status); // 404
      console.log(err.constructor.name); // NotFoundError
      console.log(err instanceof OpenAI.NotFoundError);
      console.log(typeof err.headers?.get('content-type'));
    } else {
      throw err;
    }
  });

try {
  await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] });
} catch (err) {
  if (err instanceof RateLimitError) {
    console.log(`rate limited: ${err.status}`);
  } else if (err instanceof APIError) {
    console.log(`other API error: ${err.status}`);
  } else {
    throw err;
  }
}

const bad = new OpenAI({ apiKey: 'not-the-key', maxRetries: 0 });
try {
  await bad.models.list();
} catch (err) {
  console.log(err instanceof OpenAI.AuthenticationError, err instanceof OpenAI.APIError);
}
