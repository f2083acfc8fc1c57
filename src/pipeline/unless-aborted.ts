import { abortError } from "../errors/connection-errors.ts";

/**
 * Settles with `work`, or rejects with the abort's error (`APIUserAbortError`, or the error the
 * SDK aborted with: see `abortError`) as soon as one of `signals` aborts; at once when one
 * already has. The one wait for what the SDK awaits but cannot stop: a schema's
 * `~standard.validate` (an async refinement that waits on a service), a step's tools. Their
 * work goes on, unobserved; the caller who gave up is not kept waiting. Work that fails after
 * an abort reports the abort, as the caller's own doing.
 */
export function unlessAborted<T>(work: T | PromiseLike<T>, ...signals: (AbortSignal | null | undefined)[]): Promise<T> {
  const watched = signals.filter((signal): signal is AbortSignal => signal != null);
  const abortedFirst = () => watched.find((signal) => signal.aborted);
  // Work already started runs on unobserved either way: its failure must never surface as an
  // unhandled rejection (which ends a Node process), whichever way the wait ends.
  Promise.resolve(work).catch(() => {});
  const already = abortedFirst();
  if (already) return Promise.reject(abortError(already));
  return new Promise<T>((resolve, reject) => {
    // Whichever way the wait ends, every signal lets go of it: work that never settles must not
    // keep a listener on the caller's signal after another signal ended the wait.
    const stopWatching = () => {
      for (const signal of watched) signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      stopWatching();
      reject(abortError(abortedFirst() as AbortSignal));
    };
    for (const signal of watched) signal.addEventListener("abort", onAbort);
    Promise.resolve(work)
      .then(resolve, (error: unknown) => {
        const aborted = abortedFirst();
        reject(aborted ? abortError(aborted) : error);
      })
      .finally(stopWatching);
  });
}
