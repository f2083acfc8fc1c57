import { APIConnectionError, APIUserAbortError, ModelGateError } from "../errors/index.ts";

/**
 * Encodes chunks as newline-delimited JSON: the format `Stream.toReadableStream()` produces
 * so a server route can hand a stream on to a browser, which rebuilds it with
 * `Stream.fromReadableStream()`.
 */
export function encodeNDJSON<T>(iterator: AsyncIterator<T>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Reads newline-delimited JSON bytes back into values, one per non-empty line. */
export function decodeNDJSON<T>(readable: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncIterator<T> {
  const decoder = new TextDecoder();
  const queue: T[] = [];
  let partial = "";
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let finished = false;

  const push = (line: string) => {
    if (line.trim() === "") return;
    try {
      queue.push(JSON.parse(line) as T);
    } catch {
      throw new ModelGateError(`A newline-delimited JSON stream held a line that is not JSON: ${line.slice(0, 120)}`);
    }
  };
  const splitLines = (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) push(line);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    (reader ?? readable).cancel().catch(() => {});
  };

  return {
    async next() {
      for (;;) {
        const value = queue.shift();
        if (value !== undefined) return { value, done: false };
        if (finished) return { value: undefined, done: true };
        if (signal.aborted) {
          finish();
          throw new APIUserAbortError("The stream was aborted.");
        }
        reader ??= readable.getReader();
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          finish();
          throw new APIConnectionError("The newline-delimited JSON stream broke off.", { cause: error });
        }
        try {
          if (result.done) {
            splitLines(decoder.decode());
            push(partial);
            partial = "";
            finished = true;
          } else {
            splitLines(decoder.decode(result.value, { stream: true }));
          }
        } catch (error) {
          finish();
          throw error;
        }
      }
    },
    async return() {
      finish();
      return { value: undefined, done: true };
    },
  };
}
