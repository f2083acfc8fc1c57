/**
 * The `type` OpenAI-style gateways put in an error body for each status, so errors from the
 * mock look like the ones an SDK meets in production.
 */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "insufficient_credits_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  409: "conflict_error",
  413: "invalid_request_error",
  422: "unprocessable_entity_error",
  429: "rate_limit_error",
};

/** A short code for each status an injected fault may use, when the fault names none. */
const ERROR_CODES: Record<number, string> = {
  402: "insufficient_credits",
  408: "request_timeout",
  409: "conflict",
  429: "rate_limit_exceeded",
  500: "internal_error",
  502: "upstream_error",
  503: "service_unavailable",
  504: "upstream_timeout",
};

/** What goes into an error body besides the message. */
export interface ErrorDetails {
  /** @default derived from the status */
  type?: string;
  code?: string | null;
  /** The request field at fault, e.g. `messages[1].role`. */
  param?: string | null;
  /** Details a client reads beside the message, e.g. a 402's `affordable_tokens`; left out when absent. */
  metadata?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * A gateway error answer in the OpenAI-style shape `{ error: { message, type, code, param } }`,
 * with ModelGate's `metadata` when there is some.
 */
export function errorResponse(status: number, message: string, details: ErrorDetails = {}): Response {
  const type = details.type ?? ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "api_error");
  const code = details.code === undefined ? (ERROR_CODES[status] ?? null) : details.code;
  const body = { error: { message, type, code, param: details.param ?? null, ...(details.metadata ? { metadata: details.metadata } : {}) } };
  return Response.json(body, { status, headers: details.headers });
}

/**
 * A request the gateway refuses: thrown from validation and routing, turned into an error
 * answer in one place so every refusal has the same shape.
 */
export class RequestRejected extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly status = 400,
    readonly code: string | null = "invalid_request",
    readonly metadata?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RequestRejected";
  }

  /** The refusal as the gateway's error answer. */
  toResponse(): Response {
    return errorResponse(this.status, this.message, { code: this.code, param: this.param, metadata: this.metadata });
  }
}
