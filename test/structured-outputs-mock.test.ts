import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { BadRequestError, ModelGate, StructuredOutputError, tool } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockFault } from "../src/testing/index.ts";

// parse() end to end against the mock gateway, which answers with values generated from the
// JSON Schema the SDK sent: every value must come back through the caller's own schema.

function mockClient() {
  // Chunks a timer turn apart, as from a model: each arrives on its own and shows as its own partial.
  const gateway = createMockGateway({ chunkDelayMs: 1 });
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
  return { gateway, client };
}

const Order = z.object({
  id: z.string().uuid(),
  email: z.string().email(),
  status: z.enum(["new", "paid", "shipped"]),
  total: z.number().min(0).max(10_000),
  lines: z
    .array(z.object({ sku: z.string().min(3).max(12), quantity: z.number().int().min(1).max(9), gift: z.boolean().optional() }))
    .min(1)
    .max(4),
  note: z.string().nullable(),
  shipping: z.object({ country: z.string().length(2), express: z.boolean() }),
});
const messages = [{ role: "user" as const, content: "Make up an order." }];
const SCHEMAS = {
  zod: Order,
  valibot: toStandardJsonSchema(
    v.object({ name: v.string(), tags: v.pipe(v.array(v.picklist(["a", "b", "c"])), v.maxLength(3)), score: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) }),
  ),
  arktype: type({ name: "string", "age?": "number.integer >= 0", kind: "'cat' | 'dog'", friends: "string[]" }),
};

describe("parse() against the mock gateway", () => {
  for (const [library, schema] of Object.entries(SCHEMAS)) {
    it(`gets a value that passes a ${library} schema, in every mode, streamed and not`, async () => {
      const { client } = mockClient();
      for (const structuredOutput of ["json_schema", "tool", "json_object"] as const) {
        const plain = await client.chat.completions.parse({ model: "auto", messages, response_format: schema }, { structuredOutput });
        const parsed = plain.choices[0]!.message.parsed;
        expect(await schema["~standard"].validate(parsed), `${structuredOutput}: ${JSON.stringify(parsed)}`).not.toHaveProperty("issues", expect.anything());
        const stream = await client.chat.completions.parse({ model: "auto", messages, response_format: schema, stream: true }, { structuredOutput });
        const partials: unknown[] = [];
        for await (const partial of stream.partialObjectStream) partials.push(partial);
        const final = await stream.finalChatCompletion();
        expect(partials.length, "the answer streams in several partial objects").toBeGreaterThan(2);
        expect(final.choices[0]!.message.parsed).toBeTruthy();
      }
    });
  }

  it('routes model "auto" to a model with structured outputs in the default mode', async () => {
    const { client, gateway } = mockClient();
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: Order });
    const model = (await client.models.list()).data.find((entry) => entry.id === completion.model);
    expect(model?.capabilities).toContain("structured_outputs");
    expect(gateway.requests[0]!.body).toMatchObject({ route: { capabilities: ["structured_outputs"] } });
  });

  it('a model without structured outputs refuses json_schema (400) and answers in "tool" and "json_object" modes', async () => {
    const { client } = mockClient();
    const model = "mistralai/mistral-small";
    await expect(client.chat.completions.parse({ model, messages, response_format: Order })).rejects.toBeInstanceOf(BadRequestError);
    for (const structuredOutput of ["tool", "json_object"] as const) {
      const completion = await client.chat.completions.parse({ model, messages, response_format: Order }, { structuredOutput });
      expect(Order.safeParse(completion.choices[0]!.message.parsed).success).toBe(true);
    }
  });

  const faults: [MockFault & { type: "structured" }, (error: unknown, parsed: unknown) => void][] = [
    [{ type: "structured", as: "invalid-json" }, (error) => expect((error as Error).message).toMatch(/^The answer is not valid JSON: /)],
    [{ type: "structured", as: "schema-violation" }, (error) => expect((error as StructuredOutputError).issues.length).toBeGreaterThan(0)],
    [{ type: "structured", as: "length" }, (error) => expect((error as Error).message).toMatch(/finish_reason "length"/)],
  ];
  for (const [fault, check] of faults) {
    it(`throws StructuredOutputError for a scripted ${fault.as} reply, streamed and not, in "json_schema" and "tool" modes`, async () => {
      const { client, gateway } = mockClient();
      for (const structuredOutput of ["json_schema", "tool"] as const) {
        gateway.inject(fault, 2);
        const plain = await client.chat.completions.parse({ model: "auto", messages, response_format: Order }, { structuredOutput }).catch((error: unknown) => error);
        expect(plain).toBeInstanceOf(StructuredOutputError);
        check(plain, undefined);
        expect((plain as StructuredOutputError).completion.model).toBeTruthy();
        const stream = await client.chat.completions.parse({ model: "auto", messages, response_format: Order, stream: true }, { structuredOutput });
        const streamed = await (async () => {
          for await (const _ of stream.partialObjectStream);
        })().catch((error: unknown) => error);
        expect(streamed).toBeInstanceOf(StructuredOutputError);
        check(streamed, undefined);
        expect(await stream.finalChatCompletion().catch((error: unknown) => error)).toBe(streamed);
      }
    });
  }

  it("gives parsed: null and the refusal for a scripted refusal, streamed and not", async () => {
    const { client, gateway } = mockClient();
    gateway.inject({ type: "structured", as: "refusal" }, 2);
    const plain = await client.chat.completions.parse({ model: "auto", messages, response_format: Order });
    expect(plain.choices[0]!.message.parsed).toBeNull();
    expect(plain.choices[0]!.message.refusal).toEqual(expect.any(String));
    const stream = await client.chat.completions.parse({ model: "auto", messages, response_format: Order, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect(partials).toEqual([]);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toBeNull();
    expect(final.choices[0]!.message.refusal).toEqual(plain.choices[0]!.message.refusal);
  });

  it("gives a forced call of a tool() tool its parsed_arguments", async () => {
    const { client } = mockClient();
    const lookup = tool({ name: "lookup_order", parameters: z.object({ id: z.string().uuid(), include: z.array(z.enum(["lines", "shipping"])).max(2) }) });
    const completion = await client.chat.completions.parse({
      model: "auto",
      messages,
      tools: [lookup],
      tool_choice: { type: "function", function: { name: "lookup_order" } },
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.function.name).toBe("lookup_order");
    expect(call.function.parsed_arguments).toEqual(JSON.parse(call.function.arguments));
    expect(lookup.function.parameters).toMatchObject({ type: "object" });
  });
});
