// The error reader: the one place an `APIError` is built from what a server sent (three JSON
// shapes, validation lists, HTML pages, plain text, a stream bridge's error frame), its secrets
// cut out before any excerpt.
import { excerpt, isRecord } from "../internal/values.ts";
import { APIError, type APIErrorInit } from "./api-error.ts";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "./connection-errors.ts";
import { ModelGateError } from "./modelgate-error.ts";
import { redactNothing, redactValue, type Redact } from "../internal/redact.ts";
import { apiErrorForStatus } from "./status-errors.ts";

/** What an error is built with besides its body. */
export interface ErrorContext {
  headers?: Headers | undefined;
  /** Cuts secrets out of everything the error carries; applied before the error exists, so its stack is clean too. */
  redact?: Redact | undefined;
  /** A sentence the SDK adds after the server's message (e.g. why a retry was not made). */
  note?: string | undefined;
}

/**
 * Whether a 2xx body is an error document, which some providers send instead of a failure
 * status, streamed or not: it has an `error` and no data of a resource, whatever envelope fields
 * (`id`, `object`, `created`, `model`) sit beside it. The rule: an `error` that is truthy (as
 * openai reads it), and no resource beside it: no `choices` but an empty list, no `data` but
 * `null`, no string `status` but `"error"`. A resource that reports its own failure (a job whose
 * `status` is `"failed"`, beside its `error`) is still the resource.
 */
export function isErrorDocument(data: unknown): data is Record<string, unknown> {
  if (!isRecord(data) || !data.error) return false;
  const { choices, status } = data;
  const choicesHeld = Array.isArray(choices) ? choices.length > 0 : choices != null;
  return !choicesHeld && data.data == null && (typeof status !== "string" || status === "error");
}

/** Error bodies are JSON when the gateway answered, anything at all when a proxy did. */
export function parseBody(text: string | undefined): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const EXCERPT_LENGTH = 200;
/** How many entries of a validation list are quoted in a message. */
const MAX_REASONS = 5;

/**
 * Builds the error for a failed exchange from whatever body the server sent. The gateway fronts
 * many providers, so three JSON shapes are read into the same fields:
 * OpenAI-style `{ error: { message, type, code, param } }`, `{ error: { code: 429, message,
 * metadata } }`, and flat `{ message, statusCode }` (where a string `error` beside `message` is
 * its summary, the `type`, and a `message` list is the reasons, joined with "; "). Anything else (an HTML page from a proxy,
 * plain text, nothing) still yields the class of its status, with a short excerpt as message.
 *
 * @param status the HTTP status; for an error inside a stream or a 200 error document,
 *   `undefined`, and then a `code` of 400..599 in the body picks the class
 * @param body the parsed JSON body, or the raw text when it was not JSON
 */
export function errorFromBody(status: number | undefined, body: unknown, context: ErrorContext = {}): APIError {
  // Redacted before anything is cut to an excerpt: a cut through the key would leave part of it.
  const fields = readErrorFields(redactValue(body, context.redact ?? redactNothing), status);
  if (context.note) fields.message += ` ${context.note}`;
  return buildAPIError(status ?? statusFromCode(fields.code), fields, context);
}

/**
 * The error an `event: error` of a stream carries: its data is JSON from most providers and
 * plain text from some (then the text is the message).
 */
export function errorFromStreamEvent(data: string, context: ErrorContext): APIError {
  try {
    const parsed: unknown = JSON.parse(data);
    if (isRecord(parsed)) return errorFromBody(undefined, parsed, context);
  } catch {
    // plain text: below
  }
  const text = (context.redact ?? redactNothing)(data);
  const message = text.trim() || "The stream reported an error.";
  return buildAPIError(undefined, { message, error: text, code: null, type: null, param: null }, context);
}

/** Errors without a status that cross the bridge as themselves; any other becomes a `ModelGateError`. */
const ERRORS_KEPT = { APIConnectionTimeoutError, APIConnectionError, APIUserAbortError, ModelGateError };

/**
 * The error a stream bridge's error frame carries (see streaming/bridge.ts), of the same class
 * on this side as on the source's: by status, else by name. The frame's fields were read from
 * the source's error, which the far side already redacted; its `requestID` is the source's.
 */
export function errorFromBridgeFrame(frame: Record<string, unknown>): ModelGateError {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const fields: ErrorFields = {
    message: text(frame.message) ?? "The stream failed on the far side of the bridge.",
    error: frame.error,
    code: typeof frame.code === "number" ? frame.code : text(frame.code),
    type: text(frame.type),
    param: text(frame.param),
    requestID: text(frame.requestID),
  };
  // By the rule a body's `code` is read by: a whole number from 400 to 599, or the same three
  // digits as a string (a route written by hand may write "429"); any other is no status.
  const status = statusFromCode(frame.status as string | number | null);
  if (status !== undefined) return buildAPIError(status, fields, {});
  if (frame.name === "APIError") return buildAPIError(undefined, fields, {});
  const name = Object.keys(ERRORS_KEPT).find((kept) => kept === frame.name) ?? "ModelGateError";
  return new ERRORS_KEPT[name as keyof typeof ERRORS_KEPT](fields.message);
}

/**
 * The one place an `APIError` is made from server content. Fields come redacted from their
 * body; the message is redacted once more for what the SDK added, and headers that echo a
 * secret (a `www-authenticate` quoting the token) are copied with it cut out.
 */
function buildAPIError(status: number | undefined, fields: ErrorFields, context: ErrorContext): APIError {
  const redact = context.redact ?? redactNothing;
  const headers = context.headers && redactHeaders(context.headers, redact);
  const init: APIErrorInit = {
    ...fields,
    message: redact(fields.message),
    headers,
    requestID: headers?.get("x-request-id") ?? fields.requestID ?? null,
  };
  return status === undefined ? new APIError(undefined, init) : apiErrorForStatus(status, init);
}

function redactHeaders(headers: Headers, redact: Redact): Headers {
  let copy: Headers | undefined;
  headers.forEach((value, name) => {
    const redacted = redact(value);
    // A name that shows a key goes (a header name cannot hold "[redacted]"); a value is cut.
    if (redact(name) !== name) (copy ??= new Headers(headers)).delete(name);
    else if (redacted !== value) (copy ??= new Headers(headers)).set(name, redacted);
  });
  return copy ?? headers;
}

interface ErrorFields {
  message: string;
  error: unknown;
  code: string | number | null;
  type: string | null;
  param: string | null;
  /** Given by the body itself (a bridge frame); a response's `x-request-id` header comes first. */
  requestID?: string | null;
}

function readErrorFields(body: unknown, status: number | undefined): ErrorFields {
  if (typeof body === "string") {
    return { message: describeBody(body, status), error: body, code: null, type: null, param: null };
  }
  if (!isRecord(body)) {
    const message = body === undefined || body === null ? "(no body)" : excerpt(JSON.stringify(body), EXCERPT_LENGTH);
    return { message, error: body, code: null, type: null, param: null };
  }
  const inner = body.error;
  if (typeof inner === "string") {
    // Beside a `message`, a string `error` is its summary, as NestJS sends `{ statusCode,
    // message, error: "Unauthorized" }` (with ValidationPipe, `message` is the list of reasons).
    const code = codeOf(body.code) ?? codeOf(body.statusCode);
    const stated = stringOr(body.message) ?? messageList(body.message);
    if (stated !== null) return { message: withReasons(stated, body), error: body, code, type: inner === "" ? stringOr(body.type) : inner, param: stringOr(body.param) };
    return { message: withReasons(inner, body), error: body, code, type: stringOr(body.type), param: null };
  }
  const source = isRecord(inner) ? inner : body;
  const summary = stringOr(source.message) ?? stringOr(source.detail) ?? stringOr(body.message) ?? messageList(source.message);
  return {
    message: summary === null ? reasonsOf(source) ?? reasonsOf(body) ?? excerpt(JSON.stringify(body), EXCERPT_LENGTH) : withReasons(summary, source, body),
    error: isRecord(inner) ? inner : body,
    code: codeOf(source.code) ?? codeOf(source.statusCode) ?? codeOf(body.code),
    type: stringOr(source.type),
    param: stringOr(source.param),
  };
}

/**
 * Validators (OpenAPI ones such as Prism, FastAPI's `detail` list) put the reason in a list
 * beside a generic summary ("Request validation failed"); a message without it says nothing.
 */
function withReasons(summary: string, ...sources: Record<string, unknown>[]): string {
  for (const source of sources) {
    const reasons = reasonsOf(source);
    if (reasons && !summary.includes(reasons)) return `${summary}: ${reasons}`;
  }
  return summary;
}

function reasonsOf(source: Record<string, unknown>): string | null {
  return reasonList([source.validation, source.errors, source.detail].find(Array.isArray));
}

/** A `message` that is a list of reasons (NestJS's ValidationPipe), as the reasons joined. */
function messageList(message: unknown): string | null {
  return Array.isArray(message) ? reasonList(message) : null;
}

function reasonList(list: unknown[] | undefined): string | null {
  if (!list || list.length === 0) return null;
  const reasons = list.slice(0, MAX_REASONS).map(describeReason);
  if (list.length > MAX_REASONS) reasons.push(`and ${list.length - MAX_REASONS} more`);
  return reasons.join("; ");
}

/** `{ location: ["body","messages",0], message }`, `{ loc, msg }`, `{ path, message }` or a string. */
function describeReason(entry: unknown): string {
  if (!isRecord(entry)) return excerpt(String(entry), EXCERPT_LENGTH);
  const message = stringOr(entry.message) ?? stringOr(entry.msg) ?? excerpt(JSON.stringify(entry), EXCERPT_LENGTH);
  const location = [entry.location, entry.loc, entry.path, entry.instancePath, entry.field].find((value) => value !== undefined && value !== "");
  const where = Array.isArray(location) ? location.filter((part) => part !== "body").join(".") : typeof location === "string" ? location : "";
  return where && !message.startsWith(where) ? `${where} ${message}` : message;
}

/** A JSON `code` of 400..599 is an HTTP status in disguise (errors sent inside a 200 stream). */
function statusFromCode(code: string | number | null): number | undefined {
  const numeric = typeof code === "string" && /^\d{3}$/.test(code) ? Number(code) : code;
  return typeof numeric === "number" && Number.isInteger(numeric) && numeric >= 400 && numeric <= 599 ? numeric : undefined;
}

/**
 * A short description of a body that is not JSON. HTML error pages are mostly markup: it is
 * stripped so the excerpt shows the words a person reads.
 *
 * The error's message states the status once: a proxy's page says it in its `<title>` and again
 * in its heading ("429 Too Many Requests"), so the title is left out; and words that start with
 * the `status` come first, so that the error does not put the status in front of them again.
 */
export function describeBody(text: string, status?: number): string {
  const trimmed = text.trim();
  if (trimmed === "") return "(empty body)";
  const looksLikeHTML = trimmed.startsWith("<");
  const words = looksLikeHTML ? trimmed.replace(/<(script|style|title)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ") : trimmed;
  const shown = excerpt(words.replace(/\s+/g, " ").trim(), EXCERPT_LENGTH);
  const kind = looksLikeHTML ? "non-JSON (HTML) body" : "non-JSON body";
  return status !== undefined && shown.split(/\D/, 1)[0] === `${status}` ? `${shown} (${kind})` : `${kind}: ${shown}`;
}

function stringOr(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function codeOf(value: unknown): string | number | null {
  return typeof value === "string" || typeof value === "number" ? value : null;
}

/**
 * The error for a 2xx body that is not what the request reads (see `ResponseKind`): an error
 * document is reported as such; anything else (a proxy's page, a `baseURL` that is not the
 * gateway, JSON where text was asked for) by what it is, with an excerpt.
 *
 * @param expected what the request reads, for the message: "JSON", "an event stream", "text"
 * @param received what came, for the message; by default the content type
 */
export function unexpectedBodyError(response: Response, text: string, expected: string, redact: Redact, received = response.headers.get("content-type") ?? "no content type"): APIError {
  const context = { headers: response.headers, redact };
  const body = parseBody(text);
  if (isErrorDocument(body)) return errorFromBody(undefined, body, context);
  // A page is mostly markup: its words are shown, and it is probably not the gateway's.
  const shown = /html/i.test(received) ? `${describeBody(redact(text))} (an HTML page: is baseURL the gateway's address?)` : excerpt(redact(text), EXCERPT_LENGTH);
  return errorFromBody(response.status, { message: `Expected ${expected} but got ${received}: ${shown}` }, context);
}
