import { abortError, APIConnectionError, APIConnectionTimeoutError } from "../errors/index.ts";
import type { Redact } from "../internal/redact.ts";
import { connectionError, redactedBrokenBodyError } from "../errors/fetch-failure.ts";
import { BodyReader } from "../streaming/body-reader.ts";
import { readStreamStart } from "../streaming/stream-start.ts";
import { limits } from "./limits.ts";
import { unlessAborted } from "./unless-aborted.ts";
import type { Fetch } from "./options.ts";

/**
 * How a successful response body is read (`RequestSpec.response`):
 * - `"json"`: read whole within `timeout`, parsed;
 * - `"text"`: read whole within `timeout`, kept as text (a transcription in `srt`, say);
 * - `"sse"`: Server-Sent Events, read as they come by a `Stream`; `timeout` ends once the first body
 *   bytes show an event stream (any other body, a whole answer or an error document, is read
 *   whole within it, see `readStreamStart`);
 * - `"raw"`: the `Response` itself, its body read by the caller (speech); `timeout` ends at the first body byte.
 */
export type ResponseKind = "json" | "text" | "sse" | "raw";

/** One HTTP exchange, as far as the pipeline needs to see it. */
export interface Exchange {
  response: Response;
  /**
   * The whole body, read within the attempt's timeout; absent when `reader` reads it (a
   * successful `"sse"` or `"raw"` answer).
   */
  text?: string;
  /** The reader of a body read as it comes; its first read is already in (`reader.first()`). */
  reader?: BodyReader;
  /**
   * Aborting it cancels the request and its body; a `Stream` exposes it as
   * `stream.controller`. Aborted by the SDK with the error to report as the reason.
   */
  controller: AbortController;
}

/** What one attempt needs: the request, its timeout and the caller's signal. */
export interface AttemptInit {
  /** `BuiltRequest.fetch`: one that follows redirects and resolves only to a Response it has checked (`fetchedResponse`). */
  fetch: Fetch;
  url: string;
  init: RequestInit;
  timeoutMs: number;
  signal: AbortSignal | null | undefined;
  kind: ResponseKind;
  /** The `streamIdleTimeout` of a body read as it comes. */
  idleTimeoutMs: number;
  /**
   * Cuts the key out of a connection error: a custom fetch may quote the URL, whose query can
   * carry it (node-fetch: "request to https://…?key=… failed, reason: …").
   */
  redact: Redact;
}

/**
 * Makes one attempt, under its `timeout` and the caller's signal (see `limits`).
 *
 * The attempt lasts until the answer is the caller's: the whole body, or for a body read as it
 * comes (`"sse"`, `"raw"`), its first bytes (for `"sse"`, those that show an event stream). A body that stays silent past `timeout`, breaks
 * before its first byte, or comes shorter than its `Content-Length`, fails the attempt, so it
 * is retried like any other; once the first bytes are handed on, nothing is retried.
 * Throws `APIUserAbortError`, `APIConnectionTimeoutError` or `APIConnectionError`; through
 * middleware (`fetch` is then the middleware runner), also the `ModelGateError` it gave.
 */
export async function attempt({ fetch, url, init, timeoutMs, signal, kind, idleTimeoutMs, redact }: AttemptInit): Promise<Exchange> {
  const { controller, stopTimeout, release } = limits(signal, timeoutMs, () => {
    const waitingFor = kind === "raw" ? "the first byte of the body" : kind === "sse" ? "the first bytes of the stream (or the whole answer sent in its place)" : "the whole response";
    return new APIConnectionTimeoutError(`Request timed out after ${timeoutMs} ms waiting for ${waitingFor} (timeout).`);
  });

  const explain = (error: unknown) => {
    release();
    if (controller.signal.aborted) return abortError(controller.signal);
    // What fetch threw is kept only where it is provably free of the key (an HTTP client's
    // error may hold the Request, with its Authorization header); a middleware's
    // ModelGateError is kept as it is. Nothing more where the wording throws (a getter's error
    // may quote the key).
    try {
      return connectionError(error, redact);
    } catch {
      return new APIConnectionError("Connection error");
    }
  };

  /** The response, and its whole body unless it is read as it comes (`bytes` then absent). */
  const exchange = async (): Promise<[response: Response, bytes?: ArrayBuffer | Uint8Array]> => {
    // `fetch` follows redirects at the network, below any middleware (`followingRedirects`),
    // where a credential header cannot follow one to another origin. What it resolves to is
    // checked there (`fetchedResponse`), as the middleware runner checks what a middleware gave.
    const response = await fetch(url, { ...init, signal: controller.signal });
    // An event stream is told by its first bytes, whatever its label (below); raw bytes by their label.
    if (response.ok && (kind === "sse" || (kind === "raw" && !isDocument(response)))) return [response];
    // A fetch that ignored the abort and answered after it: the wait has ended with the
    // abort, and the body is nobody's to read.
    if (controller.signal.aborted) return [response];
    return [response, await response.arrayBuffer()];
  };

  // What the attempt awaits but does not own (a fetch that ignores the signal, a body read)
  // rejects as soon as the controller aborts: one wait for both, so one abort listener per
  // attempt rather than one per await.
  let response: Response;
  let bytes: ArrayBuffer | Uint8Array | undefined;
  try {
    [response, bytes] = await unlessAborted(exchange(), controller.signal);
  } catch (error) {
    throw explain(error);
  }
  if (bytes === undefined) {
    // One reader for the body, started now: an abort cancels the body whoever reads it later
    // (the Stream, asResponse(), or nobody). Raw bytes are the caller's at their first read; an
    // event stream once its first bytes show it is one (`readStreamStart`).
    const reader = new BodyReader(response.body ?? new Blob().stream(), { controller, idleTimeoutMs, onFirstRead: kind === "raw" ? stopTimeout : undefined, onEnd: release, brokenBody: (error) => redactedBrokenBodyError(error, redact) });
    if (kind === "raw") {
      // Throws what ended the read: the timeout, the caller's abort, a cut (the reader has let go).
      await reader.first();
      return { response, reader, controller };
    }
    // Throws as the read above does. Anything but an event stream has been read whole.
    const start = await readStreamStart(reader);
    if (start === "events") {
      stopTimeout();
      return { response, reader, controller };
    }
    // Retried as the cut it is (see readStreamStart).
    if (start === "cut") throw new APIConnectionError("Connection error: the stream ended before its first event (its body was empty, or cut inside its first line).");
    bytes = start;
  }
  release();
  const expected = response.headers.get("content-length");
  // A cut the transport did not reveal (see above). A content-encoded length counts the
  // compressed bytes, which fetch has decoded, so it says nothing here.
  if (response.ok && expected !== null && bytes.byteLength < Number(expected) && !response.headers.has("content-encoding")) {
    throw new APIConnectionError(`Connection error: the body ended after ${bytes.byteLength} of its ${expected} bytes (content-length).`);
  }
  return { response, text: utf8.decode(bytes), controller };
}

/** Decodes whole bodies (no `stream` option: it keeps no state between calls). */
const utf8 = new TextDecoder();

/**
 * A JSON or HTML answer to a request for a body read as it comes is not that body (a proxy's
 * page, or an error object with status 200): it is read whole, so the caller gets it in an error.
 */
export function isDocument(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return type.includes("json") || type.includes("html");
}
