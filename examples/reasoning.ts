// A reasoning model thinks before it answers: stream its reasoning, then its answer.
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();

const stream = await client.chat.completions.create({
  model: "auto",
  route: { capabilities: ["reasoning"] }, // a model that reasons
  reasoning: { effort: "high" }, // or reasoning_effort: "high"; `exclude: true` thinks without showing it
  messages: [{ role: "user", content: "Why is the sky blue? Answer in one sentence." }],
  stream: true,
});

// A stream is read once: tee() gives one reader for the reasoning and one for the answer
// (what the first has read, the second gets from a buffer).
const [thinking, answering] = stream.tee();
process.stdout.write("thinking: ");
for await (const text of thinking.reasoningStream) process.stdout.write(text);
process.stdout.write(`\nanswer (${stream.gateway.model}): `);
for await (const text of answering.textStream) process.stdout.write(text);
process.stdout.write("\n");
