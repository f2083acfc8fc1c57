import { argumentError } from "../errors/invalid-argument.ts";

/** A function that gives the API key, for rotating or short-lived keys; asked before each attempt. */
export type APIKeyFunction = () => string | Promise<string>;

/** Where the pipeline gets the key: fixed at construction, or a function. */
export type APIKeySource = string | APIKeyFunction;

/**
 * Checks a key before it goes into a header. The message never shows the key (a blank one
 * aside): a key with a stray newline is the usual cause, and the key itself must not end up
 * in logs. `where` says where it came from, e.g. "new ModelGate()".
 */
export function assertAPIKey(key: unknown, where: string): asserts key is string {
  if (typeof key !== "string" || key.trim() === "") {
    throw argumentError("apiKey", `must be a non-empty string; got ${typeof key === "string" ? JSON.stringify(key) : typeof key}`, where);
  }
  if (/[^\x21-\x7e]/.test(key)) {
    throw argumentError("apiKey", "contains whitespace, a line break or a non-ASCII character; check for a stray newline when it was copied", where);
  }
}
