import { JSON_SCHEMA_VENDOR } from "./tool-internals.ts";

// Shared by `tool()` (which an app imports) and by the `parse()` and `runTools()` code loaded on
// demand.

/** A problem with a schema, as `{ message, path? }`: the shape of `StructuredOutputError.issues`. */
export interface SchemaIssue {
  message: string;
  /** Where in the value: property names and array indexes. */
  path?: (string | number)[];
}

/** A schema ready for use: what is sent, and how a reply is checked. */
export interface ResolvedSchema {
  /** The JSON Schema, as the library produced it (closed when sent: see `closeSchema()`). */
  jsonSchema: Record<string, unknown>;
  /**
   * Checks a parsed reply: gives what the schema's `~standard.validate()` returned, for
   * `readValidation()` to read; `undefined` for a schema given only as JSON (nothing to check with).
   */
  validate: ((value: unknown) => Promise<unknown>) | undefined;
  /**
   * Reads a reply's JSON text into the value, instead of JSON parsing and `validate`: the
   * `$parseRaw` of an object made by openai's helpers (`zodResponseFormat()`, `zodFunction()`).
   */
  parseRaw?: ((text: string) => unknown) | undefined;
  /** The name a `jsonSchema()` call gave, if any. */
  name: string | undefined;
}

/** What a schema said of a value, read by `readValidation()`. */
export type Validation = { value: unknown; issues?: undefined } | { issues: SchemaIssue[]; /** Issues past the first ones kept. */ omitted?: number };

// What to do about a schema without `~standard.jsonSchema`, by `~standard.vendor`: the first
// version of the library that implements Standard JSON Schema, or its adapter.
const UPGRADES: Record<string, string> = {
  zod: "Upgrade to Zod 4.2 or later, whose schemas offer it (Zod 3 and Zod 4.0–4.1 do not)",
  arktype: "Upgrade to ArkType 2.1.28 or later, whose types offer it",
  valibot: "Wrap it with toStandardJsonSchema() from @valibot/to-json-schema",
};

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
    const upgrade = typeof vendor === "string" && Object.hasOwn(UPGRADES, vendor) ? UPGRADES[vendor] : "Use a version of the library (or its adapter) that implements Standard JSON Schema";
    return `is ${library} that offers no JSON Schema (\`~standard.jsonSchema\` is missing), so it cannot be sent to the model. ${upgrade}, or pass jsonSchema(yourJSONSchema, { validate })`;
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
  const check = validate as (value: unknown) => unknown;
  return {
    jsonSchema: converted as Record<string, unknown>,
    name,
    // What it returns is read by the code that checks replies (`readValidation()`), loaded on demand.
    validate: async (value) => check.call(standard, value),
  };
}
