import { keptOrRedacted } from "../internal/redact-thrown.ts";
import type { Redact } from "../internal/redact.ts";
import { APIConnectionError, brokenBodyError } from "./connection-errors.ts";
import { describeCause } from "./describe-cause.ts";
import { ModelGateError } from "./modelgate-error.ts";

/**
 * A thrown value as the SDK may keep it: itself where it is provably free of the key, else a
 * redacted copy, of its class for the SDK's own errors (an `APIError` stays one, retried as
 * its class says). What the attempt keeps of a custom `fetch`'s failure, and the middleware
 * runner of what a middleware threw: an HTTP client's error may hold the `Request`, with its
 * `Authorization` header.
 */
export function withoutKey(thrown: unknown, redact: Redact): unknown {
  return keptOrRedacted(thrown, redact, (value) => value instanceof ModelGateError);
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
  return new APIConnectionError(redact(`Connection error: ${describeCause(error)}`), { cause });
}

/**
 * `brokenBodyError` for a body the SDK asked for with the key: what the body errored with is
 * named and kept with the key cut out (a middleware's or a custom fetch's body may have quoted
 * it), as `withoutKey` keeps a failed fetch's error.
 */
export function redactedBrokenBodyError(error: unknown, redact: Redact): APIConnectionError {
  return brokenBodyError(redact(describeCause(error)), withoutKey(error, redact));
}
