import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scope, type } from "arktype";
import { APIConnectionError, APIError, ModelGate, ModelGateError, StructuredOutputError, jsonSchema, tool, type ChatCompletion } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";

// The defects a hostile review of parse() reproduced, one test each, so none comes back.

const KEY = "mg-secret-KEY-0123456789abcdef";
const messages = [{ role: "user" as const, content: "hi" }];
const Answer = z.object({ a: z.number() });
/** The client's key is KEY, so that the redaction tests mean something. */
const clientWith = (respond: Parameters<typeof recordingClient>[0]) => recordingClient(respond, { apiKey: KEY });


const reply = (message: Record<string, unknown>, finish = "stop"): ChatCompletion =>
  ({ ...completionBody(""), choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason: finish }] }) as ChatCompletion;

const settle = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => "resolved", (error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve("still pending"), 1_000))]);

describe("parse() edges found by review", () => {
  it("settles finalChatCompletion() and partialObjectStream with the error when a loop over the chunks fails", async () => {
    const { client } = clientWith(() => sseResponse([sseData(chunk({ content: '{"a":' }))], { breakOff: true }));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    const final = settle(stream.finalChatCompletion());
    const partials = settle(
      (async () => {
        for await (const _ of stream.partialObjectStream);
      })(),
    );
    const loop = await (async () => {
      for await (const _ of stream);
    })().catch((error: unknown) => error);
    expect(loop).toBeInstanceOf(APIConnectionError);
    expect(await final).toBe(loop);
    expect(await partials).toBe(loop);
  });

  it("gives parsed: null and the parsed_arguments when the model calls a tool instead of answering, streamed and not", async () => {
    const lookup = tool({ name: "lookup", parameters: z.object({ city: z.string() }) });
    const call = { id: "c1", type: "function", function: { name: "lookup", arguments: '{"city":"Paris"}' } };
    const plain = clientWith(() => Response.json(reply({ tool_calls: [call] }, "tool_calls")));
    const completion = await plain.client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: [lookup] });
    expect(completion.choices[0]!.message.parsed).toBeNull();
    expect(completion.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({ city: "Paris" });
    const events = [sseData(chunk(toolFragment({ index: 0, id: "c1", name: "lookup", arguments: '{"city":"Paris"}' }))), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    const streamed = clientWith(() => sseResponse(events));
    const stream = await streamed.client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: [lookup], stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toBeNull();
    expect(final.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({ city: "Paris" });
  });

  it("never shows the API key in a StructuredOutputError, whatever the model echoed", async () => {
    for (const [content, schema] of [
      [JSON.stringify({ n: KEY }), type({ n: "'a' | 'b'" })],
      [`{"a": 1, "echo": "${KEY}" oops`, Answer],
    ] as const) {
      const { client } = clientWith(() => Response.json(reply({ content })));
      const error = (await client.chat.completions.parse({ model: "m", messages, response_format: schema }).catch((caught: unknown) => caught)) as StructuredOutputError;
      expect(error).toBeInstanceOf(StructuredOutputError);
      for (const shown of [error.message, String(error), error.stack ?? "", JSON.stringify(error), JSON.stringify(error.issues), error.content ?? "", JSON.stringify(error.completion)]) {
        expect(shown).not.toContain(KEY);
        expect(shown).not.toContain(KEY.slice(0, 16));
      }
      expect(JSON.stringify(error.completion)).toContain("[redacted]");
    }
  });

  it("keeps a pending finalChatCompletion() and other partial readers going when one partial reader breaks out", async () => {
    const pieces = ['{"title":"Hel', 'lo","body":"wor', 'ld"}'];
    const { client } = clientWith(() => sseResponse([...pieces.map((piece) => sseData(chunk({ content: piece }))), sseData(chunk({}, { finish: "stop" })), DONE]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: z.object({ title: z.string(), body: z.string() }), stream: true });
    const final = stream.finalChatCompletion();
    const other = (async () => {
      let last: unknown;
      for await (const partial of stream.partialObjectStream) last = partial;
      return last;
    })();
    for await (const _ of stream.partialObjectStream) break;
    expect((await final).choices[0]!.message.parsed).toEqual({ title: "Hello", body: "world" });
    expect(await other).toEqual({ title: "Hello", body: "world" });
  });

  it("rejects finalChatCompletion() after a break stopped the stream, instead of inventing an end", async () => {
    const { client } = clientWith(() => sseResponse([sseData(chunk({ content: '{"a":1}' })), sseData(chunk({}, { finish: "length" })), DONE]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    for await (const _ of stream.partialObjectStream) break;
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/stopped before its end/);
  });

  it('sends a valid JSON Schema in "tool" mode when the root is not an object: definitions move up with it', async () => {
    const recursive = scope({ node: { name: "string", children: "node[]" } }).export().node;
    const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({ name: z.string(), get children() { return z.array(Node); } });
    for (const schema of [recursive, z.array(Node), z.array(z.object({ x: z.string() }).meta({ id: "Item" }))]) {
      const { client, sent } = clientWith(() => Response.json(reply({ tool_calls: [] }, "tool_calls")));
      await client.chat.completions.parse({ model: "m", messages, response_format: schema }, { structuredOutput: "tool" }).catch(() => undefined);
      const parameters = (sent[0]!.tools as { function: { parameters: Record<string, unknown> } }[]).at(-1)!.function.parameters;
      expect(() => new Ajv({ strict: false }).compile(parameters)).not.toThrow();
    }
    const answer = { value: { name: "root", children: [{ name: "leaf", children: [] }] } };
    const { client } = clientWith(() => Response.json(reply({ tool_calls: [{ id: "c", type: "function", function: { name: "response", arguments: JSON.stringify(answer) } }] }, "tool_calls")));
    const parsed = await client.chat.completions.parse({ model: "m", messages, response_format: recursive }, { structuredOutput: "tool" });
    expect(parsed.choices[0]!.message.parsed).toEqual(answer.value);
  });

  it("sends strict: false when an object anywhere is open, additionalItems, dependencies and unevaluatedItems included", async () => {
    const open = { type: "object", properties: { x: { type: "string" } } };
    for (const schema of [
      { type: "array", items: [{ type: "string" }], additionalItems: open },
      { type: "object", properties: {}, required: [], additionalProperties: false, dependencies: { x: open } },
      { type: "array", unevaluatedItems: open },
    ]) {
      const { client, sent } = clientWith(() => Response.json(reply({ content: "[]" })));
      await client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(schema) }).catch(() => undefined);
      expect((sent[0]!.response_format as { json_schema: { strict: boolean } }).json_schema.strict).toBe(false);
    }
  });

  it("makes the new error classes statics of the client class, as the others are", () => {
    expect(ModelGate.StructuredOutputError).toBe(StructuredOutputError);
    expect(ModelGate.BudgetExceededError).toBeTypeOf("function");
  });

  it("reports a schema whose own code throws, or returns no result, as StructuredOutputError with the cause", async () => {
    const { client } = clientWith(() => Response.json(reply({ content: '{"when":"not a date"}' })));
    const throwing = z.object({ when: z.string().transform((text) => new Date(text).toISOString()) });
    const error = (await client.chat.completions.parse({ model: "m", messages, response_format: throwing }).catch((caught: unknown) => caught)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/rejected by the schema, which threw: Invalid time value/);
    expect(error.cause).toBeInstanceOf(RangeError);
    const silent = { "~standard": { version: 1, vendor: "custom", validate: () => undefined, jsonSchema: { input: () => ({ type: "object" }), output: () => ({}) } } };
    const second = await client.chat.completions.parse({ model: "m", messages, response_format: silent as never }).catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(StructuredOutputError);
  });

  it("shows partials of a long answer often, but not once per chunk, so the work stays linear", async () => {
    const answer = JSON.stringify(Object.fromEntries(Array.from({ length: 8_000 }, (_, index) => [`key${index}`, `value ${index}`])));
    const pieces = answer.match(/[\s\S]{1,16}/g)!;
    const { client } = clientWith(() => sseResponse([pieces.map((piece) => sseData(chunk({ content: piece }))).join(""), sseData(chunk({}, { finish: "stop" })), DONE]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: z.record(z.string(), z.string()), stream: true });
    let shown = 0;
    let last: unknown;
    for await (const partial of stream.partialObjectStream) {
      shown++;
      last = partial;
    }
    expect(last).toEqual(JSON.parse(answer));
    // Every change below 16 KiB (about 1,000 chunks), then one per 1/32 of growth: far fewer than the 11,000 chunks.
    expect(shown).toBeGreaterThan(500);
    expect(shown).toBeLessThan(2_000);
  });

  it("names the caller's own mistakes, as the caller wrote them", async () => {
    const { client, sent } = clientWith(() => Response.json(reply({ content: "{}" })));
    const badMessage = await client.chat.completions.parse({ model: "m", messages: [{ role: "bot" } as never], response_format: Answer }, { structuredOutput: "json_object" }).catch((caught: unknown) => caught);
    expect((badMessage as Error).message).toMatch(/^`messages\[0\]\.role` must be/);
    const badTools = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: "lookup" as never }, { structuredOutput: "tool" }).catch((caught: unknown) => caught);
    expect((badTools as Error).message).toMatch(/^`tools` must be an array/);
    const badRoute = await client.chat.completions.parse({ model: "auto", messages, response_format: Answer, route: { capabilities: "vision" as never } }).catch((caught: unknown) => caught);
    expect((badRoute as Error).message).toMatch(/^`route\.capabilities` must be an array/);
    expect(sent).toHaveLength(0);
    const thrown = (action: () => unknown) => {
      try {
        action();
      } catch (error) {
        return error as ModelGateError;
      }
      throw new Error("nothing was thrown");
    };
    expect(thrown(() => tool("x" as never))).toMatchObject({ param: "definition", message: 'tool(): `definition` must be an object such as { name, description, parameters, run }; got "x".' });
    expect(thrown(() => tool({ name: "t", description: 42 as never, parameters: Answer }))).toMatchObject({ param: "description" });
    expect(thrown(() => tool({ name: "t", strict: "yes" as never, parameters: Answer }))).toMatchObject({ param: "strict" });
    expect(thrown(() => tool({ name: "t", parameters: z.string() as never }))).toMatchObject({ param: "parameters", message: expect.stringMatching(/`parameters` must describe an object/) });
    expect(thrown(() => jsonSchema({}, "weather" as never))).toMatchObject({ param: "options" });
    expect(thrown(() => jsonSchema([] as never))).toMatchObject({ param: "schema" });
  });

  it("gives the raw response from asResponse() even when the answer does not validate", async () => {
    const { client } = clientWith(() => Response.json(reply({ content: "not json" })));
    const call = client.chat.completions.parse({ model: "m", messages, response_format: Answer });
    const response = await call.asResponse();
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0].message.content).toBe("not json");
    await expect(call).rejects.toBeInstanceOf(StructuredOutputError);
    await expect(call.withResponse()).rejects.toBeInstanceOf(StructuredOutputError);
  });

  it("reports an in-stream error to every consumer with its class", async () => {
    const failing = { ...chunk({}, { finish: "error" as never }), error: { code: 500, message: "boom" } };
    const { client } = clientWith(() => sseResponse([sseData(chunk({ content: '{"a":' })), sseData(failing)]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
  });
});
