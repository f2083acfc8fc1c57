import { invalidArgument } from "../errors/invalid-argument.ts";
import { isRecord } from "../internal/values.ts";
import { JSON_SCHEMA_VENDOR, NAME_PATTERN } from "./tool-internals.ts";
import type { StandardJSONSchemaConverter, StandardSchemaResult, StructuredSchema } from "./standard-schema.ts";

/** What `jsonSchema()` returns: a Standard Schema the SDK can send and check replies with. */
export interface JSONSchemaFormat<T> extends StructuredSchema<T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    /** Runs the `validate` given to `jsonSchema()` (none: the value as it is). */
    readonly validate: (value: unknown) => Promise<StandardSchemaResult<T>>;
    readonly types?: { readonly input: T; readonly output: T } | undefined;
    readonly jsonSchema: StandardJSONSchemaConverter;
  };
  /** The name the schema is sent under. */
  readonly name: string | undefined;
}

/** Options of `jsonSchema()`. */
export interface JSONSchemaOptions<T> {
  /** The name the schema is sent under: 1–64 of `[A-Za-z0-9_-]`. @default "response" */
  name?: string | undefined;
  /**
   * Checks a parsed reply: returns the value to use (possibly transformed) or throws (the
   * error's message becomes the issue; an error with an `issues` array of `{ message, path? }`
   * gives those). Without it, the reply's JSON is used unchecked and typed as `T`.
   */
  validate?: ((value: unknown) => T | Promise<T>) | undefined;
}

/**
 * A plain JSON Schema for `parse()`'s `response_format` or a `tool()`'s `parameters`, for
 * code without a schema library (or with one, such as Ajv, that only validates):
 *
 * ```ts
 * const Weather = jsonSchema<{ city: string; celsius: number }>(
 *   { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"], additionalProperties: false },
 *   { name: "weather", validate: (value) => assertWeather(value) },
 * );
 * ```
 * @throws ModelGateError when `schema` is not an object or `name` is not 1–64 of `[A-Za-z0-9_-]`.
 */
export function jsonSchema<T = unknown>(schema: Record<string, unknown>, options: JSONSchemaOptions<T> = {}): JSONSchemaFormat<T> {
  const where = "jsonSchema()";
  if (!isRecord(schema)) throw invalidArgument("schema", "a JSON Schema object", schema, where);
  if (!isRecord(options)) throw invalidArgument("options", "an object such as { name, validate }", options, where);
  const { name, validate } = options;
  if (name !== undefined && !(typeof name === "string" && NAME_PATTERN.test(name))) throw invalidArgument("name", "1–64 letters, digits, _ or -", name, where);
  if (validate !== undefined && typeof validate !== "function") throw invalidArgument("validate", "a function", validate, where);
  return {
    "~standard": {
      version: 1,
      vendor: JSON_SCHEMA_VENDOR,
      validate: async (value) => {
        if (!validate) return { value: value as T };
        try {
          return { value: await validate(value) };
        } catch (error) {
          return { issues: issuesOf(error) };
        }
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
    name,
  };
}

/** The issues a `validate` function's error describes. */
function issuesOf(error: unknown): { message: string; path?: PropertyKey[] }[] {
  // The first ones say why (a list's length is the thrower's to claim: 2 ** 32 − 1, mostly holes).
  const listed = isRecord(error) && Array.isArray(error.issues) ? error.issues.slice(0, 100).filter((issue) => isRecord(issue) && typeof issue.message === "string") : [];
  if (listed.length > 0) return listed as { message: string; path?: PropertyKey[] }[];
  return [{ message: error instanceof Error ? error.message : String(error) }];
}
