// Cancelling: a per-call signal and timeout, and breaking out of a stream early.
import "./offline.ts";
import ModelGate, { APIUserAbortError } from "modelgate";

const client = new ModelGate();

const controller = new AbortController();
setTimeout(() => controller.abort(), 2_000);
const reply = await client.chat.completions.create(
  { model: "auto", messages: [{ role: "user", content: "Tell me a long story." }] },
  { signal: controller.signal, timeout: 30_000, maxRetries: 5 },
);
console.log("finished in time:", reply.choices[0]?.message.content?.slice(0, 40), "…");

const stream = await client.chat.completions.create({
  model: "auto",
  messages: [{ role: "user", content: "Count to one hundred." }],
  stream: true,
});
let chunks = 0;
for await (const _chunk of stream) {
  if (++chunks === 3) break; // cancels the HTTP body
}
console.log(`stopped after ${chunks} chunks`);

const aborted = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Hi" }], stream: true });
try {
  for await (const _chunk of aborted) {
    aborted.controller.abort(); // e.g. the user pressed "stop"
  }
} catch (error) {
  console.log("aborted:", error instanceof APIUserAbortError);
}
