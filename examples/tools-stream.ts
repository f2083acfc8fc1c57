// The same loop, streamed: iterate the run for progress events a UI can show, then await it
// for the result (nothing runs twice).
import "./offline.ts";
import ModelGate, { tool } from "modelgate";
import { z } from "zod";

const client = new ModelGate();

const lookUpFlight = tool({
  name: "look_up_flight",
  description: "Status of a flight by its number",
  parameters: z.object({ flight: z.string() }),
  run: async ({ flight }, { signal }) => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // a real tool would pass `signal` to fetch
    signal.throwIfAborted();
    return { flight, status: "on time", gate: "B12" };
  },
});

const run = client.chat.completions.runTools({
  model: "auto",
  messages: [{ role: "user", content: "Is flight TP1350 on time?" }],
  tools: [lookUpFlight],
  stream: true,
});
for await (const event of run) {
  if (event.type === "step.start") process.stdout.write(`[step ${event.step}] `);
  if (event.type === "chunk") process.stdout.write(event.chunk.choices[0]?.delta.content ?? "");
  if (event.type === "tool_call") process.stdout.write(`calling ${event.call.function.name}… `);
  if (event.type === "tool_result") process.stdout.write(`done in ${Math.round(event.ms)} ms `);
  if (event.type === "step.end") process.stdout.write("\n");
}
const result = await run;
console.log(`${result.stopReason} after ${result.steps.length} steps`);
