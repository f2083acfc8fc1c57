import { isRecord } from "../internal/values.ts";
import type { ToolInternals } from "./tool.ts";
import type { StandardSchemaIssue, StandardSchemaResult } from "./standard-schema.ts";

// Shared by `tool()` and `jsonSchema()` (which an app imports) and by the lazily loaded
// `parse()` and `runTools()` code, which the build bundles into files of their own (see
// tsup.config.ts), each with its own copy of this stateless module.

/** A problem with a schema, as `{ message, path? }`: the shape of `StructuredOutputError.issues`. */
export interface SchemaIssue {
  message: string;
  /** Where in the value: property names and array indexes. */
  path?: (string | number)[];
}

/** A schema ready for use: what is sent, and how a reply is checked. */
export interface ResolvedSchema {
  /** The JSON Schema, as the library produced it. */
  jsonSchema: Record<string, unknown>;
  /** Checks a parsed reply; `undefined` for a schema given only as JSON (nothing to check with). */
  validate: ((value: unknown) => Promise<Validation>) | undefined;
  /** The name a `jsonSchema()` call gave, if any. */
  name: string | undefined;
}

export type Validation = { value: unknown; issues?: undefined } | { issues: SchemaIssue[] };

/** Names OpenAI-style APIs accept for a response schema or a function: 1–64 of `[A-Za-z0-9_-]`. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The vendor `jsonSchema()` writes into `~standard`, so its `name` can be read back. */
export const JSON_SCHEMA_VENDOR = "modelgate";

/**
 * Where `tool()` keeps a tool's schema and `run` on the definition it returns: a non-enumerable
 * property, so the definition serialises to the wire shape and nothing else. `Symbol.for`,
 * so that a tool made by the CommonJS build is recognised by the ESM one and the other way round.
 */
export const TOOL_INTERNALS: unique symbol = Symbol.for("modelgate.tool") as never;

/** The schema and `run` of a `tool()` definition; `undefined` for any other tool. */
export function toolInternals(value: unknown): ToolInternals | undefined {
  return isRecord(value) ? (value[TOOL_INTERNALS as never] as ToolInternals | undefined) : undefined;
}

/**
 * The JSON Schema and validator of a Standard Schema, or a sentence saying what is missing.
 * Returns instead of throwing so that each caller throws its own error class.
 */
export function resolveSchema(schema: unknown): ResolvedSchema | string {
  const standard = (typeof schema === "object" || typeof schema === "function") && schema !== null ? (schema as { "~standard"?: unknown })["~standard"] : undefined;
  if (typeof standard !== "object" || standard === null) {
    return "is not a Standard Schema (an object with `~standard`, such as a Zod 4, Valibot or ArkType schema) or jsonSchema(...)";
  }
  const { validate, jsonSchema, vendor } = standard as { validate?: unknown; jsonSchema?: { input?: unknown }; vendor?: unknown };
  const library = typeof vendor === "string" ? `a ${vendor} schema` : "a Standard Schema";
  if (typeof validate !== "function") return `is ${library} without \`~standard.validate\``;
  if (typeof jsonSchema?.input !== "function") {
    return (
      `is ${library} that offers no JSON Schema (\`~standard.jsonSchema\` is missing), so it cannot be sent to the model. ` +
      "Wrap it with the library's Standard JSON Schema adapter (for Valibot: toStandardJsonSchema() from @valibot/to-json-schema), " +
      "or pass jsonSchema(yourJSONSchema, { validate })"
    );
  }
  let converted: unknown;
  try {
    converted = (jsonSchema.input as (options: { target: string }) => unknown)({ target: "draft-07" });
  } catch (error) {
    return `is ${library} whose JSON Schema conversion failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof converted !== "object" || converted === null || Array.isArray(converted)) {
    return `is ${library} whose \`~standard.jsonSchema.input()\` returned no JSON Schema object`;
  }
  const name = vendor === JSON_SCHEMA_VENDOR ? (schema as { name?: string }).name : undefined;
  const check = validate as (value: unknown) => StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>>;
  return {
    jsonSchema: converted as Record<string, unknown>,
    name,
    validate: async (value) => {
      const result: unknown = await check.call(standard, value);
      if (typeof result !== "object" || result === null) throw new TypeError(`~standard.validate() returned ${String(result)}, not a result`);
      const { issues } = result as StandardSchemaResult<unknown>;
      return issues ? { issues: Array.from(issues, toSchemaIssue) } : { value: (result as { value: unknown }).value };
    },
  };
}

/**
 * Whether a JSON Schema already meets OpenAI's strict mode: every object schema in it sets
 * `additionalProperties: false` and requires all of its properties. Sending `strict: true` for
 * any other schema would make the provider reject the request.
 */
export function isStrictShaped(schema: unknown): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null || Array.isArray(node) || seen.has(node)) return true;
    seen.add(node);
    const record = node as Record<string, unknown>;
    const properties = isRecord(record.properties) ? record.properties : undefined;
    const isObjectSchema = record.type === "object" || (Array.isArray(record.type) && record.type.includes("object")) || properties !== undefined;
    if (isObjectSchema) {
      if (record.additionalProperties !== false) return false;
      const required = new Set(Array.isArray(record.required) ? record.required : []);
      if (!Object.keys(properties ?? {}).every((name) => required.has(name))) return false;
    }
    // Only keywords that hold subschemas are walked: `enum`/`const` values and property names
    // are data, whatever they look like.
    const children = [
      ...Object.values(properties ?? {}),
      ...SCHEMA_KEYWORDS.map((keyword) => record[keyword]),
      ...SCHEMA_LIST_KEYWORDS.flatMap((keyword) => (Array.isArray(record[keyword]) ? record[keyword] : [])),
      ...SCHEMA_MAP_KEYWORDS.flatMap((keyword) => (isRecord(record[keyword]) ? Object.values(record[keyword]) : [])),
    ];
    return children.every(visit);
  };
  return visit(schema);
}

const SCHEMA_KEYWORDS = [
  "items",
  "additionalItems",
  "unevaluatedItems",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
];
const SCHEMA_LIST_KEYWORDS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
// `dependencies` maps to a schema or to a list of names (skipped as data, being strings).
const SCHEMA_MAP_KEYWORDS = ["$defs", "definitions", "patternProperties", "dependentSchemas", "dependencies"];


/** A Standard Schema issue as `{ message, path? }`, its path reduced to names and indexes. */
export function toSchemaIssue(issue: StandardSchemaIssue): SchemaIssue {
  const message = typeof issue?.message === "string" ? issue.message : String(issue);
  if (!Array.isArray(issue?.path) || issue.path.length === 0) return { message };
  // A plain array: some libraries (ArkType) give an Array subclass with extra properties.
  const path = Array.from(issue.path, (segment) => {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    return typeof key === "number" ? key : String(key);
  });
  return { message, path };
}
