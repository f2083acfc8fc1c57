import { keptOrRedacted } from "../internal/redact-thrown.ts";
import type { Redact } from "../internal/redact.ts";
import { APIConnectionError, brokenBodyError } from "./connection-errors.ts";
import { describeCause } from "./describe-cause.ts";
import { isModelGateError, ModelGateError } from "./modelgate-error.ts";

/**
 * A thrown value as the SDK may keep it: itself where it is provably free of the key, else a
 * redacted copy, of its class for the SDK's own errors (an `APIError` stays one, retried as
 * its class says). What the attempt keeps of a custom `fetch`'s failure, the middleware runner
 * of what a middleware threw, and `keyFrom` of what an `apiKey` function threw: an HTTP client's
 * error may hold the `Request`, with its `Authorization` header, and a failed refresh a key.
 */
export function withoutKey(thrown: unknown, redact: Redact): unknown {
  return keptOrRedacted(thrown, redact, isModelGateError);
}

/**
 * The `APIConnectionError` of a failed `fetch` (the client's own, or what `next` rejected with
 * and a middleware let through): its message names the runtime's reason, with the key cut out;
 * its `cause` is what fetch threw, as `withoutKey` keeps it.
 */
export function connectionError(error: unknown, redact: Redact): ModelGateError {
  const cause = withoutKey(error, redact);
  // Already the SDK's word: an error a middleware threw, as the middleware runner gave it.
  // The copy is asked, not the thrown value: a Proxy may throw when asked its class.
  if (cause instanceof ModelGateError) return cause;
  const hint = isUndiciDispatcherMismatch(error) ? ` ${UNDICI_DISPATCHER_HINT}` : "";
  return new APIConnectionError(redact(`Connection error: ${describeCause(error)}`) + hint, { cause });
}

/** What to do about a dispatcher from another undici than the fetch's (openai's hint, in our names). */
const UNDICI_DISPATCHER_HINT =
  "This may be caused by passing an undici dispatcher, such as ProxyAgent, that is incompatible with the fetch implementation. " +
  "If you are using undici's ProxyAgent, pass the fetch implementation from the same undici package: " +
  "import { fetch, ProxyAgent } from 'undici'; new ModelGate({ fetch, fetchOptions: { dispatcher: new ProxyAgent(...) } });";

/**
 * A `fetchOptions.dispatcher` from an undici of another major version than the fetch's (Node's
 * own fetch given the npm package's ProxyAgent): undici then throws `UND_ERR_INVALID_ARG`
 * "invalid onRequestStart method", somewhere down the `cause` chain of "fetch failed", which
 * names nothing the caller set. The same test as openai's, over at most 8 causes (a chain
 * may loop). A getter or Proxy trap that throws is not let out, as in `describeCause`.
 */
function isUndiciDispatcherMismatch(error: unknown): boolean {
  try {
    let current = error;
    for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
      const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
      if (code === "UND_ERR_INVALID_ARG" && typeof message === "string" && message.includes("invalid onRequestStart method")) return true;
      current = cause;
    }
  } catch {
    // Unreadable: not the mismatch this hint is for.
  }
  return false;
}

/**
 * `brokenBodyError` for a body the SDK asked for with the key: what the body errored with is
 * named and kept with the key cut out (a middleware's or a custom fetch's body may have quoted
 * it), as `withoutKey` keeps a failed fetch's error.
 */
export function redactedBrokenBodyError(error: unknown, redact: Redact): APIConnectionError {
  return brokenBodyError(redact(describeCause(error)), withoutKey(error, redact));
}
