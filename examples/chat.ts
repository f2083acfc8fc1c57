// A plain (non-streamed) chat completion: `npx tsx examples/chat.ts`
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate(); // reads MODELGATE_API_KEY and MODELGATE_BASE_URL

const completion = await client.chat.completions.create({
  model: "auto",
  messages: [{ role: "user", content: "Say hello in French." }],
});
console.log(completion.model, completion.choices[0]?.message.content);
