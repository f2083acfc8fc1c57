import { describe, expect, it } from "vitest";
import type { ChatCompletion, ChatCompletionChunk } from "../src/index.ts";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mulberry32 } from "../src/testing/random.ts";
import { sampleSchema } from "../src/testing/schema/sample.ts";
import { LIBRARY_SCHEMAS, valibotProduct, zodCategoryTree, zodSignup } from "./fixtures/json-schemas.ts";
import { validatorFor } from "./fixtures/json-schema-validator.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// Structured outputs from the mock: values generated from JSON Schemas (checked by a real
// validator), the replies that carry them (json_schema, json_object, a forced tool call),
// the models that refuse them, and the scripted ways a structured reply goes wrong.

const SEEDS = Array.from({ length: 200 }, (_, index) => index * 7919 + 1);
const CAPABLE = "openai/gpt-4.1-mini";

function expectValid(schema: Record<string, unknown>, value: unknown, context = "") {
  const errors = validatorFor(schema)(value);
  expect(errors, `${context} ${JSON.stringify(value)} should follow the schema`).toEqual([]);
}

function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

const jsonSchemaFormat = (schema: Record<string, unknown>, name = "answer") => ({ type: "json_schema", json_schema: { name, schema, strict: true } });

function forcedTool(parameters: Record<string, unknown>) {
  return { tools: [{ type: "function", function: { name: "answer", parameters } }], tool_choice: { type: "function", function: { name: "answer" } } };
}

async function completion(response: Response): Promise<ChatCompletion> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ChatCompletion;
}

/** Choice 0 of a streamed reply put together: its content, refusal, tool call arguments, finish reason and pieces. */
async function joined(response: Response) {
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const { chunks, done } = parseEventStream(await response.text());
  expect(done).toBe(true);
  const deltas = chunks.flatMap((chunk: ChatCompletionChunk) => chunk.choices.filter((choice) => choice.index === 0));
  const contentPieces = deltas.map((choice) => choice.delta.content).filter((piece): piece is string => typeof piece === "string" && piece !== "");
  const argumentPieces = deltas.flatMap((choice) => choice.delta.tool_calls ?? []).map((call) => call.function?.arguments ?? "").filter(Boolean);
  const refusalPieces = deltas.map((choice) => choice.delta.refusal).filter((piece): piece is string => typeof piece === "string" && piece !== "");
  return {
    content: contentPieces.join(""),
    contentPieces,
    arguments: argumentPieces.join(""),
    argumentPieces,
    refusal: refusalPieces.length > 0 ? refusalPieces.join("") : null,
    toolNames: deltas.flatMap((choice) => choice.delta.tool_calls ?? []).map((call) => call.function?.name).filter(Boolean),
    finishReason: deltas.at(-1)?.finish_reason,
  };
}

describe("generated values (sampleSchema)", () => {
  it.each(Object.keys(LIBRARY_SCHEMAS))("follow the %s schema for 200 seeds, as Ajv checks it", (name) => {
    const schema = LIBRARY_SCHEMAS[name]!;
    const validate = validatorFor(schema);
    for (const seed of SEEDS) {
      const value = sampleSchema(schema, mulberry32(seed));
      expect(validate(value), `seed ${seed}: ${JSON.stringify(value)}`).toEqual([]);
    }
  });

  it("are deterministic: the same seed gives the same value, other seeds other values", () => {
    const values = SEEDS.slice(0, 20).map((seed) => JSON.stringify(sampleSchema(zodSignup, mulberry32(seed))));
    expect(SEEDS.slice(0, 20).map((seed) => JSON.stringify(sampleSchema(zodSignup, mulberry32(seed))))).toEqual(values);
    expect(new Set(values).size).toBe(20);
  });

  it("stay within numeric bounds, exclusive bounds and multipleOf, whatever the seed", () => {
    const schemas = [
      { type: "integer", minimum: 3, maximum: 7 },
      { type: "integer", exclusiveMinimum: 3, exclusiveMaximum: 5 },
      { type: "integer", minimum: -1000, multipleOf: 250 },
      { type: "integer", multipleOf: 2.5 },
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 0.01 },
      { type: "number", minimum: 0.1, maximum: 0.3, multipleOf: 0.1 },
      { type: "number", maximum: -1e6 },
      { type: "number", minimum: -1e308, maximum: 1e308 },
      { type: "number", minimum: 5, exclusiveMinimum: 5 },
      { $schema: "http://json-schema.org/draft-07/schema#", type: "number", exclusiveMinimum: 10, maximum: 10.5, multipleOf: 0.25 },
    ];
    for (const schema of schemas) {
      for (const seed of SEEDS) {
        const value = sampleSchema(schema, mulberry32(seed));
        expect(typeof value).toBe("number");
        expectValid(schema, value, `${JSON.stringify(schema)} seed ${seed}:`);
      }
    }
    // Open sides and z.int()'s ±2^53 give numbers a person would write, not 3.1e15.
    expect(Math.abs(sampleSchema({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 }, mulberry32(1)) as number)).toBeLessThanOrEqual(100);
  });

  it("stay within string lengths, and give valid examples of email, date-time, date, time, uuid and uri", () => {
    const schemas = [
      { type: "string", minLength: 30 },
      { type: "string", maxLength: 3 },
      { type: "string", minLength: 4, maxLength: 4 },
      { type: "string", maxLength: 0 },
      ...["email", "date-time", "date", "time", "uuid", "uri"].map((format) => ({ type: "string", format })),
    ];
    for (const schema of schemas) for (const seed of SEEDS) expectValid(schema, sampleSchema(schema, mulberry32(seed)), `${JSON.stringify(schema)} seed ${seed}:`);
  });

  it("match common patterns (a best effort: lookarounds and the like may miss)", () => {
    const patterns = ["^[A-Z]{3}-\\d{4}$", "^(foo|bar)+baz?$", "^\\w+@example\\.(com|org)$", "^[^\\s@]{2,5}$", "^v\\d+\\.\\d+\\.\\d+(-[a-z]+)?$", "^\\p{Lu}", "^#[\\da-f]{3}(?:[\\da-f]{3})?$"];
    for (const pattern of patterns) {
      const schema = { type: "string", pattern };
      for (const seed of SEEDS.slice(0, 50)) expectValid(schema, sampleSchema(schema, mulberry32(seed)), `pattern ${pattern} seed ${seed}:`);
    }
  });

  it("hold every required property, and each optional one for some seeds but not all", () => {
    const seen = new Map<string, number>();
    for (const seed of SEEDS) {
      const value = sampleSchema(valibotProduct, mulberry32(seed)) as Record<string, unknown>;
      for (const key of valibotProduct.required) expect(value, `seed ${seed}`).toHaveProperty(key);
      for (const key of Object.keys(value)) seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    for (const key of ["discount", "dimensions", "contact", "attributes"]) {
      expect(seen.get(key), key).toBeGreaterThan(0);
      expect(seen.get(key), key).toBeLessThan(SEEDS.length);
    }
  });

  it("end recursive schemas within a few levels: $ref to #, to $defs, to definitions", () => {
    for (const seed of SEEDS) {
      const tree = sampleSchema(zodCategoryTree, mulberry32(seed));
      expectValid(zodCategoryTree, tree, `seed ${seed}:`);
      expect(depthOf(tree)).toBeLessThanOrEqual(12);
    }
    const list = { $defs: { node: { type: "object", properties: { value: { type: "integer" }, next: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } }, required: ["value", "next"] } }, $ref: "#/$defs/node" };
    for (const seed of SEEDS) expectValid(list, sampleSchema(list, mulberry32(seed)));
  });

  it("stop on recursion that cannot end, and give bounded values for schemas that ask for too much", () => {
    const hostile = [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      { type: "object", properties: { next: { $ref: "#" } }, required: ["next"] },
      { allOf: [{ $ref: "#" }] },
      { type: "array", minItems: 1e9, items: { type: "array", minItems: 1e9, items: { type: "array", minItems: 1e9, items: { type: "string", minLength: 1e12 } } } },
      { type: "object", minProperties: 1e9, additionalProperties: { type: "object", minProperties: 1e9 } },
      { type: "string", pattern: "^(a+)+$", minLength: 5 },
      { type: "string", pattern: "[" },
      { type: "integer", minimum: 10, maximum: 1 },
      { $ref: "https://example.com/remote.json" },
    ];
    for (const schema of hostile) {
      let text: string | undefined;
      expect(() => (text = JSON.stringify(sampleSchema(schema, mulberry32(1))))).not.toThrow();
      // A size, not a time: 1e9 items of 1e12 characters each are asked for, and about 250,000 characters come back.
      expect(text?.length ?? 0, JSON.stringify(schema)).toBeLessThan(1_000_000);
    }
  });

  it("give some value for an empty or true schema, and null for false", () => {
    const values = SEEDS.slice(0, 30).map((seed) => sampleSchema({}, mulberry32(seed)));
    expect(values.every((value) => value !== undefined && value !== null)).toBe(true);
    expect(new Set(values.map((value) => typeof value)).size).toBeGreaterThan(1);
    expect(sampleSchema(true, mulberry32(1))).not.toBeUndefined();
    expect(sampleSchema(false, mulberry32(1))).toBeNull();
  });
});

describe("mock gateway: structured replies", () => {
  it("answers a json_schema response format with JSON content that follows the schema, finish_reason stop", async () => {
    const reply = await completion(await mockGateway().chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }));
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.tool_calls).toBeUndefined();
    expectValid(zodSignup, JSON.parse(choice.message.content!));
    // A mock token of JSON is four characters.
    expect(reply.usage?.completion_tokens).toBe(Math.ceil(choice.message.content!.length / 4));
  });

  it("streams json_schema content in pieces of a few characters that join into the non-streamed JSON", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }));
    const streamed = await joined(await chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup), stream: true }));
    expect(streamed.content).toBe(whole.choices[0]!.message.content);
    expect(streamed.finishReason).toBe("stop");
    expect(streamed.contentPieces.length).toBeGreaterThan(20);
    for (const piece of streamed.contentPieces) expect(piece.length).toBeLessThanOrEqual(6);
  });

  it("gives each of n choices its own value, and the same value for the same request", async () => {
    const { chat } = mockGateway();
    const request = { model: CAPABLE, n: 3, response_format: jsonSchemaFormat(valibotProduct) };
    const first = await completion(await chat(request));
    const again = await completion(await chat(request));
    const contents = first.choices.map((choice) => choice.message.content);
    expect(new Set(contents).size).toBe(3);
    expect(again.choices.map((choice) => choice.message.content)).toEqual(contents);
    for (const content of contents) expectValid(valibotProduct, JSON.parse(content!));
  });

  it("answers json_object with an object that follows the JSON Schema in the system message", async () => {
    const system = `Answer in JSON. The reply must follow this JSON Schema:\n${JSON.stringify(valibotProduct, null, 2)}\nNo prose.`;
    const messages = [
      { role: "system", content: "You are a shop assistant. {Be brief.}" },
      { role: "developer", content: system },
      { role: "user", content: "Describe a product." },
    ];
    const reply = await completion(await mockGateway().chat({ model: "mistralai/mistral-small", messages, response_format: { type: "json_object" } }));
    expectValid(valibotProduct, JSON.parse(reply.choices[0]!.message.content!));
  });

  it("answers json_object without a schema in the instructions with a small object", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", response_format: { type: "json_object" } }));
    expect(JSON.parse(reply.choices[0]!.message.content!)).toEqual({ answer: expect.any(String) });
  });

  it("cuts the JSON at max_tokens (four characters a token) with finish_reason length", async () => {
    const reply = await completion(await mockGateway().chat({ model: CAPABLE, max_tokens: 5, response_format: jsonSchemaFormat(zodSignup) }));
    expect(reply.choices[0]).toMatchObject({ finish_reason: "length", message: { content: expect.stringMatching(/^\{/) } });
    expect(reply.choices[0]!.message.content).toHaveLength(20);
  });

  it("leaves content to the `reply` option when one is given", async () => {
    const reply = await completion(await mockGateway({ reply: '{"fixed":true}' }).chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }));
    expect(reply.choices[0]!.message.content).toBe('{"fixed":true}');
  });
});

describe("mock gateway: forced tool calls", () => {
  it("calls the function named by tool_choice with arguments that follow its parameters, finish_reason tool_calls", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", ...forcedTool(zodSignup) }));
    const choice = reply.choices[0]!;
    expect(choice).toMatchObject({ finish_reason: "tool_calls", message: { content: null } });
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(choice.message.tool_calls![0]).toMatchObject({ id: expect.stringMatching(/^call_/), type: "function", function: { name: "answer" } });
    expectValid(zodSignup, JSON.parse(choice.message.tool_calls![0]!.function.arguments));
  });

  it("forces the only tool with tool_choice required", async () => {
    const tools = [{ type: "function", function: { name: "save_product", parameters: valibotProduct } }];
    const reply = await completion(await mockGateway().chat({ model: "auto", tools, tool_choice: "required" }));
    const call = reply.choices[0]!.message.tool_calls![0]!;
    expect(call.function.name).toBe("save_product");
    expectValid(valibotProduct, JSON.parse(call.function.arguments));
  });

  it("streams the arguments as many fragments that join into the non-streamed ones", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto", ...forcedTool(zodSignup) }));
    const streamed = await joined(await chat({ model: "auto", ...forcedTool(zodSignup), stream: true }));
    expect(streamed.toolNames).toEqual(["answer"]);
    expect(streamed.arguments).toBe(whole.choices[0]!.message.tool_calls![0]!.function.arguments);
    expect(streamed.argumentPieces.length).toBeGreaterThan(20);
    expect(streamed.finishReason).toBe("tool_calls");
  });

  it("passes `{}` for a function declared without parameters", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", tools: [{ type: "function", function: { name: "ping" } }], tool_choice: "required" }));
    expect(reply.choices[0]!.message.tool_calls![0]!.function.arguments).toBe("{}");
  });
});

describe("mock gateway: models that cannot answer in the format asked", () => {
  it("has models with and without structured_outputs, tools and json in the default catalogue", () => {
    const chat = DEFAULT_CATALOGUE.filter((model) => !model.capabilities.includes("image_generation"));
    for (const capability of ["structured_outputs", "tools", "json"]) {
      expect(chat.some((model) => model.capabilities.includes(capability)), `a model with ${capability}`).toBe(true);
      expect(chat.some((model) => !model.capabilities.includes(capability)), `a model without ${capability}`).toBe(true);
    }
  });

  it("answers 400 unsupported_parameter to json_schema on a model without structured_outputs, saying how to get one", async () => {
    const response = await mockGateway().chat({ model: "mistralai/mistral-small", response_format: jsonSchemaFormat(zodSignup) });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ type: "invalid_request_error", code: "unsupported_parameter", param: "response_format" });
    expect(error.message).toContain("'mistralai/mistral-small' does not support `response_format` json_schema");
    expect(error.message).toContain('add "structured_outputs" to `route.capabilities`');
  });

  it("routes model auto with route.capabilities structured_outputs to a model that has it", async () => {
    const { chat } = mockGateway();
    // Without the capability, auto picks the cheapest model, which lacks it.
    expect((await chat({ model: "auto", response_format: jsonSchemaFormat(zodSignup) })).status).toBe(400);
    const reply = await completion(await chat({ model: "auto", route: { capabilities: ["structured_outputs"] }, response_format: jsonSchemaFormat(zodSignup) }));
    const model = DEFAULT_CATALOGUE.find((candidate) => candidate.id === reply.model)!;
    expect(model.capabilities).toContain("structured_outputs");
    expectValid(zodSignup, JSON.parse(reply.choices[0]!.message.content!));
  });

  it("answers 400 to tools or json_object on a model without tools or json", async () => {
    const { chat } = mockGateway();
    const tools = await chat({ model: "deepseek/deepseek-r1", ...forcedTool(zodSignup) });
    expect(tools.status).toBe(400);
    expect((await tools.json()).error).toMatchObject({ code: "unsupported_parameter", param: "tools", message: expect.stringContaining("tools capability") });
    const json = await chat({ model: "deepseek/deepseek-r1", response_format: { type: "json_object" } });
    expect((await json.json()).error).toMatchObject({ code: "unsupported_parameter", param: "response_format", message: expect.stringContaining("json capability") });
    expect((await chat({ model: "deepseek/deepseek-r1" })).status).toBe(200);
  });

  it.each([
    ["without json_schema", { type: "json_schema" }, "response_format.json_schema"],
    ["with a name of spaces", { type: "json_schema", json_schema: { name: "my answer", schema: {} } }, "response_format.json_schema.name"],
    ["with a schema that is not an object", { type: "json_schema", json_schema: { name: "answer", schema: "object" } }, "response_format.json_schema.schema"],
    ["with a strict that is not a boolean", { type: "json_schema", json_schema: { name: "answer", strict: "yes" } }, "response_format.json_schema.strict"],
  ])("answers 400 to a json_schema response format %s, naming the field", async (_, response_format, param) => {
    const response = await mockGateway().chat({ model: CAPABLE, response_format });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ param, message: expect.stringContaining(`\`${param}\``) });
  });
});

describe("mock gateway: scripted structured replies", () => {
  const ways = [
    ["json_schema content", { model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }],
    ["a forced tool call", { model: CAPABLE, ...forcedTool(zodSignup) }],
  ] as const;

  /** What the reply carries its JSON in: the content, or the forced call's arguments. */
  function jsonOf(reply: ChatCompletion): string {
    const message = reply.choices[0]!.message;
    return message.tool_calls?.[0]?.function.arguments ?? message.content!;
  }

  describe.each(ways)("in %s", (_, request) => {
    it("invalid-json: JSON cut inside a string and followed by prose, finish_reason stop, streamed the same", async () => {
      const { gateway, chat } = mockGateway();
      const normal = jsonOf(await completion(await chat(request)));
      gateway.inject({ type: "structured", as: "invalid-json" }, 2);
      const reply = await completion(await chat(request));
      const text = jsonOf(reply);
      expect(reply.choices[0]!.finish_reason).toBe("stop");
      expect(() => JSON.parse(text)).toThrow();
      expect(text).toContain("Sorry, I lost my place");
      expect(normal.startsWith(text.slice(0, text.indexOf("\n")))).toBe(true);
      const streamed = await joined(await chat({ ...request, stream: true }));
      expect(streamed.content + streamed.arguments).toBe(text);
      expect(streamed.finishReason).toBe("stop");
    });

    it("schema-violation: valid JSON that the schema rejects, streamed the same", async () => {
      const { gateway, chat } = mockGateway();
      gateway.inject({ type: "structured", as: "schema-violation" }, 2);
      const text = jsonOf(await completion(await chat(request)));
      const value = JSON.parse(text);
      expect(validatorFor(zodSignup)(value).join("\n")).toMatch(/must have required property 'name'/);
      const streamed = await joined(await chat({ ...request, stream: true }));
      expect(streamed.content + streamed.arguments).toBe(text);
    });

    it("refusal: message.refusal set, content null, no tool call; streamed as delta.refusal", async () => {
      const { gateway, chat } = mockGateway();
      gateway.inject({ type: "structured", as: "refusal" }, 2);
      const reply = await completion(await chat(request));
      expect(reply.choices[0]).toEqual({ index: 0, message: { role: "assistant", content: null, refusal: expect.stringMatching(/can't help/) }, finish_reason: "stop" });
      const streamed = await joined(await chat({ ...request, stream: true }));
      expect(streamed).toMatchObject({ content: "", arguments: "", toolNames: [], refusal: reply.choices[0]!.message.refusal, finishReason: "stop" });
    });

    it("length: the JSON cut partway with finish_reason length, streamed the same", async () => {
      const { gateway, chat } = mockGateway();
      const normal = jsonOf(await completion(await chat(request)));
      gateway.inject({ type: "structured", as: "length" }, 2);
      const reply = await completion(await chat(request));
      const text = jsonOf(reply);
      expect(reply.choices[0]!.finish_reason).toBe("length");
      expect(normal.startsWith(text) && text.length < normal.length).toBe(true);
      expect(() => JSON.parse(text)).toThrow();
      const streamed = await joined(await chat({ ...request, stream: true }));
      expect([streamed.content + streamed.arguments, streamed.finishReason]).toEqual([text, "length"]);
    });
  });

  it("waits for a structured reply: plain chats, /v1/models and refused requests leave it queued", async () => {
    const { gateway, chat, call } = mockGateway();
    gateway.inject({ type: "structured", as: "refusal" });
    expect((await completion(await chat({ model: "auto" }))).choices[0]!.message.refusal).toBeUndefined();
    expect((await call("/v1/models")).status).toBe(200);
    expect((await chat({ model: "mistralai/mistral-small", response_format: jsonSchemaFormat(zodSignup) })).status).toBe(400);
    const scripted = await completion(await chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }));
    expect(scripted.choices[0]!.message.refusal).toEqual(expect.any(String));
    const next = await completion(await chat({ model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) }));
    expectValid(zodSignup, JSON.parse(next.choices[0]!.message.content!));
  });

  it("runs alongside the other faults, each in its own queue, and reset() forgets both", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "status", status: 503 });
    gateway.inject({ type: "structured", as: "length" }, Infinity);
    const request = { model: CAPABLE, response_format: jsonSchemaFormat(zodSignup) };
    expect((await chat(request)).status).toBe(503);
    for (let i = 0; i < 2; i++) expect((await completion(await chat(request))).choices[0]!.finish_reason).toBe("length");
    gateway.reset();
    expect((await completion(await chat(request))).choices[0]!.finish_reason).toBe("stop");
  });
});
