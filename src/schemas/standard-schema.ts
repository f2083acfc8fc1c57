/**
 * The parts of Standard Schema v1 (standardschema.dev) and its JSON Schema companion that the
 * SDK calls, typed here so that no schema library is a dependency. Zod 4, ArkType and Valibot
 * (through `toStandardJsonSchema()` of `@valibot/to-json-schema`) implement both.
 */

/** One problem a schema found, as Standard Schema reports it. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate()` returns: the (possibly transformed) value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** A Standard Schema v1: any object (or function, as ArkType's types are) with `~standard`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    /** Checks a value: its (possibly transformed) value, or the issues. */
    readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** Standard JSON Schema: a converter from the schema to JSON Schema, e.g. `input({ target: "draft-07" })`. */
export interface StandardJSONSchemaConverter {
  /** The JSON Schema of what the schema accepts, in the draft `target` names (the SDK asks for `"draft-07"`). */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  /** The JSON Schema of what the schema returns, in the draft `target` names. */
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/**
 * A schema the SDK can both send (as JSON Schema) and check replies against: a Standard Schema
 * that also offers `~standard.jsonSchema`. What `parse()`'s `response_format` and `tool()`'s
 * `parameters` take; `jsonSchema()` makes one from a plain JSON Schema.
 */
export interface StructuredSchema<Output = unknown> {
  readonly "~standard": StandardSchemaV1<unknown, Output>["~standard"] & { readonly jsonSchema: StandardJSONSchemaConverter };
}

/** The type a schema's validation produces: what `parsed` holds. */
export type SchemaOutput<Schema> = Schema extends { readonly "~standard": { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly output: infer Output }
    ? Output
    : unknown
  : unknown;
