// A tool loop with runTools(): the SDK runs the tools the model calls (at the same time),
// sends their results back, and repeats until the model answers, or a limit stops the run.
import "./offline.ts";
import ModelGate, { tool } from "modelgate";
import { z } from "zod";

const client = new ModelGate();

const getWeather = tool({
  name: "get_weather",
  description: "Current weather for a city",
  parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
  run: async ({ city, unit = "celsius" }) => ({ city, temperature: 21, unit, sky: "clear" }),
});
const getLocalTime = tool({
  name: "get_local_time",
  description: "The local time in a city",
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => `It is 14:05 in ${city}.`, // a string goes to the model as it is
});

const result = await client.chat.completions.runTools(
  { model: "auto", messages: [{ role: "user", content: "What's the weather and the time in Lisbon?" }], tools: [getWeather, getLocalTime] },
  { maxSteps: 5, maxCost: 0.01 }, // stops with "max_steps" or "max_cost" instead of looping on
);
for (const [index, step] of result.steps.entries()) {
  const calls = step.toolCalls.map(({ call, error }) => `${call.function.name}${error ? " (failed)" : ""}`);
  console.log(`step ${index + 1} (${step.model}): ${calls.length > 0 ? `called ${calls.join(" and ")}` : "answered"}`);
}
console.log(`${result.stopReason}: ${result.message?.content}`);
console.log(`${result.usage.total_tokens} tokens, $${result.cost?.toPrecision(3)}`);
