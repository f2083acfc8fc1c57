import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { ModelGate, ModelGateError, StructuredOutputError, APIConnectionError, jsonSchema, tool, type ChatCompletion } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";

const Weather = z.object({ city: z.string(), celsius: z.number() });
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

/** What the library's JSON Schema for an object is sent as: closed, since it is silent on `additionalProperties`. */
const closedInput = (schema: { "~standard": { jsonSchema: { input(options: { target: string }): Record<string, unknown> } } }) => ({
  ...schema["~standard"].jsonSchema.input({ target: "draft-07" }),
  additionalProperties: false,
});


/** A client answering with `content` as the assistant message (and `finish_reason`). */
function answering(content: string | null, extra: Partial<ChatCompletion["choices"][number]["message"]> = {}, finish: string = "stop") {
  return recordingClient(() => {
    const completion = completionBody(content ?? "");
    completion.choices[0] = { index: 0, message: { role: "assistant", content, ...extra }, finish_reason: finish as "stop" };
    return Response.json(completion);
  });
}

/** A client streaming `pieces` as content deltas of choice 0, then `stop` and [DONE]. */
function streaming(pieces: string[], options: { finish?: "stop" | "length"; breakOff?: boolean } = {}) {
  const events = pieces.map((piece) => sseData(chunk({ content: piece })));
  const tail = options.breakOff ? [] : [sseData(chunk({}, { finish: options.finish ?? "stop" })), DONE];
  const state = { cancelled: false };
  const recorded = recordingClient(() => {
    const response = sseResponse([...events, ...tail], { breakOff: options.breakOff ?? false });
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: async (reason) => {
        state.cancelled = true;
        await reader.cancel(reason);
      },
    });
    return new Response(body, { headers: response.headers });
  });
  return { ...recorded, state };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("parse(): the request", () => {
  it("sends a Standard Schema's JSON Schema as json_schema under the name \"response\", its objects closed, strict when strict mode takes it", async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const Optional = z.object({ city: z.string(), celsius: z.number().optional() });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: Weather });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: z.strictObject({ city: z.string(), celsius: z.number() }) });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: Optional });
    const [silent, closed, optional] = sent.map((body) => body.response_format as { type: string; json_schema: Record<string, unknown> });
    expect(silent.type).toBe("json_schema");
    expect(silent.json_schema.name).toBe("response");
    expect(silent.json_schema.schema).toEqual(closedInput(Weather));
    expect(silent.json_schema.strict).toBe(true);
    expect(closed.json_schema).toEqual(silent.json_schema);
    // An optional property: strict mode cannot take it, so strict is false and the schema is only closed.
    expect(optional.json_schema.schema).toEqual(closedInput(Optional));
    expect(optional.json_schema.strict).toBe(false);
    expect(sent[0]).not.toHaveProperty("route");
  });

  it('adds "structured_outputs" to route.capabilities for model "auto", keeping the caller\'s route', async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    await client.chat.completions.parse({ model: "auto", messages, response_format: Weather, route: { sort: "quality", capabilities: ["vision"] } });
    await client.chat.completions.parse({ model: "auto", messages, response_format: Weather, route: { capabilities: ["structured_outputs"] } });
    expect(sent[0].route).toEqual({ sort: "quality", capabilities: ["vision", "structured_outputs"] });
    expect(sent[1].route).toEqual({ capabilities: ["structured_outputs"] });
  });

  it("sends jsonSchema() under its name, and OpenAI's own json_schema form exactly as given", async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
    await client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(schema, { name: "weather" }) });
    const openAIForm = { type: "json_schema" as const, json_schema: { name: "w", schema, strict: false } };
    await client.chat.completions.parse({ model: "m", messages, response_format: openAIForm });
    expect(sent[0].response_format).toEqual({ type: "json_schema", json_schema: { name: "weather", schema, strict: true } });
    expect(sent[1].response_format).toEqual(openAIForm);
  });

  it('"tool" mode sends the schema as one forced function and no response_format', async () => {
    const { client, sent } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "response", arguments: '{"city":"Paris","celsius":21}' } }] },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: Weather }, { structuredOutput: "tool" });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(sent[0]).not.toHaveProperty("response_format");
    expect(sent[0].tool_choice).toEqual({ type: "function", function: { name: "response" } });
    expect((sent[0].tools as { function: { name: string; parameters: unknown; strict: boolean } }[])[0].function).toMatchObject({ parameters: closedInput(Weather), strict: true });
    expect(sent[0].route).toEqual({ capabilities: ["tools"] });
  });

  it('"tool" mode wraps an answer that is not an object as { value } and unwraps it', async () => {
    const { client, sent } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "response", arguments: '{"value":["a","b"]}' } }] },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: z.array(z.string()) }, { structuredOutput: "tool" });
    expect(completion.choices[0].message.parsed).toEqual(["a", "b"]);
    const parameters = (sent[0].tools as { function: { parameters: { $schema?: string; properties: { value: unknown } } } }[])[0].function.parameters;
    const { $schema, ...arraySchema } = z.array(z.string())["~standard"].jsonSchema.input({ target: "draft-07" });
    expect(parameters.properties.value).toEqual(arraySchema);
    expect(parameters.$schema).toBe($schema);
  });

  it('"json_object" mode asks for a JSON object and puts the schema in a system message', async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: Weather }, { structuredOutput: "json_object" });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(sent[0].response_format).toEqual({ type: "json_object" });
    const [system, ...rest] = sent[0].messages as { role: string; content: string }[];
    expect(system.role).toBe("system");
    expect(system.content).toContain(JSON.stringify(closedInput(Weather)));
    expect(rest).toEqual(messages);
    expect(sent[0].route).toEqual({ capabilities: ["json"] });
  });

  it("rejects, sending nothing, a schema without JSON Schema, a bad mode, a name clash and a forced tool_choice", async () => {
    const { client, sent } = answering("{}");
    const valibotAlone = v.object({ city: v.string() });
    const noJSONSchema = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: valibotAlone as never }));
    expect(noJSONSchema).toBeInstanceOf(ModelGateError);
    expect((noJSONSchema as Error).message).toMatch(/valibot schema that offers no JSON Schema \(`~standard\.jsonSchema` is missing\).*toStandardJsonSchema/);
    const badMode = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }, { structuredOutput: "xml" as never }));
    expect((badMode as Error).message).toBe('`structuredOutput` must be one of "json_schema", "tool", "json_object"; got "xml".');
    const clash = tool({ name: "response", parameters: z.object({}) });
    const clashing = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather, tools: [clash] }, { structuredOutput: "tool" }));
    expect((clashing as Error).message).toMatch(/already has one/);
    const forced = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather, tool_choice: "auto" }, { structuredOutput: "tool" }));
    expect((forced as Error).message).toMatch(/tool_choice/);
    const notASchema = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: { type: "text" } as never }));
    expect((notASchema as Error).message).toMatch(/^`response_format` must be a Standard Schema/);
    expect(sent).toHaveLength(0);
  });

  it("never throws synchronously, whatever plain JavaScript passes", async () => {
    const { client, sent } = answering("{}");
    const parse = client.chat.completions.parse as (...args: unknown[]) => Promise<unknown>;
    for (const args of [[], [null], [42], [{ model: "m", messages }, "options"], [{ model: "m", messages: "hi", response_format: Weather }]]) {
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = parse.apply(client.chat.completions, args))).not.toThrow();
      expect(await rejection(promise!)).toBeInstanceOf(ModelGateError);
    }
    expect(sent).toHaveLength(0);
  });
});

describe("parse(): the answer", () => {
  it("gives the validated value as message.parsed, with the reply otherwise untouched", async () => {
    const { client } = answering('{"city":"Paris","celsius":21}');
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(completion.choices[0].message.content).toBe('{"city":"Paris","celsius":21}');
  });

  it("uses what the schema returns (transforms and defaults) and what jsonSchema()'s validate returns", async () => {
    const { client } = answering('{"city":"paris"}');
    const Upper = z.object({ city: z.string().transform((city) => city.toUpperCase()), celsius: z.number().default(20) });
    const fromZod = await client.chat.completions.parse({ model: "m", messages, response_format: Upper });
    expect(fromZod.choices[0].message.parsed).toEqual({ city: "PARIS", celsius: 20 });
    const checked = jsonSchema<{ city: string }>({ type: "object" }, { validate: (value) => ({ city: `${(value as { city: string }).city}!` }) });
    const fromFunction = await client.chat.completions.parse({ model: "m", messages, response_format: checked });
    expect(fromFunction.choices[0].message.parsed).toEqual({ city: "paris!" });
  });

  it("works with Valibot through its adapter and with ArkType, reporting their issues with paths", async () => {
    const { client } = answering('{"city":"Paris","celsius":"warm"}');
    const valibot = toStandardJsonSchema(v.object({ city: v.string(), celsius: v.number() }));
    const ark = type({ city: "string", celsius: "number" });
    for (const schema of [valibot, ark, Weather]) {
      const error = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: schema }));
      expect(error).toBeInstanceOf(StructuredOutputError);
      const { issues, content, completion } = error as StructuredOutputError;
      expect(issues).toHaveLength(1);
      expect(issues[0].path).toEqual(["celsius"]);
      expect(issues[0].message).toEqual(expect.any(String));
      expect(content).toBe('{"city":"Paris","celsius":"warm"}');
      expect(completion.choices[0].message.content).toBe(content);
      expect((error as Error).message).toMatch(/^The answer does not match the schema: celsius: /);
    }
    const fine = await client.chat.completions.parse({ model: "m", messages, response_format: type({ city: "string", celsius: "string" }) });
    expect(fine.choices[0].message.parsed).toEqual({ city: "Paris", celsius: "warm" });
  });

  it("throws StructuredOutputError for invalid JSON, with one issue describing it", async () => {
    const { client } = answering('{"city":"Paris", celsius: 21}');
    const error = (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }))) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/^The answer is not valid JSON: /);
    expect(error.issues).toEqual([{ message: error.message.slice(0, -1) }]);
    expect(error.content).toBe('{"city":"Paris", celsius: 21}');
  });

  it('throws StructuredOutputError for a reply cut by the token limit, even when its JSON happens to parse', async () => {
    for (const content of ['{"city":"Par', '{"city":"Paris","celsius":21}']) {
      const { client } = answering(content, {}, "length");
      const error = (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }))) as StructuredOutputError;
      expect(error).toBeInstanceOf(StructuredOutputError);
      expect(error.message).toMatch(/finish_reason "length".*raise max_tokens/);
      expect(error.content).toBe(content);
    }
  });

  it("gives parsed: null on a refusal", async () => {
    const { client } = answering(null, { refusal: "I can't help with that." });
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toBeNull();
    expect(completion.choices[0].message.refusal).toBe("I can't help with that.");
  });

  it("throws when there is no answer at all, and accepts JSON wrapped in a Markdown fence", async () => {
    const empty = answering(null);
    expect(await rejection(empty.client.chat.completions.parse({ model: "m", messages, response_format: Weather }))).toBeInstanceOf(StructuredOutputError);
    const fenced = answering('```json\n{"city":"Paris","celsius":21}\n```');
    const completion = await fenced.client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("parses every choice", async () => {
    const { client } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [0, 1].map((index) => ({ index, message: { role: "assistant", content: `{"city":"C${index}","celsius":${index}}` }, finish_reason: "stop" })),
      }),
    );
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, n: 2 });
    expect(completion.choices.map((choice) => choice.message.parsed)).toEqual([
      { city: "C0", celsius: 0 },
      { city: "C1", celsius: 1 },
    ]);
  });

  it("gives the OpenAI json_schema form's JSON unvalidated, and parsed: null without a response_format", async () => {
    const { client } = answering('{"anything":[1,2]}');
    const raw = await client.chat.completions.parse({ model: "m", messages, response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } } });
    expect(raw.choices[0].message.parsed).toEqual({ anything: [1, 2] });
    const none = await client.chat.completions.parse({ model: "m", messages });
    expect(none.choices[0].message.parsed).toBeNull();
  });

  it("adds parsed_arguments to the calls of tool() tools, and rejects arguments their schema refuses", async () => {
    const getWeather = tool({ name: "get_weather", description: "Weather", parameters: z.object({ city: z.string() }) });
    const reply = (args: string) =>
      recordingClient(() =>
        Response.json({
          ...completionBody(""),
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  { id: "c1", type: "function", function: { name: "get_weather", arguments: args } },
                  { id: "c2", type: "function", function: { name: "other", arguments: "{}" } },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
        }),
      );
    const plain = { type: "function" as const, function: { name: "other", parameters: {} } };
    const good = reply('{"city":"Paris"}');
    const completion = await good.client.chat.completions.parse({ model: "m", messages, tools: [getWeather, plain] });
    const [call, other] = completion.choices[0].message.tool_calls!;
    expect(call.function.parsed_arguments).toEqual({ city: "Paris" });
    expect(other.function).not.toHaveProperty("parsed_arguments");
    expect(good.sent[0].tools).toEqual([
      { type: "function", function: { name: "get_weather", description: "Weather", parameters: closedInput(z.object({ city: z.string() })), strict: true } },
      plain,
    ]);
    const bad = reply('{"city":7}');
    const error = (await rejection(bad.client.chat.completions.parse({ model: "m", messages, tools: [getWeather] }))) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/^The arguments of the "get_weather" call does not match the schema: city: /);
  });

  it("resolves withResponse() to the parsed completion and the response", async () => {
    const { client } = recordingClient(() => new Response(JSON.stringify(completionBody('{"city":"Paris","celsius":21}')), { headers: { "x-request-id": "req_1", "content-type": "application/json" } }));
    const { data, response, requestID } = await client.chat.completions.parse({ model: "m", messages, response_format: Weather }).withResponse();
    expect(data.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(requestID).toBe("req_1");
    expect(JSON.parse(await response.text()).choices[0].message.content).toBe('{"city":"Paris","celsius":21}');
  });
});

describe("strict by default", () => {
  /** What parse() sends as `json_schema` for `schema`, and as the forced function of "tool" mode. */
  async function sentFor(schema: Parameters<typeof jsonSchema>[0] | { "~standard": unknown }) {
    const format = "~standard" in schema ? schema : jsonSchema(schema);
    const { client, sent } = answering("{}");
    await client.chat.completions.parse({ model: "m", messages, response_format: format as never }).catch(() => undefined);
    await client.chat.completions.parse({ model: "m", messages, response_format: format as never }, { structuredOutput: "tool" }).catch(() => undefined);
    const { json_schema } = sent[0].response_format as { json_schema: { schema: Record<string, unknown>; strict: boolean } };
    const forced = (sent[1].tools as { function: { parameters: Record<string, unknown>; strict: boolean } }[])[0].function;
    return { schema: json_schema.schema, strict: json_schema.strict, forced };
  }

  it("sends Zod's z.object(), Valibot's object() and ArkType's type() closed and strict, as response_format, as the forced function and as a tool()", async () => {
    const schemas = {
      zod: z.object({ city: z.string(), tags: z.array(z.object({ name: z.string() })) }),
      valibot: toStandardJsonSchema(v.object({ city: v.string(), tags: v.array(v.object({ name: v.string() })) })),
      arktype: type({ city: "string", tags: type({ name: "string" }).array() }),
    };
    for (const [library, schema] of Object.entries(schemas)) {
      const input = schema["~standard"].jsonSchema.input({ target: "draft-07" }) as Record<string, unknown>;
      expect(input, `${library}'s own JSON Schema is silent on additionalProperties`).not.toHaveProperty("additionalProperties");
      const { schema: sent, strict, forced } = await sentFor(schema);
      expect(strict, library).toBe(true);
      expect(sent).toMatchObject({ type: "object", additionalProperties: false, properties: { tags: { items: { additionalProperties: false } } } });
      expect(forced, library).toEqual({ name: "response", description: expect.any(String), parameters: sent, strict: true });
      const defined = tool({ name: "t", parameters: schema });
      expect(defined.function.strict, library).toBe(true);
      expect(defined.function.parameters, library).toEqual(sent);
    }
  });

  it("closes each object silent on additionalProperties in properties, items, $defs, definitions and anyOf/oneOf branches, but none inside allOf", async () => {
    const open = (name: string) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });
    const closed = (name: string) => ({ ...open(name), additionalProperties: false });
    const { schema } = await sentFor({
      type: "object",
      properties: { nested: open("a"), list: { type: "array", items: open("b") }, either: { anyOf: [open("c"), { type: "null" }] }, one: { oneOf: [open("d")] }, both: { allOf: [open("e"), open("f")] }, kept: { ...open("g"), additionalProperties: true } },
      required: ["nested", "list", "either", "one", "both", "kept"],
      $defs: { x: open("x") },
      definitions: { y: open("y") },
    });
    expect(schema).toEqual({
      type: "object",
      properties: { nested: closed("a"), list: { type: "array", items: closed("b") }, either: { anyOf: [closed("c"), { type: "null" }] }, one: { oneOf: [closed("d")] }, both: { allOf: [open("e"), open("f")] }, kept: { ...open("g"), additionalProperties: true } },
      required: ["nested", "list", "either", "one", "both", "kept"],
      $defs: { x: closed("x") },
      definitions: { y: closed("y") },
      additionalProperties: false,
    });
  });

  it("keeps strict for every keyword strict mode supports: nesting, unions with null, enums, recursion, patterns, formats, bounds", async () => {
    type Node = { name: string; children: Node[] };
    const Node: z.ZodType<Node> = z.object({ name: z.string(), get children() { return z.array(Node); } });
    const Rich = z.object({
      kind: z.enum(["a", "b"]),
      fixed: z.literal("x"),
      note: z.string().nullable().describe("a note"),
      email: z.email(),
      when: z.iso.datetime(),
      code: z.string().regex(/^[A-Z]{3}$/),
      count: z.number().int().min(1).max(9).multipleOf(1),
      tags: z.array(z.string()).min(1).max(3),
      tree: Node,
      self: Node,
    });
    expect((await sentFor(Rich)).strict).toBe(true);
    expect((await sentFor(Node)).strict).toBe(true);
    expect((await sentFor(toStandardJsonSchema(v.object({ size: v.picklist(["s", "m"]), fixed: v.literal(1), maybe: v.nullable(v.string()) })))).strict).toBe(true);
    expect((await sentFor(type({ size: "'s'|'m'", maybe: "string|null", whole: "number.integer" }))).strict).toBe(true);
  });

  it("sends strict: false, the schema only closed, when strict mode cannot take it", async () => {
    const cases: [string, Record<string, unknown> | { "~standard": unknown }][] = [
      ["an optional property", z.object({ city: z.string().optional() })],
      ["a default", z.object({ city: z.string().default("Paris") })],
      ["minLength", z.object({ city: z.string().min(1) })],
      ["a format strict mode lacks", z.object({ site: z.url() })],
      ["oneOf", z.object({ shape: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]) })],
      ["a value of any type", z.object({ anything: z.unknown() })],
      ["a tuple", z.object({ pair: z.tuple([z.string(), z.number()]) })],
      ["a record (additionalProperties as a schema)", z.object({ scores: z.record(z.string(), z.number()) })],
      ["a root that is not an object", z.array(z.string())],
      ["allOf", { type: "object", properties: { both: { allOf: [{ type: "string" }, { minLength: 1 }] } }, required: ["both"] }],
      ["an object left open on purpose", { type: "object", properties: {}, additionalProperties: true }],
      ["a $ref with siblings", { type: "object", properties: { a: { $ref: "#/$defs/a", description: "x" } }, required: ["a"], $defs: { a: { type: "string" } } }],
      ["an array without items", { type: "object", properties: { list: { type: "array" } }, required: ["list"] }],
      ["a boolean schema", { type: "object", properties: { any: true }, required: ["any"] }],
      ["a root anyOf", { anyOf: [{ type: "object", properties: {} }, { type: "null" }] }],
    ];
    for (const [what, schema] of cases) {
      const own = "~standard" in schema ? ((schema as { "~standard": { jsonSchema: { input(options: object): Record<string, unknown> } } })["~standard"].jsonSchema.input({ target: "draft-07" })) : schema;
      const sent = await sentFor(schema);
      expect(sent.strict, what).toBe(false);
      // Nothing is rewritten to make it strict: the schema is the library's, objects closed where silent.
      expect(JSON.stringify(sent.schema).replaceAll(',"additionalProperties":false', ""), what).toBe(JSON.stringify(own));
    }
  });

  it("never changes what is accepted: the reply is checked by the caller's own schema, not the closed one", async () => {
    const { client } = answering('{"city":"Paris","celsius":21,"note":"a key the closed schema forbids"}');
    const seen: unknown[] = [];
    const open = jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }, { validate: (value) => (seen.push(value), value as { city: string }) });
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: open });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21, note: "a key the closed schema forbids" });
    expect(seen).toHaveLength(1);
    // Zod's object drops unknown keys rather than rejecting them; so it does here.
    expect((await client.chat.completions.parse({ model: "m", messages, response_format: Weather })).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("leaves the caller's schema unchanged, keeps a tool()'s own strict, and copes with a schema that refers to itself", () => {
    const schema: Record<string, unknown> = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const before = structuredClone(schema);
    const defined = tool({ name: "t", parameters: jsonSchema(schema), strict: false });
    expect(schema).toEqual(before);
    expect(defined.function).toMatchObject({ strict: false, parameters: { ...before, additionalProperties: false } });
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const looped = tool({ name: "loop", parameters: jsonSchema(cyclic) });
    const parameters = looped.function.parameters as { properties: { self: unknown }; additionalProperties: boolean };
    expect(parameters.properties.self).toBe(parameters);
    expect(parameters.additionalProperties).toBe(false);
    expect(looped.function.strict).toBe(false);
  });
});

describe("parse({ stream: true })", () => {
  const pieces = ['{"ci', 'ty":"Pa', 'ris","cel', "sius\":2", "1}"];

  it("yields growing partial objects, then finalChatCompletion() gives the validated completion", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(structuredClone(partial));
    expect(partials).toEqual([{}, { city: "Pa" }, { city: "Paris" }, { city: "Paris", celsius: 21 }]);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(final.choices[0].message.content).toBe(pieces.join(""));
  });

  it("finalChatCompletion() works without reading the partials, and after reading the chunks", async () => {
    const alone = streaming(pieces);
    const stream = await alone.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(await stream.finalChatCompletion()).toBe(await stream.finalChatCompletion());

    const afterChunks = streaming(pieces);
    const chunked = await afterChunks.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    let text = "";
    for await (const received of chunked) text += received.choices[0]?.delta.content ?? "";
    expect(text).toBe(pieces.join(""));
    expect((await chunked.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("lets a loop over the chunks started right after finalChatCompletion() read every chunk", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const final = stream.finalChatCompletion();
    const partials = (async () => {
      const seen: unknown[] = [];
      for await (const partial of stream.partialObjectStream) seen.push(structuredClone(partial));
      return seen;
    })();
    let count = 0;
    for await (const _ of stream) count++;
    expect(count).toBe(pieces.length + 1);
    expect((await final).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect((await partials).at(-1)).toEqual({ city: "Paris", celsius: 21 });
  });

  it("refuses a loop over the chunks after the partials were read", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    await stream.partialObjectStream[Symbol.asyncIterator]().next();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/already been consumed/);
  });

  it("throws StructuredOutputError from both on malformed JSON, with the whole reply, which is read to its end", async () => {
    const pieces = ['{"city":', "Paris}", "...and more text"];
    const { client, state } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const partial of stream.partialObjectStream) seen.push(partial);
      })(),
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as Error).message).toMatch(/^The answer is not valid JSON/);
    expect((error as StructuredOutputError).content).toBe(pieces.join(""));
    expect(seen).toEqual([{}]);
    expect(state.cancelled).toBe(false);
    expect(await rejection(stream.finalChatCompletion())).toBe(error);
  });

  it("treats a refusal that follows prose as a refusal, as a non-streamed reply is", async () => {
    const events = [sseData(chunk({ content: "I am sorry, " })), sseData(chunk({ refusal: "I can't help with that." })), sseData(chunk({}, { finish: "stop" })), DONE];
    const { client } = recordingClient(() => sseResponse(events));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    for await (const partial of stream.partialObjectStream) seen.push(partial);
    expect(seen).toEqual([]);
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toBeNull();
  });

  it("throws a schema failure and a length cut at the end, after the partials", async () => {
    const wrong = streaming(['{"city":"Paris",', '"celsius":"warm"}']);
    const stream = await wrong.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const partial of stream.partialObjectStream) seen.push(structuredClone(partial));
      })(),
    );
    expect(seen.at(-1)).toEqual({ city: "Paris", celsius: "warm" });
    expect((error as StructuredOutputError).issues[0].path).toEqual(["celsius"]);

    const cut = streaming(['{"city":"Par'], { finish: "length" });
    const cutStream = await cut.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect(((await rejection(cutStream.finalChatCompletion())) as Error).message).toMatch(/finish_reason "length"/);
  });

  it("throws the connection error of a stream that breaks off, from the partials and from finalChatCompletion()", async () => {
    const { client } = streaming(['{"city":"Pa'], { breakOff: true });
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const error = await rejection(
      (async () => {
        for await (const _ of stream.partialObjectStream);
      })(),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(await rejection(stream.finalChatCompletion())).toBe(error);
  });

  it("reads the answer from the forced function's argument fragments in \"tool\" mode", async () => {
    const events = [
      sseData(chunk(toolFragment({ index: 0, id: "c1", name: "response", arguments: "" }))),
      ...['{"city"', ':"Paris",', '"celsius":21}'].map((args) => sseData(chunk(toolFragment({ index: 0, arguments: args })))),
      sseData(chunk({}, { finish: "tool_calls" })),
      DONE,
    ];
    const { client } = recordingClient(() => sseResponse(events));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true }, { structuredOutput: "tool" });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(structuredClone(partial));
    expect(partials).toEqual([{}, { city: "Paris" }, { city: "Paris", celsius: 21 }]);
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("is a Stream: the response, requestID, text and the controller are there", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect(stream.requestID).toBe("req_stream");
    expect(stream.response.status).toBe(200);
    expect(await stream.text()).toBe(pieces.join(""));
  });
});
