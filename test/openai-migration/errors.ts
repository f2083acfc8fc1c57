// Error handling with instanceof, on the client's statics and on named imports.
import ModelGate, { APIError, RateLimitError } from 'modelgate';

const client = new ModelGate({
  apiKey: process.env['MODELGATE_API_KEY'],
  baseURL: process.env['MODELGATE_BASE_URL'],
  maxRetries: 0,
});

await client.chat.completions
  .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
  .catch(async (err) => {
    if (err instanceof ModelGate.APIError) {
      const status: number | undefined = err.status;
      console.log(status); // 404
      console.log(err.constructor.name); // NotFoundError
      console.log(err instanceof ModelGate.NotFoundError);
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

const bad = new ModelGate({ apiKey: 'not-the-key', maxRetries: 0 });
try {
  await bad.models.list();
} catch (err) {
  console.log(err instanceof ModelGate.AuthenticationError, err instanceof ModelGate.APIError);
}
