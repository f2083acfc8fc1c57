import { isRecord } from "../../internal/values.ts";
import { RequestRejected } from "./error-response.ts";

/** A request body as the mock read it. */
export interface ParsedBody {
  /** The parsed JSON, or a multipart form's fields (see `formFields`); `undefined` when there was none. */
  value: unknown;
  /** The multipart form itself, for endpoints that take files. */
  form?: FormData;
  /** Why the body could not be read. */
  error?: string;
}

/**
 * The request to serve. Servers call a handler with a second argument of their own (Bun's
 * server, Deno's connection info), so with a Request the second argument counts only when it
 * is a plain RequestInit, as a fetch caller would pass.
 */
export function toRequest(input: RequestInfo | URL, init: RequestInit | undefined): Request {
  if (!(input instanceof Request)) return new Request(input, init);
  const isRequestInit =
    isRecord(init) && Object.getPrototypeOf(init) === Object.prototype && ["method", "headers", "body", "signal"].some((key) => key in init);
  return isRequestInit ? new Request(input, init) : input;
}

/** Reads the body once: a multipart form (uploads) by its fields, anything else as JSON. */
export async function readBody(request: Request): Promise<ParsedBody> {
  if (request.method === "GET" || request.method === "HEAD") return { value: undefined };
  if (/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    try {
      const form = await request.formData();
      return { value: formFields(form), form };
    } catch {
      return { value: undefined, error: "The request body is not a valid multipart/form-data form." };
    }
  }
  const text = await request.text();
  if (text === "") return { value: undefined, error: "The request body is empty; send a JSON object." };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { value: undefined, error: "The request body is not valid JSON." };
  }
}

/** The JSON an endpoint needs, or the 400 that says why the body is not that. */
export function jsonOf(body: ParsedBody): unknown {
  if (body.error) throw new RequestRejected(body.error, null);
  return body.value;
}

/**
 * A form's fields as a test reads them in the request log: text as is, a file as its `name`,
 * `type` and `size` (its bytes would make the log unreadable). A field sent more than once
 * (`image[]` of an edit, `timestamp_granularities[]`) is the list of its values, in order.
 */
function formFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).map((value) => (typeof value === "string" ? value : { name: value.name, type: value.type, size: value.size }));
    // defineProperty: a field named "__proto__" stays a plain entry of the log.
    Object.defineProperty(fields, key, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
  }
  return fields;
}
