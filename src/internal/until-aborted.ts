/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts: work the
 * SDK awaits but does not own (a `fetch` option that ignores the signal, a key function) must
 * not make `timeout` or the caller's abort meaningless.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
