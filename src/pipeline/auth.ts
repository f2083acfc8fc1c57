import { ModelGateError } from "../errors/modelgate-error.ts";

/** A function that gives the API key, for rotating or short-lived keys; asked before each attempt. */
export type APIKeyFunction = () => string | Promise<string>;

/** Where the pipeline gets the key: fixed at construction, or a function. */
export type APIKeySource = string | APIKeyFunction;

/**
 * Checks a key before it goes into a header. The message never shows the key: a key with a
 * stray newline is the usual cause, and the key itself must not end up in logs.
 */
export function assertAPIKey(key: unknown, where: string): asserts key is string {
  if (typeof key !== "string" || key.trim() === "") {
    throw new ModelGateError(`The API key ${where} must be a non-empty string; got ${key === "" ? "an empty string" : typeof key}.`);
  }
  if (/[^\x21-\x7e]/.test(key)) {
    throw new ModelGateError(
      `The API key ${where} contains whitespace, a line break or a non-ASCII character; check for a stray newline when it was copied.`,
    );
  }
}
