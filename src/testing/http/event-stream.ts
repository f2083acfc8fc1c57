import type { ChatCompletionChunk } from "../../types/index.ts";
import { DEFAULT_STREAM_ERROR, type BodyFault } from "./faults.ts";

/** How `eventStream()` paces and breaks a stream. */
export interface EventStreamOptions {
  /** Pause before each chunk after the first, in milliseconds (0: none). */
  chunkDelayMs: number;
  /** A keep-alive comment before the first chunk and after every this many (0: none at all). */
  keepAliveEvery: number;
  fault?: BodyFault;
  /** The request's signal: an abort errors the body, as fetch does, and stops every timer. */
  signal?: AbortSignal;
  /** Told when the body starts (+1) and stops (-1) producing, so tests can see nothing keeps running. */
  onActive?: (change: 1 | -1) => void;
}

/** The keep-alive comment providers send while a model is thinking; SSE readers skip it. */
const KEEP_ALIVE = ": PROCESSING\n\n";
const DONE = "data: [DONE]\n\n";
/** How often a stalled stream sends its keep-alive, unless the fault says otherwise. */
const STALL_KEEP_ALIVE_MS = 50;

/**
 * Streams `chunks` as Server-Sent Events the way an OpenAI-compatible provider does: a
 * keep-alive comment first, `data: <json>\n\n` events with a keep-alive comment after every
 * `keepAliveEvery` of them, `data: [DONE]` last, and the scripted fault if any. Produced on
 * demand (`pull`), one event per pull, so a slow reader is never flooded, and every timer
 * stops when the reader cancels or the request aborts.
 */
export function eventStream(chunks: readonly ChatCompletionChunk[], options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { chunkDelayMs, keepAliveEvery, fault, signal } = options;
  const encoder = new TextEncoder();
  const faultAt = fault ? Math.min(Math.max(0, fault.afterChunks), chunks.length) : -1;
  let sent = 0;
  let greeted = false;
  let keepAliveDue = false;
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Settles the pull that is waiting (on a pause or a stall) once the stream stops.
  let wake: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const stop = () => {
    if (!running) return;
    running = false;
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    wake?.();
    options.onActive?.(-1);
  };
  const onAbort = () => {
    stop();
    controller.error(signal!.reason);
  };
  const send = (text: string) => controller.enqueue(encoder.encode(text));
  const finish = (last: string) => {
    send(last);
    stop();
    controller.close();
  };

  const breakStream = (fault: BodyFault): void | Promise<void> => {
    switch (fault.type) {
      case "cut":
        stop();
        controller.error(new TypeError("mock gateway: connection cut"));
        return;
      case "stall": {
        // A chain of timeouts rather than setInterval: setTimeout is the one timer every
        // runtime the package supports is sure to have.
        const every = fault.keepAliveMs ?? STALL_KEEP_ALIVE_MS;
        const tick = () => {
          // Skipped while the reader is not reading: keep-alives only need to arrive, not pile up.
          if ((controller.desiredSize ?? 0) > 0) send(KEEP_ALIVE);
          timer = setTimeout(tick, every);
        };
        timer = setTimeout(tick, every);
        return new Promise<void>((resolve) => (wake = resolve));
      }
      case "stream-error": {
        const error = { code: fault.status ?? 502, message: fault.message ?? DEFAULT_STREAM_ERROR };
        if (fault.as === "event") return finish(`event: error\ndata: ${JSON.stringify({ error })}\n\n`);
        const template = chunks[0]!;
        const chunk = { ...template, choices: [{ index: 0, delta: {}, finish_reason: "error" }], error };
        return finish(`data: ${JSON.stringify(chunk)}\n\n`);
      }
    }
  };

  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      options.onActive?.(1);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
    },
    async pull() {
      if (!running) return;
      if (!greeted) {
        greeted = true;
        if (keepAliveEvery > 0) return send(KEEP_ALIVE);
      }
      if (keepAliveDue) {
        keepAliveDue = false;
        return send(KEEP_ALIVE);
      }
      if (sent > 0 && chunkDelayMs > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, chunkDelayMs);
        });
        if (!running) return;
      }
      if (sent === faultAt) return breakStream(fault!);
      if (sent === chunks.length) return finish(DONE);
      send(`data: ${JSON.stringify(chunks[sent++])}\n\n`);
      keepAliveDue = keepAliveEvery > 0 && sent % keepAliveEvery === 0;
    },
    cancel() {
      stop();
    },
  });
}
