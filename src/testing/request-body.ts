import { isRecord } from "../internal/values.ts";
import { RequestRejected } from "./errors.ts";

/** A request body as the mock read it. */
export interface ParsedBody {
  /** The parsed JSON; `undefined` when there was none. */
  value: unknown;
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

/** Reads the body once, as JSON. */
export async function readBody(request: Request): Promise<ParsedBody> {
  if (request.method === "GET" || request.method === "HEAD") return { value: undefined };
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

