// Streamed structured output: render the object while the model writes it, then use the
// validated result. A partial never shows a value the final one will not hold.
import "./offline.ts";
import ModelGate from "modelgate";
import { z } from "zod";

const client = new ModelGate();

const Recipe = z.object({
  title: z.string(),
  minutes: z.number(),
  steps: z.array(z.string()).min(2).max(4),
});

const stream = await client.chat.completions.parse({
  model: "auto",
  messages: [{ role: "user", content: "A quick pasta recipe, please." }],
  response_format: Recipe,
  stream: true,
});

let updates = 0;
for await (const partial of stream.partialObjectStream) {
  updates++;
  // A UI would re-render here; the terminal shows how far the object has grown.
  process.stdout.write(`\r${JSON.stringify(partial).slice(0, 70).padEnd(70)}`);
}
const recipe = (await stream.finalChatCompletion()).choices[0]?.message.parsed;
console.log(`\n${updates} partial objects, then: "${recipe?.title}", ${recipe?.steps.length} steps, ${recipe?.minutes} minutes`);
