import { abortError, APIConnectionTimeoutError, APIUserAbortError, ModelGateError } from "../errors/index.ts";
import { untilAborted } from "../internal/until-aborted.ts";
import { MAX_TIMER_MS } from "../internal/values.ts";

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

/**
 * The key for the next attempt: the fixed one, or what the function gives now. Every key a
 * function gives is remembered as a secret, so errors built later redact it too.
 */
export async function keyFrom(
  source: APIKeyFunction,
  remember: (secret: string) => void,
  signal: AbortSignal | null | undefined,
  timeoutMs: number,
): Promise<string> {
  if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
  // Asking for the key is part of the attempt: the caller's signal and the attempt's timeout
  // bound it, so a key function that hangs cannot hang the call.
  const limits = new AbortController();
  const onAbort = () => limits.abort(new APIUserAbortError(undefined, { cause: signal?.reason }));
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeoutMs < MAX_TIMER_MS
      ? setTimeout(() => limits.abort(new APIConnectionTimeoutError(`The \`apiKey\` function gave no key within ${timeoutMs} ms (timeout).`)), timeoutMs)
      : undefined;
  let key: unknown;
  try {
    key = await untilAborted(Promise.resolve().then(source), limits.signal);
  } catch (error) {
    if (limits.signal.aborted) throw abortError(limits.signal);
    throw new ModelGateError("The `apiKey` function threw, so no request was sent; see `cause`.", { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  assertAPIKey(key, "returned by the `apiKey` function");
  remember(key);
  return key;
}
