import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ModelGateError,
  errorFromBody,
} from "../errors/index.ts";
import { excerpt, isRecord, MAX_TIMER_MS } from "../internal/values.ts";
import { SSEDecoder, type ServerSentEvent } from "./sse-decoder.ts";

/** How a response body of Server-Sent Events is read; see `ClientOptions` for the defaults. */
export interface SSEChunkOptions {
  /** Longest silence between two events, in milliseconds; keep-alive comments do not count. */
  idleTimeoutMs: number;
  /** Longest line or event, in characters. */
  maxLineLength: number;
  /** Called once when the stream ends in any way (done, error, break, abort). */
  onEnd?: () => void;
}

const EXCERPT_LENGTH = 120;

/**
 * Reads a response body of Server-Sent Events as parsed JSON chunks: bytes → events (the
 * SSEDecoder) → chunks, with errors, truncation, idle timeout and cancellation decided here.
 *
 * It is a hand-written iterator rather than an async generator, and decodes a whole network
 * read into a queue before handing chunks out one by one: the per-chunk path is then one
 * `JSON.parse` and a queue step, which keeps the SDK close to a hand-written fetch loop.
 */
export function iterateSSEChunks<T>(
  response: Response,
  controller: AbortController,
  options: SSEChunkOptions,
): AsyncIterator<T> {
  const queue: T[] = [];
  let head = 0;
  /** An error to throw once the chunks that arrived before it have been handed out. */
  let failure: Error | undefined;
  let sawDone = false;
  let sawFinishReason = false;
  let bodyEnded = false;
  let ended = false;
  let idleTimedOut = false;
  let lastEventAt = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  const onEvent = (event: ServerSentEvent) => {
    lastEventAt = Date.now();
    if (sawDone || failure) return;
    const { data } = event;
    if (data === "[DONE]") {
      sawDone = true;
      return;
    }
    if (event.event === "error") {
      failure = errorFromEventData(data, response.headers);
      return;
    }
    // Like EventSource's `onmessage`, only unnamed ("message") events are chunks; other named
    // events (pings, provider metadata) are not meant for a chunk consumer. Empty data is
    // skipped as a lenient keep-alive.
    if ((event.event !== undefined && event.event !== "message") || data === "") return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      failure = bodyEnded
        ? new APIConnectionError(
            `The stream ended in the middle of an event (its data is incomplete: ${JSON.stringify(excerpt(data, EXCERPT_LENGTH))}).`,
          )
        : new ModelGateError(`The stream sent data that is not valid JSON: ${JSON.stringify(excerpt(data, EXCERPT_LENGTH))}`);
      return;
    }
    if (isRecord(chunk)) {
      if (chunk.error !== undefined && chunk.error !== null) {
        failure = errorFromBody(undefined, chunk, response.headers);
        return;
      }
      if (!sawFinishReason) sawFinishReason = hasFinishReason(chunk);
    }
    queue.push(chunk as T);
  };
  const decoder = new SSEDecoder(onEvent, { maxLineLength: options.maxLineLength });

  const checkIdle = () => {
    const quietFor = Date.now() - lastEventAt;
    if (quietFor >= options.idleTimeoutMs) {
      idleTimedOut = true;
      controller.abort();
    } else {
      idleTimer = setTimeout(checkIdle, options.idleTimeoutMs - quietFor);
    }
  };

  // Some fetch implementations (mocks, polyfills) ignore the signal once the body is
  // flowing; cancelling the reader ends a pending read() everywhere.
  const onAbort = () => {
    reader?.cancel().catch(() => {});
  };

  const end = (cancelBody: boolean) => {
    if (ended) return;
    ended = true;
    clearTimeout(idleTimer);
    controller.signal.removeEventListener("abort", onAbort);
    if (cancelBody) (reader ?? response.body)?.cancel().catch(() => {});
    options.onEnd?.();
  };

  const whyAborted = (cause?: unknown): Error =>
    idleTimedOut
      ? new APIConnectionTimeoutError(
          `The stream sent no event for ${options.idleTimeoutMs} ms (streamIdleTimeout).`,
          { cause },
        )
      : new APIUserAbortError("The stream was aborted.", { cause });

  const start = (): ReadableStreamDefaultReader<Uint8Array> => {
    if (controller.signal.aborted) throw whyAborted();
    if (!response.body) throw new ModelGateError("The streamed response has no body.");
    const bodyReader = response.body.getReader();
    controller.signal.addEventListener("abort", onAbort, { once: true });
    lastEventAt = Date.now();
    if (options.idleTimeoutMs < MAX_TIMER_MS) idleTimer = setTimeout(checkIdle, options.idleTimeoutMs);
    return bodyReader;
  };

  /** Reads once from the network and decodes what arrived into the queue. */
  const pump = async (activeReader: ReadableStreamDefaultReader<Uint8Array>) => {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await activeReader.read();
    } catch (error) {
      throw controller.signal.aborted
        ? whyAborted(error)
        : new APIConnectionError("The connection broke off in the middle of the stream.", { cause: error });
    }
    if (controller.signal.aborted) throw whyAborted();
    try {
      if (result.done) {
        bodyEnded = true;
        decoder.flush();
      } else {
        decoder.decode(result.value);
      }
    } catch (error) {
      failure ??= error instanceof ModelGateError ? error : new ModelGateError(String(error));
    }
  };

  const finishWith = (error: Error): never => {
    end(true);
    throw error;
  };

  const done = (): IteratorResult<T> => ({ value: undefined, done: true });

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
      if (head < queue.length) return take();
      if (ended) return done();
      if (failure) return finishWith(failure);
      if (sawDone) {
        end(true);
        return done();
      }
      if (bodyEnded) {
        if (sawFinishReason) {
          end(false);
          return done();
        }
        return finishWith(
          new APIConnectionError(
            "The stream ended before it finished (no [DONE] and no finish_reason): the connection was probably cut.",
          ),
        );
      }
      try {
        reader ??= start();
        await pump(reader);
      } catch (error) {
        return finishWith(error as Error);
      }
    }
  };

  return {
    // Most calls find a chunk already decoded: answer those without entering an async function.
    next: () => (head < queue.length ? Promise.resolve(take()) : refill()),
    async return(): Promise<IteratorResult<T>> {
      end(true);
      return done();
    },
  };
}

/** `event: error` data is JSON from most providers and plain text from some. */
function errorFromEventData(data: string, headers: Headers): APIError {
  try {
    const parsed: unknown = JSON.parse(data);
    if (isRecord(parsed)) return errorFromBody(undefined, parsed, headers);
  } catch {
    // plain text: fall through
  }
  return new APIError(undefined, {
    message: data.trim() || "The stream reported an error.",
    error: data,
    headers,
    requestID: headers.get("x-request-id"),
  });
}

function hasFinishReason(chunk: Record<string, unknown>): boolean {
  const { choices } = chunk;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) {
    if (isRecord(choice) && typeof choice.finish_reason === "string" && choice.finish_reason !== "") return true;
  }
  return false;
}
