import { ModelGateError } from "./modelgate-error.ts";

/**
 * The one way the SDK reports an argument that is not what it must be, for callers in plain
 * JavaScript: "`timeout` must be a non-negative number; got string "10s"." Naming the field
 * and what it got saves a round trip to the gateway (and a retry) for a 400.
 */
export function invalidArgument(name: string, expectation: string, value: unknown): ModelGateError {
  return new ModelGateError(`\`${name}\` must be ${expectation}; got ${describeValue(value)}.`);
}

/** A short description of what a caller passed. Not for secrets: a string is shown (its start). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
