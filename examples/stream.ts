// The main example (`npm run example`): streams a reply to the terminal as it is generated.
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();

const stream = await client.chat.completions.create({
  model: "auto",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Write a haiku about rivers." },
  ],
  stream: true,
});
for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta.content ?? "");
}
process.stdout.write("\n");
