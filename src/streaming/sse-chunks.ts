import { APIConnectionError, APIError, ModelGateError, errorFromBody, isErrorDocument, parseBody, type ErrorContext } from "../errors/index.ts";
import type { GatewayInfo } from "../gateway/info.ts";
import type { BodyReader } from "./body-reader.ts";
import { ChunkEvents, type EndRules } from "./chunk-events.ts";
import { SSEDecoder } from "./sse-decoder.ts";

/** The most text kept from before the first event (see `prelude`): the start of a page or error document. */
const MAX_PRELUDE_LENGTH = 64 * 1024;

/** How a response body of Server-Sent Events is read; see `ClientOptions` for the defaults. */
export interface SSEChunkOptions extends EndRules {
  /** Longest line or event, in characters. */
  maxLineLength: number;
  /** Redaction for errors the stream reports. */
  errorContext?: ErrorContext;
}

/**
 * Reads a response body of Server-Sent Events as parsed JSON chunks: bytes (the `BodyReader`,
 * which owns timeouts, abort and cancel) → events (the `SSEDecoder`) → chunks (`ChunkEvents`,
 * which also decides whether a close was an end or a cut).
 *
 * It is a hand-written iterator rather than an async generator, and decodes a whole network
 * read into a queue before handing chunks out one by one: the per-chunk path is then one
 * `JSON.parse` and a queue step, which keeps the SDK close to a hand-written fetch loop.
 */
export function iterateSSEChunks<T>(response: Response, reader: BodyReader, gateway: GatewayInfo, options: SSEChunkOptions): AsyncIterator<T> {
  const events = new ChunkEvents<T>({ ...options.errorContext, headers: response.headers }, gateway, options);
  const { queue } = events;
  // Asked before every chunk: an abort is final (see refill).
  const { signal } = reader;
  let head = 0;
  let bodyEnded = false;
  let finished = false;
  /**
   * The start of the text before the first event (its first MAX_PRELUDE_LENGTH characters), so
   * that a body that never was an event stream can still be understood at its end: an error
   * document sent with status 200 under a content type that does not say JSON, or a proxy's
   * page however long (a captive portal with inline scripts), which its start shows to be one.
   */
  let prelude: string | undefined = "";
  const preludeDecoder = new TextDecoder();
  const decoder = new SSEDecoder(
    (event) => {
      prelude = undefined;
      // Only what the caller is given resets the idle clock: a chunk, an error, the end. Any
      // event skipped is a keep-alive, like a comment, however much data it carries (a named
      // `ping` with `{"type":"ping"}`, `data: null`): else a gateway that sent only those would
      // keep a stream open for ever.
      const { length } = queue;
      const failure = events.failure;
      events.add(event, bodyEnded);
      if (queue.length > length || events.failure !== failure || events.sawDone) reader.progress();
    },
    { maxLineLength: options.maxLineLength },
  );

  /** Stops reading: cancels what is left of the body and detaches from the caller's signal; nothing queued is handed out after. */
  const stop = () => {
    finished = true;
    queue.length = head = 0;
    reader.cancel();
  };
  const fail = (error: Error): never => {
    stop();
    // What the stream had learned when it failed (a copy: the stream's own keeps no later
    // changes anyway), and the stream's request id on errors that had no response to read it
    // from (a cut, a timeout), so every error of the stream can be quoted by it.
    if (error instanceof APIError) Object.assign(error, { gateway: { ...gateway }, requestID: error.requestID ?? gateway.requestID });
    throw error;
  };
  const take = (): IteratorResult<T> => {
    const value = queue[head++] as T;
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
    return { value, done: false };
  };

  /** Reads until a chunk is queued or the stream is over. */
  const refill = async (): Promise<IteratorResult<T>> => {
    for (;;) {
      // An abort is final: chunks that had arrived before it (the rest of a short reply often
      // has) are not handed out after it, so a "stop" button stops the text.
      if (!finished && signal.aborted) return fail(reader.abortedError()!);
      if (head < queue.length) return take();
      if (finished) return { value: undefined, done: true };
      if (events.failure) return fail(events.failure);
      if (events.sawDone) {
        stop();
        continue;
      }
      if (bodyEnded) {
        const cut = events.whyUnfinished();
        if (cut !== undefined) return fail(new APIConnectionError(cut));
        finished = true;
        continue;
      }
      try {
        const bytes = await reader.read();
        if (bytes === undefined) {
          bodyEnded = true;
          decoder.flush();
          if (prelude !== undefined) {
            const text = prelude.length < MAX_PRELUDE_LENGTH ? prelude + preludeDecoder.decode() : prelude;
            events.failure ??= errorDocumentIn(text, { ...options.errorContext, headers: response.headers });
          }
        } else {
          if (prelude !== undefined && prelude.length < MAX_PRELUDE_LENGTH) {
            prelude = (prelude + preludeDecoder.decode(bytes, { stream: true })).slice(0, MAX_PRELUDE_LENGTH);
          }
          decoder.decode(bytes);
        }
      } catch (error) {
        // Thrown by the reader (cut, timeout, abort) or the decoder (a line over the limit):
        // the chunks decoded before it are handed out first.
        events.failure ??= error instanceof ModelGateError ? error : new ModelGateError(String(error));
      }
    }
  };

  return {
    // Most calls find a chunk already decoded: answer those without entering an async function.
    next: () => (head < queue.length && !signal.aborted ? Promise.resolve(take()) : refill()),
    async return(): Promise<IteratorResult<T>> {
      if (!finished) stop();
      return { value: undefined, done: true };
    },
  };
}

/**
 * The error a body without any event holds: an error document, or a page (HTML, XML) that a
 * proxy answered with, quoted; `undefined` for anything else, which is read as a cut (a body
 * cut inside its first line is no page).
 */
function errorDocumentIn(text: string, context: ErrorContext): Error | undefined {
  const body = parseBody(text);
  return isErrorDocument(body) || /^\s*</.test(text) ? errorFromBody(undefined, body, context) : undefined;
}
