import { isRecord } from "../internal/values.ts";
import type { ToolInternals } from "./tool.ts";

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
