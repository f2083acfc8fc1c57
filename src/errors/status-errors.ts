import { APIError, type APIErrorInit } from "./api-error.ts";

/** 400: the request was malformed or a parameter is invalid (see `param`). */
export class BadRequestError extends APIError {
  declare readonly status: 400;
  /** `"BadRequestError"`: the class name, as `err.name` and stack traces show it. */
  override name = "BadRequestError";
}
/** 401: the API key is missing, wrong or revoked. */
export class AuthenticationError extends APIError {
  declare readonly status: 401;
  /** `"AuthenticationError"`: the class name, as `err.name` and stack traces show it. */
  override name = "AuthenticationError";
}
/** 402: the account has run out of credit. */
export class PaymentRequiredError extends APIError {
  declare readonly status: 402;
  /** `"PaymentRequiredError"`: the class name, as `err.name` and stack traces show it. */
  override name = "PaymentRequiredError";

  /**
   * The largest `max_tokens` the account could have paid for, when the gateway said:
   * `error.metadata.affordable_tokens`, else (a proxy dropped the metadata) the number in the
   * message, "can only afford N tokens" or OpenRouter's "…but can only afford N."; `null` when
   * neither says. The client or call option `shrinkToAffordable: true` retries once with it.
   */
  get affordableTokens(): number | null {
    const tokens = (this.error as { metadata?: { affordable_tokens?: unknown } } | null | undefined)?.metadata?.affordable_tokens;
    if (Number.isInteger(tokens) && (tokens as number) >= 0) return tokens as number;
    const said = /can only afford (\d+)(?: tokens\b|\.(?!\d)|$)/i.exec(this.message);
    return said ? Number(said[1]) : null;
  }
}
/** 403: the key may not use this model or endpoint. */
export class PermissionDeniedError extends APIError {
  declare readonly status: 403;
  /** `"PermissionDeniedError"`: the class name, as `err.name` and stack traces show it. */
  override name = "PermissionDeniedError";
}
/** 404: unknown model or path. */
export class NotFoundError extends APIError {
  declare readonly status: 404;
  /** `"NotFoundError"`: the class name, as `err.name` and stack traces show it. */
  override name = "NotFoundError";
}
/** 409: conflicting concurrent request (retried automatically). */
export class ConflictError extends APIError {
  declare readonly status: 409;
  /** `"ConflictError"`: the class name, as `err.name` and stack traces show it. */
  override name = "ConflictError";
}
/** 422: the request was well-formed but could not be processed. */
export class UnprocessableEntityError extends APIError {
  declare readonly status: 422;
  /** `"UnprocessableEntityError"`: the class name, as `err.name` and stack traces show it. */
  override name = "UnprocessableEntityError";
}
/** 429: rate limited (retried automatically, honouring `retry-after`). */
export class RateLimitError extends APIError {
  declare readonly status: 429;
  /** `"RateLimitError"`: the class name, as `err.name` and stack traces show it. */
  override name = "RateLimitError";
}
/** 5xx: the gateway or the provider behind it failed (retried automatically). */
export class InternalServerError extends APIError {
  declare readonly status: number;
  /** `"InternalServerError"`: the class name, as `err.name` and stack traces show it. */
  override name = "InternalServerError";
}

const classByStatus: Record<number, new (status: number, init: APIErrorInit) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The `APIError` subclass for an HTTP status; a plain `APIError` for statuses without one. */
export function apiErrorForStatus(status: number, init: APIErrorInit): APIError {
  const ErrorClass = classByStatus[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new ErrorClass(status, init);
}
