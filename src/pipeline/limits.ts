import { APIUserAbortError } from "../errors/connection-errors.ts";
import type { ModelGateError } from "../errors/modelgate-error.ts";
import { MAX_TIMER_MS } from "../internal/values.ts";

/** What bounds one step of a call (an attempt, asking a key function); see `limits`. */
export interface Limits {
  /** Aborted, with the error it means as the reason, by the caller's signal or the timeout. */
  controller: AbortController;
  /** Stops the timeout (a body read as it comes stops it at its first byte). */
  stopTimeout: () => void;
  /** Stops the timeout and detaches from the caller's signal: the step is over. */
  release: () => void;
}

/**
 * One AbortController that the caller's signal and a timeout both abort, each with the error it
 * means as the reason (`APIUserAbortError`, or what `timedOut` makes: `undefined` for a wait
 * whose end is no error), so every await that sees the abort reports the same thing. Built by
 * hand rather than from `AbortSignal.any` and `AbortSignal.timeout`, whose reasons would be the
 * caller's own and a `DOMException`, not the SDK's errors. A timeout past `MAX_TIMER_MS`
 * (Infinity included) is none.
 *
 * @throws APIUserAbortError when `signal` is already aborted
 */
export function limits(signal: AbortSignal | null | undefined, timeoutMs: number, timedOut: () => ModelGateError | undefined): Limits {
  const callerAborted = () => new APIUserAbortError(undefined, { cause: signal?.reason });
  if (signal?.aborted) throw callerAborted();
  const controller = new AbortController();
  const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(() => controller.abort(timedOut()), timeoutMs) : undefined;
  const onCallerAbort = () => controller.abort(callerAborted());
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  const stopTimeout = () => clearTimeout(timer);
  return {
    controller,
    stopTimeout,
    release: () => {
      stopTimeout();
      signal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

/**
 * Waits `ms` milliseconds before a retry. The caller's abort ends the wait at once with
 * `APIUserAbortError`: a pending retry must not keep waiting a caller who gave up.
 */
export async function waitBeforeRetry(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  // The wait is a timeout that means no error (its reason is none); the caller's abort is one.
  const { controller, release } = limits(signal, ms, () => undefined);
  const { signal: waited } = controller;
  await new Promise((resolve) => waited.addEventListener("abort", resolve, { once: true }));
  release();
  if (waited.reason instanceof APIUserAbortError) throw waited.reason;
}
