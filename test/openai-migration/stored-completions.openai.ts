// Stored completions: created with `store: true`, then retrieved, updated, listed (filtered,
// and page by page with `for await`), their messages listed, and deleted.
import OpenAI from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

// The nested type paths of openai's docs.
const asked = (team: string): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming => ({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: `Hello from ${team}` }],
  store: true,
  metadata: { team },
});
const call: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = {
  id: 'call_1',
  type: 'function',
  function: { name: 'lookup', arguments: '{}' },
};
console.log(`typed: ${call.function.name}`);

const ids: string[] = [];
for (const team of ['search', 'ads', 'search']) {
  const completion = await client.chat.completions.create(asked(team));
  ids.push(completion.id);
}
const first = ids[0]!;

const retrieved = await client.chat.completions.retrieve(first);
console.log(`retrieved: ${retrieved.id === first}, ${retrieved.choices.length} choice`);
const updated = await client.chat.completions.update(first, { metadata: { team: 'growth' } });
console.log(`updated: ${updated.id === first}`);

const page = await client.chat.completions.list({ metadata: { team: 'search' } });
console.log(`search: ${page.data.length}, more: ${page.has_more}`);
const listed: string[] = [];
for await (const completion of client.chat.completions.list({ limit: 2 })) {
  listed.push(completion.id);
}
console.log(`listed in order: ${listed.join() === ids.join()}`);

for await (const message of client.chat.completions.messages.list(first)) {
  console.log(`${message.role}: ${message.content}`);
}

const deleted = await client.chat.completions.delete(first);
console.log(`deleted: ${deleted.deleted} ${deleted.object}`);
try {
  await client.chat.completions.retrieve(first);
} catch (err) {
  if (err instanceof OpenAI.NotFoundError) console.log('gone: 404');
  else throw err;
}
