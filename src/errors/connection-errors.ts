import { APIError } from "./api-error.ts";

/** No usable response: DNS failure, refused or reset connection, or a stream that broke off. */
export class APIConnectionError extends APIError {
  override name = "APIConnectionError";
  declare readonly status: undefined;

  constructor(message = "Connection error.", options: { cause?: unknown } = {}) {
    super(undefined, { message, cause: options.cause });
  }
}

/** An attempt took longer than `timeout`, or a stream was silent longer than `streamIdleTimeout`. */
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
