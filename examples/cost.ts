// What `auto` chose and what it cost: `gateway` on completions, streams and errors, and a
// budget (`maxCost`) that lowers max_tokens before anything is sent.
import "./offline.ts";
import ModelGate, { APIError, BudgetExceededError } from "modelgate";

const client = new ModelGate();
const messages = [{ role: "user" as const, content: "Describe the sea in three sentences." }];

// A plain call: which model and provider answered, and what it cost.
const completion = await client.chat.completions.create({ model: "auto", messages });
console.log("plain:", completion.gateway);

// A stream: the same, filled in as the chunks arrive (the cost comes with the usage chunk).
const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
await stream.text();
console.log("streamed:", stream.gateway);

// A retried call counts every attempt: here the first one is dropped on purpose.
let dropped = false;
const flaky = client.withOptions({
  fetch: async (input, init) => {
    if (dropped) return fetch(input, init);
    dropped = true;
    throw new TypeError("fetch failed (dropped on purpose)");
  },
});
const retried = await flaky.chat.completions.create({ model: "auto", messages });
console.log("retried:", retried.gateway);

// A failed call says what was known when it failed.
try {
  await client.chat.completions.create({ model: "no-such/model", messages });
} catch (error) {
  if (error instanceof APIError) console.log("failed:", error.status, error.gateway);
}

// A budget: the worst case (the prompt, estimated from above, plus max_tokens at the model's
// prices) must fit, so max_tokens is lowered before sending.
const budgeted = await client.chat.completions.create({ model: "openai/gpt-4.1-mini", messages, max_tokens: 4_000 }, { maxCost: 0.00005 });
const { usage, gateway } = budgeted;
console.log(
  `under maxCost $0.00005: ${usage?.completion_tokens} tokens (finish_reason ${budgeted.choices[0]?.finish_reason}) for $${gateway?.cost?.toPrecision(3)}`,
);

// A budget even the prompt does not fit: nothing is sent.
try {
  await client.chat.completions.create({ model: "openai/gpt-4.1", messages }, { maxCost: 0.000001 });
} catch (error) {
  if (error instanceof BudgetExceededError) console.log("refused before sending:", error.message);
}
