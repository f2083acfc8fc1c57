/** A gateway error answer in the OpenAI-style shape `{ error: { message, type, code, param } }`. */
export function errorResponse(
  status: number,
  message: string,
  details: { type?: string; code?: string | null; param?: string | null; headers?: Record<string, string> } = {},
): Response {
  const type = details.type ?? (status === 401 ? "authentication_error" : status === 404 ? "not_found_error" : status >= 500 ? "server_error" : "invalid_request_error");
  const body = { error: { message, type, code: details.code ?? null, param: details.param ?? null } };
  return Response.json(body, { status, headers: details.headers });
}

/** Thrown by request validation; the gateway turns it into a 400 naming the field. */
export class InvalidRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly status = 400,
    readonly code: string | null = "invalid_request",
  ) {
    super(message);
  }
}
