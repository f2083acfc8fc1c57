// Stream helpers: print the text as it arrives while also keeping the assembled completion.
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();
const stream = await client.chat.completions.create({
  model: "auto",
  messages: [{ role: "user", content: "Name three rivers." }],
  stream: true,
  stream_options: { include_usage: true },
});

const [forDisplay, forRecord] = stream.tee(); // two independent readers of one response
const printing = (async () => {
  for await (const text of forDisplay.textStream) process.stdout.write(text);
})();
const completion = await forRecord.finalChatCompletion(); // as a non-streamed call returns it
await printing;
console.log(`\n[${completion.model}, ${completion.usage?.total_tokens} tokens]`);
