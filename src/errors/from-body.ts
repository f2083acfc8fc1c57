import { APIError } from "./api-error.ts";
import { apiErrorForStatus } from "./status-errors.ts";
import { isRecord } from "../internal/values.ts";
import { loadHelpers } from "../streaming/helpers.ts";
import type { Redact } from "./redact.ts";

/** What an error is built with besides its body. */
export interface ErrorContext {
  headers?: Headers | undefined;
  /** Cuts secrets out of everything the error carries; applied before the error exists, so its stack is clean too. */
  redact?: Redact | undefined;
  /** A sentence the SDK adds after the server's message (e.g. why a retry was not made). */
  note?: string | undefined;
}

/**
 * A 2xx body that is only an error (`{ "error": { ... } }`, no `choices`, no resource `id` or
 * `object`): some providers report failures this way, streamed or not. A resource that merely
 * has an `error` field (a failed job's status) is still the resource.
 */
export function isErrorDocument(data: unknown): data is Record<string, unknown> {
  return isRecord(data) && data.error != null && !("choices" in data) && !("id" in data) && !("object" in data);
}

type Reader = Awaited<ReturnType<typeof loadHelpers>>;

/**
 * Builds an error with the error reader (`read-body.ts`), loaded on first use: a request that
 * succeeds never loads it. Never rejects: should the reader fail to load (a browser that went
 * offline between the answer and the import), the error still has the class of its status,
 * with a message that says the details are missing.
 */
async function withReader(status: number | undefined, build: (reader: Reader) => APIError): Promise<APIError> {
  let reader: Reader;
  try {
    reader = await loadHelpers();
  } catch (cause) {
    // The load failure's message says what is missing; the class still says what happened.
    const init = { message: (cause as Error).message, cause };
    return status === undefined ? new APIError(undefined, init) : apiErrorForStatus(status, init);
  }
  return build(reader);
}

/**
 * The error for a failed exchange, from whatever body the server sent: OpenAI-style
 * `{ error: { message, type, code, param } }`, `{ error: { code: 429, message, metadata } }`,
 * flat `{ message, statusCode }`, or anything else (an HTML page from a proxy, plain text,
 * nothing), which still yields the class of its status with a short excerpt as message.
 *
 * @param status the HTTP status; for an error inside a stream or a 200 error document,
 *   `undefined`, and then a `code` of 400..599 in the body picks the class
 * @param body the parsed JSON body, or the raw text when it was not JSON
 */
export function errorFromBody(status: number | undefined, body: unknown, context: ErrorContext = {}): Promise<APIError> {
  return withReader(status, (reader) => reader.buildErrorFromBody(status, body, context));
}

/** The error an `event: error` of a stream carries (JSON from most providers, plain text from some). */
export function errorFromStreamEvent(data: string, context: ErrorContext): Promise<APIError> {
  return withReader(undefined, (reader) => reader.buildErrorFromStreamEvent(data, context));
}

/**
 * The error for a stream request answered with a whole document (see `attempt`): an error
 * object sent with status 200 is reported as such, anything else (a proxy's page) with an
 * excerpt.
 */
export function notAStreamError(response: Response, text: string, redact: Redact): Promise<APIError> {
  const body = parseBody(redact(text));
  if (isErrorDocument(body)) return errorFromBody(undefined, body, { headers: response.headers, redact });
  return withReader(response.status, (reader) => reader.buildNotAStreamError(response, text, redact));
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
