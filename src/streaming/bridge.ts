import type { BodyReader } from "./body-reader.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { excerpt, isRecord } from "../internal/values.ts";
import { APIConnectionError } from "../errors/connection-errors.ts";
import { APIError } from "../errors/api-error.ts";
import { errorFromBody, errorFromBridgeFrame } from "../errors/from-body.ts";
import { redactNothing } from "../internal/redact.ts";
import { readChunkChoices } from "./response-message.ts";
import { DEFAULT_MAX_LINE_LENGTH } from "./line-limit.ts";
import { queue } from "./queue.ts";

/*
 * The bridge that carries a stream from a server route to a browser (`toReadableStream()` →
 * `Stream.fromReadableStream()`): newline-delimited JSON, every line ending in "\n". It is a
 * superset of openai's `toReadableStream()`, so a page still on openai reads it too:
 *
 *   {"id":"chatcmpl-1","object":"chat.completion.chunk",...}     each chunk, as it is
 *   {"id":"chatcmpl-1","choices":[],"modelgate_bridge":"end"}      last: the source ended normally
 *   {"id":"chatcmpl-1","choices":[],"modelgate_bridge":"error","error":{"name":"RateLimitError",...}}
 *                                  last: the source failed; the body itself then errors
 *
 * The frames are chunks without choices to openai's readers (no stray text, and the same `id`
 * keeps `ChatCompletionStream` on one completion), and the body's own error after an error
 * frame is how openai's `toReadableStream()` reports a failure, so openai's readers see one.
 *
 * A body is whole only when its last line is the end frame with its newline, so any proper
 * prefix (cut after a chunk, inside a line, or before the final "\n") is told from a whole
 * body: the far side throws `APIConnectionError` instead of ending with part of the answer.
 * openai's own `toReadableStream()` writes no end frame, so its bodies end the same way.
 */

/** An error as it crosses the bridge: OpenAI's error fields, plus what rebuilds the same class (`errorFromBridgeFrame`). */
interface ErrorFrame {
  name: string;
  message: string;
  status?: number;
  code: string | number | null;
  type: string | null;
  param: string | null;
  requestID: string | null;
  error: unknown;
}

const EXCERPT_LENGTH = 120;

/**
 * The source of a body that writes a stream's chunks as bridge lines, pulled at the pace of
 * whoever reads the body; cancelling the body cancels the stream.
 */
export function bridgeSource<T>(iterator: AsyncIterator<T>): UnderlyingDefaultSource<Uint8Array> {
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  /** The stream's `id`: the frames repeat it, so openai's `ChatCompletionStream` sees no new completion. */
  let id = "";
  let failure: { error: unknown } | undefined;
  const frame = (kind: "end" | "error", extra?: { error: ErrorFrame }) => line({ id, choices: [], modelgate_bridge: kind, ...extra });
  return {
    async pull(controller) {
      // The error frame went out in the previous pull: erroring the body in the same one would
      // drop the frame from the body's queue before anyone read it.
      if (failure) return controller.error(failure.error);
      try {
        const result = await iterator.next();
        if (result.done) {
          controller.enqueue(frame("end"));
          controller.close();
          return;
        }
        const bytes = line(escapedChunk(result.value));
        if (isRecord(result.value) && typeof result.value.id === "string" && result.value.id !== "") id = result.value.id;
        controller.enqueue(bytes);
      } catch (error) {
        failure = { error };
        controller.enqueue(frame("error", { error: errorFrame(error) }));
        // A chunk that cannot be written as JSON leaves the source unfinished: stop it too.
        await Promise.resolve(iterator.return?.()).catch(() => {});
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  };
}

/**
 * Reads a bridge body back into its chunks: ends at the end frame, throws an error frame's
 * error, and throws `APIConnectionError` for a body that ends without an end frame. A line
 * longer than `maxLineLength` characters fails as soon as the limit is passed, without keeping
 * the rest of it.
 */
export function decodeBridge<T>(reader: BodyReader, maxLineLength = DEFAULT_MAX_LINE_LENGTH): AsyncIterator<T> {
  const decoder = new TextDecoder();
  const chunks = queue<T>();
  /** Pieces of a line whose "\n" has not arrived yet, joined once when it does (linear for a line in many reads). */
  let partial: string[] = [];
  let partialLength = 0;
  /** What the stream ends with once the queue is empty: the end, or an error to throw. */
  let ending: { error?: Error | undefined } | undefined;
  /** The iterator has ended (done, thrown or returned): an abort after it changes nothing. */
  let over = false;

  const reject = (text: string) => {
    ending = { error: new ModelGateError(`The stream bridge sent a line that is neither a chunk object nor one of its frames: ${JSON.stringify(excerpt(text, EXCERPT_LENGTH))}`) };
  };

  const handle = (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Blank lines are skipped, as openai's reader does; only a failed parse pays for the trim.
      if (text.trim() !== "") reject(text);
      return;
    }
    const kind = isRecord(value) ? value.modelgate_bridge : null;
    if (kind === undefined || Array.isArray(kind)) {
      const chunk = value as Record<string, unknown>;
      // A chunk's own field, escaped by the writer (see `escapedChunk`): handed on as it came.
      if (kind) chunk.modelgate_bridge = kind[0];
      // An error inside a chunk is an error wherever it is read, as in an SSE stream.
      if (chunk.error) ending = { error: errorFromBody(undefined, chunk) };
      // A chunk has `choices` (a list, or a lone choice object); anything else (a run's events,
      // `{"foo":1}`) is no chunk.
      else if (Array.isArray(chunk.choices) || isRecord(chunk.choices)) {
        // Read as an SSE stream's chunks are: a bridge written by openai's toReadableStream()
        // carries the provider's chunks as they came.
        const { unreadable, failed } = readChunkChoices(chunk, redactNothing);
        if (unreadable) ending = { error: unreadable };
        else {
          // A choice's own error ends the stream once the text its chunk carries is handed out.
          chunks.push(chunk as T);
          if (failed) ending = { error: failed };
        }
      } else reject(text);
    } else if (kind === "end") ending = {};
    else if (kind === "error" && isRecord((value as Record<string, unknown>).error)) ending = { error: errorFromBridgeFrame((value as { error: Record<string, unknown> }).error) };
    else reject(text);
  };

  const tooLong = () => {
    partial = [];
    ending = { error: new ModelGateError(`A stream bridge line exceeded ${maxLineLength} characters.`) };
  };

  const take = (bytes: Uint8Array) => {
    // `stream: true` keeps the bytes of a character split across reads until its rest arrives.
    const text = decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1 && !ending; end = text.indexOf("\n", start)) {
      if (partialLength + end - start > maxLineLength) return tooLong();
      partial.push(text.slice(start, end));
      const line = partial.join("");
      partial = [];
      partialLength = 0;
      handle(line);
      start = end + 1;
    }
    if (ending || start === text.length) return;
    partialLength += text.length - start;
    if (partialLength > maxLineLength) return tooLong();
    partial.push(text.slice(start));
  };

  return {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        // An abort is final, as for an SSE stream: nothing read before it is handed out after it.
        if (!over && reader.signal.aborted) {
          over = true;
          chunks.clear();
          reader.cancel();
          throw reader.abortedError()!;
        }
        if (chunks.size > 0) return { value: chunks.shift() as T, done: false };
        if (ending) {
          over = true;
          reader.cancel();
          const { error } = ending;
          ending = { error: undefined };
          if (error) throw error;
          return { value: undefined, done: true };
        }
        const bytes = await reader.read();
        if (bytes !== undefined) {
          take(bytes);
          continue;
        }
        // Whether or not a line was left half-sent, the end frame is missing.
        ending = { error: new APIConnectionError("The stream bridge ended without its end frame: the connection was cut, or openai's toReadableStream() wrote the body (it marks no end).") };
      }
    },
    async return(): Promise<IteratorResult<T>> {
      over = true;
      chunks.clear();
      reader.cancel();
      ending = { error: undefined };
      return { value: undefined, done: true };
    },
  };
}

/**
 * A chunk as the bridge writes it. Frames are told from chunks by their `modelgate_bridge`
 * field, and a chunk's fields come from the provider (or whoever answers in its name): one
 * carrying `"modelgate_bridge": "end"` followed by a cut would otherwise pass on the far side
 * for the end of a whole stream. So a chunk's own `modelgate_bridge` is written wrapped in a
 * one-element array, which no frame is (a frame's is a string), and the reader unwraps it: the
 * provider's value stays the chunk's data, never a frame. The chunk handed to the stream's
 * reader is left as it is (a copy is written). A body that openai's `toReadableStream()` wrote
 * carries such a field as it came: that writer marks no end, so its bodies are never whole.
 */
function escapedChunk(value: unknown): unknown {
  if (!isRecord(value) || !Object.prototype.hasOwnProperty.call(value, "modelgate_bridge")) return value;
  return { ...value, modelgate_bridge: [value.modelgate_bridge] };
}

function errorFrame(error: unknown): ErrorFrame {
  if (!(error instanceof APIError)) {
    const { name, message } = error instanceof Error ? error : { name: "Error", message: String(error) };
    return { name, message, code: null, type: null, param: null, requestID: null, error: null };
  }
  const { name, status, message, code, type, param, requestID } = error;
  const prefix = `${status} `;
  // The status is written apart; the far side's constructor puts it in front of the message again.
  const frame: ErrorFrame = { name, message: message.startsWith(prefix) ? message.slice(prefix.length) : message, code, type, param, requestID, error: error.error };
  if (status !== undefined) frame.status = status;
  return frame;
}
