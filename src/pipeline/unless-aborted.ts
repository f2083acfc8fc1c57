import { abortError } from "../errors/connection-errors.ts";

/**
 * Settles with `work`, or rejects with the abort's error (`APIUserAbortError`, or the error the
 * SDK aborted with: see `abortError`) as soon as one of `signals` aborts; at once when one
 * already has. The one wait for what the SDK awaits but cannot stop: a `fetch` that ignores
 * its signal and the body it reads, a key function, code loading, the shared catalogue fetch,
 * a schema's `~standard.validate` (an async refinement that waits on a service), a step's
 * tools. Their work goes on, unobserved; the caller who gave up is not kept waiting. Work that
 * fails after an abort reports the abort, as the caller's own doing.
 *
 * Every request waits here at least once (its attempt), so the wait costs one promise and one
 * listener per signal, added once and removed once, and nothing more.
 */
export function unlessAborted<T>(work: T | PromiseLike<T>, ...signals: (AbortSignal | null | undefined)[]): Promise<T> {
  const already = abortedOf(signals);
  if (already) {
    // Work already started runs on unobserved: its failure must never surface as an
    // unhandled rejection (which ends a Node process).
    Promise.resolve(work).catch(() => {});
    return Promise.reject(abortError(already));
  }
  return new Promise<T>((resolve, reject) => {
    // Whichever way the wait ends, every signal lets go of it: work that never settles must not
    // keep a listener on the caller's signal after another signal ended the wait.
    const stopWatching = () => {
      for (const signal of signals) signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      stopWatching();
      reject(abortError(abortedOf(signals) as AbortSignal));
    };
    for (const signal of signals) signal?.addEventListener("abort", onAbort);
    // Both handlers are attached at once, so a failure after the abort is observed too.
    Promise.resolve(work).then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (error: unknown) => {
        stopWatching();
        const aborted = abortedOf(signals);
        reject(aborted ? abortError(aborted) : error);
      },
    );
  });
}

/** The first of `signals` that has aborted. */
function abortedOf(signals: (AbortSignal | null | undefined)[]): AbortSignal | undefined {
  for (const signal of signals) if (signal?.aborted) return signal;
  return undefined;
}
