// Typed JSON out of a model: the answer is validated against a Zod schema and typed by it.
// Any Standard Schema library with JSON Schema works the same way (ArkType; Valibot through
// toStandardJsonSchema() from @valibot/to-json-schema), as does jsonSchema<T>(...) without one.
import "./offline.ts";
import ModelGate, { StructuredOutputError } from "modelgate";
import { z } from "zod";

const client = new ModelGate();

const Trip = z.object({
  destination: z.string(),
  days: z.number().int().min(1).max(14),
  season: z.enum(["spring", "summer", "autumn", "winter"]),
  highlights: z.array(z.string()).max(3),
});

try {
  const completion = await client.chat.completions.parse({
    model: "auto", // the gateway picks a model with native structured outputs
    messages: [{ role: "user", content: "Plan a short trip to Portugal." }],
    response_format: Trip,
  });
  const trip = completion.choices[0]?.message.parsed; // typed: z.infer<typeof Trip> | null
  if (!trip) throw new Error(`the model refused: ${completion.choices[0]?.message.refusal}`);
  console.log(`${completion.model} planned ${trip.days} days in ${trip.destination} (${trip.season}): ${trip.highlights.length} highlights`);
} catch (error) {
  // Invalid JSON, a value the schema rejects, or a reply cut by max_tokens.
  if (error instanceof StructuredOutputError) console.error("unusable answer:", error.issues);
  throw error;
}

// A model without native structured outputs: send the schema as a forced tool call instead.
const viaTool = await client.chat.completions.parse(
  { model: "mistralai/mistral-small", messages: [{ role: "user", content: "Plan a trip." }], response_format: Trip },
  { structuredOutput: "tool" },
);
console.log(`via a tool call, ${viaTool.model}: ${viaTool.choices[0]?.message.parsed?.destination}`);
