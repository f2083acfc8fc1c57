import type { ChatCompletionChunk } from "../types/index.ts";
import type { BodyFault } from "./faults.ts";

export interface SSEBodyOptions {
  /** Pause between chunks, in milliseconds. */
  chunkDelayMs: number;
  /** A keep-alive comment before the first chunk and after every this many chunks. */
  keepAliveEvery: number;
  fault?: BodyFault;
  /** Told when the body starts and stops producing, so tests can see nothing keeps running. */
  onActive?: (delta: 1 | -1) => void;
}

const KEEP_ALIVE = ": PROCESSING\n\n";

/**
 * Streams chunks as Server-Sent Events the way a provider does: keep-alive comments,
 * `data: <json>` events, `data: [DONE]` at the end, with scripted faults. Produced on demand
 * (`pull`), and every timer stops when the reader cancels.
 */
export function sseBody(chunks: ChatCompletionChunk[], options: SSEBodyOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { fault } = options;
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | ReturnType<typeof setInterval> | undefined;
  let active = true;
  options.onActive?.(1);
  const stop = () => {
    if (!active) return;
    active = false;
    clearTimeout(timer);
    clearInterval(timer);
    options.onActive?.(-1);
  };
  const wait = (ms: number) => new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!active) return;
      if (next === 0) controller.enqueue(encoder.encode(KEEP_ALIVE));
      else if (options.chunkDelayMs > 0) await wait(options.chunkDelayMs);
      if (!active) return;

      if (fault && next === fault.afterChunks) {
        if (fault.type === "cut") {
          stop();
          controller.error(new TypeError("mock gateway: connection cut"));
          return;
        }
        if (fault.type === "stall") {
          // Only keep-alives from now on; the pull never resolves, so nothing else is produced.
          timer = setInterval(() => controller.enqueue(encoder.encode(KEEP_ALIVE)), fault.keepAliveMs ?? 50);
          return new Promise<void>(() => {});
        }
        const code = fault.status ?? 502;
        const message = fault.message ?? "The upstream provider failed mid-stream.";
        const event =
          fault.as === "event"
            ? `event: error\ndata: ${JSON.stringify({ error: { code, message } })}\n\n`
            : `data: ${JSON.stringify({ ...chunks[0], choices: [{ index: 0, delta: {}, finish_reason: "error" }], error: { code, message } })}\n\n`;
        controller.enqueue(encoder.encode(event));
        stop();
        controller.close();
        return;
      }

      if (next < chunks.length) {
        const keepAlive = next > 0 && next % options.keepAliveEvery === 0 ? KEEP_ALIVE : "";
        controller.enqueue(encoder.encode(`${keepAlive}data: ${JSON.stringify(chunks[next++])}\n\n`));
        return;
      }
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      stop();
      controller.close();
    },
    cancel() {
      stop();
    },
  });
}
