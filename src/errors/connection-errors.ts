import { APIError } from "./api-error.ts";
import { ModelGateError } from "./modelgate-error.ts";

/** No usable response: DNS failure, refused or reset connection, or a stream that broke off. */
export class APIConnectionError extends APIError {
  override name = "APIConnectionError";
  declare readonly status: undefined;

  constructor(message = "Connection error.", options: { cause?: unknown } = {}) {
    super(undefined, { message, cause: options.cause });
  }
}

/**
 * An attempt got no whole answer within `timeout` (for a stream: no first byte of the body),
 * or a stream was silent longer than `streamIdleTimeout`.
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";

  constructor(message = "Request timed out.", options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** The caller aborted the request (its `signal`, or `stream.controller.abort()`). Never retried. */
export class APIUserAbortError extends APIError {
  override name = "APIUserAbortError";
  declare readonly status: undefined;

  constructor(message = "Request was aborted.", options: { cause?: unknown } = {}) {
    super(undefined, { message, cause: options.cause });
  }
}

/**
 * The error an aborted request or stream ends with. The SDK aborts its own controllers with
 * the error to report (a timeout, the caller's abort) as the reason, so whichever await sees
 * the abort throws the same thing; any other reason (`controller.abort()` by the caller, a
 * DOMException) means the caller gave up.
 */
export function abortError(signal: AbortSignal): ModelGateError {
  const reason: unknown = signal.reason;
  return reason instanceof ModelGateError ? reason : new APIUserAbortError(undefined, { cause: reason });
}
