import type { APIErrorInit } from "../errors/index.ts";
import type { BodyReader } from "./body-reader.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { excerpt, isRecord } from "../internal/values.ts";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "../errors/connection-errors.ts";
import { APIError } from "../errors/api-error.ts";
import { apiErrorForStatus } from "../errors/status-errors.ts";

/*
 * The bridge that carries a stream from a server route to a browser (`toReadableStream()` →
 * `Stream.fromReadableStream()`): newline-delimited JSON, one frame per line, every line
 * ending in "\n":
 *
 *   {"chunk":{...}}          one per chunk
 *   {"done":true}            last: the source stream ended normally
 *   {"error":{"name":"RateLimitError","message":"...","status":429,...}}
 *                            last: the source stream failed
 *
 * A body is whole only when its last line is a terminal frame with its newline, so any proper
 * prefix (cut after a chunk, inside a line, or before the final "\n") is told from a whole
 * body: the far side throws `APIConnectionError` instead of ending with part of the answer.
 */

/** An error as it crosses the bridge. */
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

const NEWLINE = 10;
const EXCERPT_LENGTH = 120;

/**
 * The source of a body that encodes a stream's chunks as bridge frames, pulled at the pace of
 * whoever reads the body; cancelling the body cancels the stream.
 */
export function bridgeSource<T>(iterator: AsyncIterator<T>): UnderlyingDefaultSource<Uint8Array> {
  const encoder = new TextEncoder();
  const line = (frame: unknown) => encoder.encode(`${JSON.stringify(frame)}\n`);
  return {
    async pull(controller) {
      let result: IteratorResult<T>;
      try {
        result = await iterator.next();
      } catch (error) {
        controller.enqueue(line({ error: errorFrame(error) }));
        controller.close();
        return;
      }
      if (result.done) {
        controller.enqueue(line({ done: true }));
        controller.close();
      } else {
        controller.enqueue(line({ chunk: result.value }));
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  };
}

/** Reads bridge frames back into the chunks, throwing what the source threw. */
export function decodeBridge<T>(reader: BodyReader): AsyncIterator<T> {
  const decoder = new TextDecoder();
  const queue: T[] = [];
  let head = 0;
  /** The text of a line whose "\n" has not arrived yet. */
  let partial = "";
  /** What the stream ends with once the queue is empty: the end, or an error to throw. */
  let ending: { error?: Error | undefined } | undefined;

  const frame = (text: string) => {
    if (ending) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ending = { error: new ModelGateError(`The stream bridge sent a line that is not JSON: ${JSON.stringify(excerpt(text, EXCERPT_LENGTH))}`) };
      return;
    }
    if (isRecord(parsed) && "chunk" in parsed) queue.push(parsed.chunk as T);
    else if (isRecord(parsed) && parsed.done === true) ending = {};
    else if (isRecord(parsed) && isRecord(parsed.error)) ending = { error: errorFromFrame(parsed.error) };
    else {
      ending = {
        error: new ModelGateError(
          `The stream bridge sent a line that is not one of its frames ({"chunk"}, {"done"}, {"error"}): ${JSON.stringify(excerpt(text, EXCERPT_LENGTH))}. Was the body made by toReadableStream()?`,
        ),
      };
    }
  };

  const take = (bytes: Uint8Array) => {
    // Lines are split on the byte, and only whole lines are decoded: a multi-byte character
    // can never straddle a "\n", and a cut line is never parsed.
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const text = partial + decoder.decode(bytes.subarray(start, end), { stream: true }) + decoder.decode();
      partial = "";
      if (text.trim() !== "") frame(text);
      start = end + 1;
    }
    if (start < bytes.length) partial += decoder.decode(bytes.subarray(start), { stream: true });
  };

  return {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (head < queue.length) {
          const value = queue[head++] as T;
          if (head === queue.length) queue.length = head = 0;
          return { value, done: false };
        }
        if (ending) {
          reader.cancel();
          const { error } = ending;
          ending = { error: undefined };
          if (error) throw error;
          return { value: undefined, done: true };
        }
        const bytes = await reader.read();
        if (bytes === undefined) {
          const rest = partial + decoder.decode();
          ending = {
            error: new APIConnectionError(
              rest.trim() === ""
                ? "The stream bridge ended before its end frame: the connection was probably cut."
                : `The stream bridge ended in the middle of a line (${JSON.stringify(excerpt(rest, EXCERPT_LENGTH))}): the connection was probably cut.`,
            ),
          };
        } else {
          take(bytes);
        }
      }
    },
    async return(): Promise<IteratorResult<T>> {
      reader.cancel();
      ending = { error: undefined };
      return { value: undefined, done: true };
    },
  };
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

/** Errors without a status that cross the bridge as themselves; any other becomes a `ModelGateError`. */
const ERRORS_KEPT = { APIConnectionTimeoutError, APIConnectionError, APIUserAbortError, ModelGateError };

/** The same class on this side as on the source's: by status, else by name. */
function errorFromFrame(frame: Record<string, unknown>): ModelGateError {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const init: APIErrorInit = {
    message: text(frame.message) ?? "The stream failed on the far side of the bridge.",
    error: frame.error,
    code: typeof frame.code === "number" ? frame.code : text(frame.code),
    type: text(frame.type),
    param: text(frame.param),
    requestID: text(frame.requestID),
  };
  if (typeof frame.status === "number") return apiErrorForStatus(frame.status, init);
  if (frame.name === "APIError") return new APIError(undefined, init);
  const name = Object.keys(ERRORS_KEPT).find((kept) => kept === frame.name) ?? "ModelGateError";
  return new ERRORS_KEPT[name as keyof typeof ERRORS_KEPT](init.message);
}
