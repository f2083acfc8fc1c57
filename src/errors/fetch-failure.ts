import { keptOrRedacted } from "../internal/redact-thrown.ts";
import type { Redact } from "../internal/redact.ts";
import { APIConnectionError } from "./connection-errors.ts";
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
 * The `APIConnectionError` of a body that broke off after its response arrived (a socket cut,
 * a truncated chunked encoding): the runtime's reason is named, with the key cut out, and kept
 * as `cause` as `withoutKey` keeps it (a middleware's or a custom fetch's body may have quoted
 * the key when it errored). Without `redact` the body came from the caller, not from a request
 * the SDK made with the key (`Stream.fromReadableStream()`), and its error is kept as it is.
 */
export function brokenBodyError(error: unknown, redact: Redact | undefined): APIConnectionError {
  const reason = (redact ?? String)(describeCause(error));
  return new APIConnectionError(`The connection broke off in the middle of the stream (${reason}).`, { cause: redact ? withoutKey(error, redact) : error });
}

/**
 * Runtimes hide the socket-level reason (ECONNREFUSED, ...) in `cause`; surface it. A getter
 * (or a Proxy trap) that throws, reading it, is not let out: its own error may quote the key.
 */
function describeCause(error: unknown): string {
  try {
    if (!(error instanceof Error)) return String(error);
    return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : String(error.message);
  } catch {
    return "(a thrown value that could not be read)";
  }
}
