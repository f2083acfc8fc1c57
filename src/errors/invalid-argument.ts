import { excerpt } from "../internal/values.ts";
import { redactNothing, type Redact } from "../internal/redact.ts";
import { ModelGateError } from "./modelgate-error.ts";

/**
 * The one way the SDK reports an argument that is not what it must be, for callers in plain
 * JavaScript: "`timeout` must be a non-negative number; got string "10s"." Naming the
 * parameter (in the message, and as the error's `param`) and what it got saves a round trip to
 * the gateway (and a retry) for a 400.
 *
 * @param param the parameter as the caller wrote it (`timeout`, `messages[0].role`)
 * @param expected what it must be
 * @param value what the caller passed, described (see `describeValue`)
 * @param where the function it was passed to, when the message needs it (`tool()`)
 * @param redact cuts the client's key out of a string quoted (where the key is known)
 */
export function invalidArgument(param: string, expected: string, value: unknown, where?: string, redact?: Redact): ModelGateError {
  return argumentError(param, `must be ${expected}; got ${describeValue(value, redact)}`, where);
}

/**
 * An argument error whose problem is not said as "must be …; got …" (a schema the SDK cannot
 * convert, a URL that is not a `data:` URL): "`param` <problem>."
 */
export function argumentError(param: string, problem: string, where?: string): ModelGateError {
  const error = new ModelGateError(`${where ? `${where}: ` : ""}\`${param}\` ${problem}.`);
  (error as { param: string }).param = param;
  return error;
}

/**
 * A method called without its object (`const { parse } = client.chat.completions; parse(…)`),
 * as a callback passed on, say: `method` is how it is called (`client.chat.completions.parse`).
 * Said in these words, not as the TypeError of reading the missing object's client; the SDK's
 * methods are not bound, as openai's are not.
 */
export function unboundMethodError(method: string): ModelGateError {
  const object = method.slice(0, method.lastIndexOf("."));
  return new ModelGateError(`\`${method}\` was called without its object (\`this\` is not ${object}): call it as \`${method}(…)\`, or pass it on bound, as \`${method}.bind(${object})\`.`);
}

/**
 * A short description of what a caller passed. A string is shown (its start, once `redact`
 * has cut the key out of it), a number, bigint or boolean too (redacted); anything else by its
 * kind only (a function's source or a symbol's description may hold anything).
 */
export function describeValue(value: unknown, redact: Redact = redactNothing): string {
  if (typeof value === "string") return JSON.stringify(excerpt(redact(value), 40));
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return redact(`${typeof value} ${String(value)}`);
  return describeKind(value);
}

/**
 * What a value is, never what it holds: for a value that may be a secret whatever its kind (a
 * key, a header's value: a config loader turns an all-digit token into a number).
 */
export function describeKind(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  // A promise passed where its value goes (`file: toFile(bytes, "a.wav")`) is the common slip: said so.
  if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a Promise (is an `await` missing?)";
  if (typeof value === "object") return "an object";
  // A symbol's description may be anything (the key): only its kind is said.
  return typeof value === "function" ? "a function" : `a ${typeof value}`;
}
