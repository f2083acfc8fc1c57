/**
 * A scripted failure for the next requests, injected with `gateway.inject(fault, times)`.
 * - `status`: answer with this status (and `retry-after` / `retry-after-ms`, a raw `body` such
 *   as an HTML page, extra `headers`) instead of serving the request;
 * - `latency`: wait `ms` before answering (an abort of the request ends the wait);
 * - `stream-error`: after `afterChunks` chunks, report an error inside the stream, as a chunk
 *   carrying `error` (default) or as an `event: error`, then end;
 * - `cut`: after `afterChunks` chunks the connection is cut (the body errors);
 * - `stall`: after `afterChunks` chunks only keep-alive comments are sent, forever.
 */
export type MockFault =
  | {
      type: "status";
      status: number;
      retryAfter?: number | string;
      retryAfterMs?: number;
      message?: string;
      body?: string;
      headers?: Record<string, string>;
    }
  | { type: "latency"; ms: number }
  | { type: "stream-error"; afterChunks: number; status?: number; message?: string; as?: "chunk" | "event" }
  | { type: "cut"; afterChunks: number }
  | { type: "stall"; afterChunks: number; keepAliveMs?: number };

/** Faults that act on a response body rather than instead of one. */
export type BodyFault = Extract<MockFault, { afterChunks: number }>;

/** A first-in, first-out queue of faults, each for a number of requests. */
export class FaultQueue {
  #queue: { fault: MockFault; remaining: number }[] = [];

  add(fault: MockFault, times: number): void {
    if (times > 0) this.#queue.push({ fault, remaining: times });
  }

  /** The fault for the next request, if any. */
  next(): MockFault | undefined {
    const head = this.#queue[0];
    if (!head) return undefined;
    if (--head.remaining === 0) this.#queue.shift();
    return head.fault;
  }

  clear(): void {
    this.#queue = [];
  }
}

/** Waits `ms`, rejecting like fetch does (an AbortError) if `signal` aborts first. */
export function delay(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortError = () => new DOMException("The operation was aborted.", "AbortError");
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
