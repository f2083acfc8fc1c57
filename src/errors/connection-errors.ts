import { APIError } from "./api-error.ts";
import { ModelGateError } from "./modelgate-error.ts";

/** No usable response: DNS failure, refused or reset connection, or a stream that broke off. */
export class APIConnectionError extends APIError {
  /** `"APIConnectionError"`: the class name, as `err.name` and stack traces show it. */
  override name = "APIConnectionError";
  declare readonly status: undefined;

  /** No answer came: `message` says why, `cause` is what the transport threw. */
  constructor(message = "Connection error.", options: { cause?: unknown } = {}) {
    super(undefined, { message, cause: options.cause });
  }
}

/**
 * The `APIConnectionError` of a body that broke off after its response arrived (a socket cut,
 * a truncated chunked encoding): `reason` is what the runtime said, `cause` what it threw.
 */
export function brokenBodyError(reason: string, cause: unknown): APIConnectionError {
  return new APIConnectionError(`The connection broke off in the middle of the stream (${reason}).`, { cause });
}

/**
 * An attempt got no whole answer within `timeout` (for a stream: no first byte of the body),
 * or a stream was silent longer than `streamIdleTimeout`.
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  /** `"APIConnectionTimeoutError"`: the class name, as `err.name` and stack traces show it. */
  override name = "APIConnectionTimeoutError";

  /** An attempt ran past its `timeout`, or a stream past its `streamIdleTimeout`. */
  constructor(message = "Request timed out.", options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** The caller aborted the request (its `signal`, or `stream.controller.abort()`). Never retried. */
export class APIUserAbortError extends APIError {
  /** `"APIUserAbortError"`: the class name, as `err.name` and stack traces show it. */
  override name = "APIUserAbortError";
  declare readonly status: undefined;

  /** The caller aborted (its `signal`, or `stream.controller.abort()`); `cause` is the abort reason. */
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
