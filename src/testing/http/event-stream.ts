import type { BodyFault } from "./faults.ts";

/** What a stream sends: its events, how it ends, and how it reports a failure. */
export interface StreamScript {
  /** Each event whole and framed (`data: <json>\n\n`, after its `event:` line if it has one). */
  events: readonly string[];
  /**
   * Whether `data: [DONE]` follows the last event, as chat streams end; image streams end with
   * their last event, as OpenAI sends them.
   */
  done: boolean;
  /** The frame that reports a `stream-error` fault in this kind of stream (the fault is sent after it). */
  errorFrame(fault: Extract<BodyFault, { type: "stream-error" }>): string;
}

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
 * Streams `script` as Server-Sent Events the way an OpenAI-compatible provider does: a
 * keep-alive comment first, the events with a keep-alive comment after every
 * `keepAliveEvery` of them, `data: [DONE]` last when the script says so, and the scripted
 * fault if any (`afterChunks` counts events). Produced on demand (`pull`), one event per pull,
 * so a slow reader is never flooded, and every timer stops when the reader cancels or the
 * request aborts.
 */
export function eventStream(script: StreamScript, options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { events } = script;
  const { chunkDelayMs, keepAliveEvery, fault, signal } = options;
  const encoder = new TextEncoder();
  const faultAt = fault ? Math.min(Math.max(0, fault.afterChunks), events.length) : -1;
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
    if (last !== "") send(last);
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
      case "stream-error":
        return finish(script.errorFrame(fault));
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
      if (sent === events.length) return finish(script.done ? DONE : "");
      send(events[sent++]!);
      keepAliveDue = keepAliveEvery > 0 && sent % keepAliveEvery === 0;
    },
    cancel() {
      stop();
    },
  });
}
