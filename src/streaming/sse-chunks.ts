import { APIConnectionError, APIError, ModelGateError, type ErrorContext } from "../errors/index.ts";
import type { GatewayInfo } from "../gateway/info.ts";
import type { BodyReader } from "./body-reader.ts";
import { ChunkEvents, type EndRules } from "./chunk-events.ts";
import { SSEDecoder } from "./sse-decoder.ts";
import { Stream } from "./stream.ts";

/** How a response body of Server-Sent Events is read; see `ClientOptions` for the defaults. */
export interface SSEChunkOptions extends EndRules {
  /** Longest line or event, in characters. */
  maxLineLength: number;
  /** Redaction for errors the stream reports. */
  errorContext?: ErrorContext;
}

/**
 * The `Stream` of the JSON chunks carried by a Server-Sent Events response: what a streamed
 * call resolves to, unless its request reads the events another way (`RequestSpec.stream`).
 * A `Stream` is any iterator of values (a bridge body read back, image events): this is the
 * one that decodes Server-Sent Events, so the decoding is this module's, not the class's.
 */
export function sseStream<T>(response: Response, reader: BodyReader, controller: AbortController, gateway: GatewayInfo, options: SSEChunkOptions): Stream<T, Response> {
  const chunks = () => {
    // One reader of the body: `asResponse()` after the chunks (or before them) is told so.
    reader.claim("the stream (its chunks)");
    return iterateSSEChunks<T>(response, reader, gateway, options);
  };
  return new Stream(chunks, controller, response, gateway);
}

/**
 * Reads a response body of Server-Sent Events as parsed JSON chunks: bytes (the `BodyReader`,
 * which owns timeouts, abort and cancel) → events (the `SSEDecoder`) → chunks (`ChunkEvents`,
 * which also decides whether a close was an end or a cut). The attempt has seen its first bytes
 * to be an event stream (`readStreamStart`): a page or a whole document never gets here.
 *
 * It is a hand-written iterator rather than an async generator, and decodes a whole network
 * read into a queue before handing chunks out one by one: the per-chunk path is then one
 * `JSON.parse` and a queue step, which keeps the SDK close to a hand-written fetch loop.
 */
export function iterateSSEChunks<T>(response: Response, reader: BodyReader, gateway: GatewayInfo, options: SSEChunkOptions): AsyncIterator<T> {
  const events = new ChunkEvents<T>({ ...options.errorContext, headers: response.headers }, gateway, options);
  const { queued } = events;
  // Asked before every chunk: an abort is final (see refill).
  const { signal } = reader;
  let bodyEnded = false;
  let finished = false;
  const decoder = new SSEDecoder(
    (event) => {
      // Only what the caller is given resets the idle clock: a chunk, an error, the end. Any
      // event skipped is a keep-alive, like a comment, however much data it carries (a named
      // `ping` with `{"type":"ping"}`, `data: null`): else a gateway that sent only those would
      // keep a stream open for ever.
      const before = queued.size;
      const failure = events.failure;
      events.add(event, bodyEnded);
      if (queued.size > before || events.failure !== failure || events.sawDone) reader.progress();
    },
    { maxLineLength: options.maxLineLength },
  );

  /** Stops reading: cancels what is left of the body and detaches from the caller's signal; nothing queued is handed out after. */
  const stop = () => {
    finished = true;
    queued.clear();
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
  const take = (): IteratorResult<T> => ({ value: queued.shift() as T, done: false });

  /** Reads until a chunk is queued or the stream is over. */
  const refill = async (): Promise<IteratorResult<T>> => {
    for (;;) {
      // An abort is final: chunks that had arrived before it (the rest of a short reply often
      // has) are not handed out after it, so a "stop" button stops the text.
      if (!finished && signal.aborted) return fail(reader.abortedError()!);
      if (queued.size > 0) return take();
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
        } else {
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
    next: () => (queued.size > 0 && !signal.aborted ? Promise.resolve(take()) : refill()),
    async return(): Promise<IteratorResult<T>> {
      if (!finished) stop();
      return { value: undefined, done: true };
    },
  };
}
