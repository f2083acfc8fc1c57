import type { ParseOptions } from "../types/structured.ts";

/** Every option a chat call reads: `RequestOptions`, `maxCost` and parse()'s `structuredOutput`. */
const CALL_OPTION_NAMES = [
  "signal",
  "timeout",
  "maxRetries",
  "headers",
  "query",
  "idempotencyKey",
  "fetchOptions",
  "shrinkToAffordable",
  "middleware",
  "maxCost",
  "structuredOutput",
] as const satisfies readonly (keyof ParseOptions)[];

// Fails to compile when ParseOptions (every chat call option) gains one the list above does not name.
type Unnamed = Exclude<keyof ParseOptions, (typeof CALL_OPTION_NAMES)[number]>;
const everyOptionNamed: [Unnamed] extends [never] ? true : Unnamed = true;
void everyOptionNamed;

/**
 * The caller's call options as a plain object, each read as the caller's object answers it
 * (its own field, a prototype's, a getter's, a Proxy's), with `overrides` laid over them. A
 * spread would keep own enumerable fields only: a `maxCost` or `headers` held any other way
 * would be dropped and the call sent without its budget or its tenant's key.
 */
export function callOptionsWith(options: unknown, overrides: object): Record<string | symbol, unknown> {
  const copy: Record<string | symbol, unknown> = {};
  if (typeof options === "object" && options !== null) {
    for (const name of CALL_OPTION_NAMES) {
      const value = (options as Record<string, unknown>)[name];
      if (value !== undefined) copy[name] = value;
    }
  }
  return Object.assign(copy, overrides);
}
