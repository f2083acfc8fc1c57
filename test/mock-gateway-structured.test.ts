import { describe, expect, it } from "vitest";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mulberry32 } from "../src/testing/random.ts";
import { sampleSchema } from "../src/testing/schema-values.ts";
import { LIBRARY_SCHEMAS, valibotProduct, zodCategoryTree, zodSignup } from "./fixtures/json-schemas.ts";
import { validatorFor } from "./fixtures/json-schema-validator.ts";
import { mockGateway } from "./fixtures/mock.ts";

// Structured outputs from the mock: values generated from JSON Schemas, checked by a real
// validator, and the models that refuse them.

const SEEDS = Array.from({ length: 200 }, (_, index) => index * 7919 + 1);

function expectValid(schema: Record<string, unknown>, value: unknown, context = "") {
  const errors = validatorFor(schema)(value);
  expect(errors, `${context} ${JSON.stringify(value)} should follow the schema`).toEqual([]);
}

const jsonSchemaFormat = (schema: Record<string, unknown>, name = "answer") => ({ type: "json_schema", json_schema: { name, schema, strict: true } });

function forcedTool(parameters: Record<string, unknown>) {
  return { tools: [{ type: "function", function: { name: "answer", parameters } }], tool_choice: { type: "function", function: { name: "answer" } } };
}

function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
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

  it("stop on recursion that cannot end, and on schemas that ask for too much, quickly", () => {
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
    const started = performance.now();
    for (const schema of hostile) expect(() => JSON.stringify(sampleSchema(schema, mulberry32(1)))).not.toThrow();
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("give some value for an empty or true schema, and null for false", () => {
    const values = SEEDS.slice(0, 30).map((seed) => sampleSchema({}, mulberry32(seed)));
    expect(values.every((value) => value !== undefined && value !== null)).toBe(true);
    expect(new Set(values.map((value) => typeof value)).size).toBeGreaterThan(1);
    expect(sampleSchema(true, mulberry32(1))).not.toBeUndefined();
    expect(sampleSchema(false, mulberry32(1))).toBeNull();
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

  it("answers 400 to tools or json_object on a model without tools or json", async () => {
    const { chat } = mockGateway();
    const tools = await chat({ model: "deepseek/deepseek-r1", ...forcedTool(zodSignup) });
    expect(tools.status).toBe(400);
    expect((await tools.json()).error).toMatchObject({ code: "unsupported_parameter", param: "tools", message: expect.stringContaining("tools capability") });
    const json = await chat({ model: "deepseek/deepseek-r1", response_format: { type: "json_object" } });
    expect((await json.json()).error).toMatchObject({ code: "unsupported_parameter", param: "response_format", message: expect.stringContaining("json capability") });
    expect((await chat({ model: "deepseek/deepseek-r1" })).status).toBe(200);
  });
});
