import { isRecord } from "../internal/values.ts";
import type { ToolInternals } from "./tool.ts";

// What tool(), jsonSchema() and the schema reader (schema-source.ts) share: the name rule, the
// vendor mark, and where a tool() definition keeps its schema. completions.ts reads
// `toolInternals` to tell whether a call's tools need the structured feature's closing and
// `strict`, so this module holds only those small shared facts, not the reader.

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
