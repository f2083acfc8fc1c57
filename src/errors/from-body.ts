import { APIError } from "./api-error.ts";
import { excerpt, isRecord } from "../internal/values.ts";
import { apiErrorForStatus } from "./status-errors.ts";

const EXCERPT_LENGTH = 200;

/**
 * Builds the error for a failed exchange from whatever body the server sent. The gateway fronts
 * many providers, so three JSON shapes are read into the same fields:
 * OpenAI-style `{ error: { message, type, code, param } }`, `{ error: { code: 429, message,
 * metadata } }`, and flat `{ message, statusCode }`. Anything else (an HTML page from a proxy,
 * plain text, nothing) still yields the class of its status, with a short excerpt as message.
 *
 * @param status the HTTP status, or for an error inside a stream `undefined` (then a numeric
 *   `code` in the body picks the class)
 * @param body the parsed JSON body, or the raw text when it was not JSON
 */
export function errorFromBody(
  status: number | undefined,
  body: unknown,
  headers?: Headers,
): APIError {
  const fields = readErrorFields(body);
  const requestID = headers?.get("x-request-id") ?? null;
  const init = { ...fields, headers, requestID };
  const effectiveStatus = status ?? statusFromCode(fields.code);
  return effectiveStatus === undefined
    ? new APIError(undefined, init)
    : apiErrorForStatus(effectiveStatus, init);
}

interface ErrorFields {
  message: string;
  error: unknown;
  code: string | number | null;
  type: string | null;
  param: string | null;
}

function readErrorFields(body: unknown): ErrorFields {
  if (typeof body === "string") {
    return { message: describeBody(body), error: body, code: null, type: null, param: null };
  }
  if (!isRecord(body)) {
    const message = body === undefined || body === null ? "(no body)" : excerpt(JSON.stringify(body), EXCERPT_LENGTH);
    return { message, error: body, code: null, type: null, param: null };
  }
  const inner = body.error;
  if (typeof inner === "string") {
    return { message: inner, error: body, code: codeOf(body.code), type: stringOr(body.type), param: null };
  }
  const source = isRecord(inner) ? inner : body;
  const message =
    stringOr(source.message) ?? stringOr(source.detail) ?? excerpt(JSON.stringify(body), EXCERPT_LENGTH);
  return {
    message,
    error: isRecord(inner) ? inner : body,
    code: codeOf(source.code) ?? codeOf(source.statusCode),
    type: stringOr(source.type),
    param: stringOr(source.param),
  };
}

/** A JSON `code` of 400..599 is an HTTP status in disguise (errors sent inside a 200 stream). */
function statusFromCode(code: string | number | null): number | undefined {
  const numeric = typeof code === "string" && /^\d{3}$/.test(code) ? Number(code) : code;
  return typeof numeric === "number" && numeric >= 400 && numeric <= 599 ? numeric : undefined;
}

/**
 * A short description of a body that is not JSON. HTML error pages are mostly markup: it is
 * stripped so the excerpt shows the words a person reads.
 */
export function describeBody(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(empty body)";
  const looksLikeHTML = trimmed.startsWith("<");
  const words = looksLikeHTML
    ? trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ")
    : trimmed;
  const prefix = looksLikeHTML ? "non-JSON (HTML) body: " : "non-JSON body: ";
  return prefix + excerpt(words.replace(/\s+/g, " ").trim(), EXCERPT_LENGTH);
}

function stringOr(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function codeOf(value: unknown): string | number | null {
  return typeof value === "string" || typeof value === "number" ? value : null;
}
