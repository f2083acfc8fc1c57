import { abortError } from "../errors/connection-errors.ts";
import { queue } from "./queue.ts";

type Settled<T> = { ok: true; result: IteratorResult<T> } | { ok: false; error: unknown };

/**
 * Splits one iterator into two that each see every value (and the same error) in order.
 * Values are pulled from the source once, by whichever side asks first, and buffered for the
 * other side only while it lags; the source is cancelled once both sides have stopped. Either
 * side may lag the other by the whole stream: its buffer is a `queue()`, so the cost stays
 * linear in the stream's length. Once `signal` (the stream's controller) is aborted, a side
 * hands out nothing more it buffered and throws the abort's error.
 */
export function teeIterator<T>(source: AsyncIterator<T>, signal?: AbortSignal): [AsyncIterator<T>, AsyncIterator<T>] {
  const buffers = [queue<Settled<T>>(), queue<Settled<T>>()] as const;
  const listening = [true, true];
  let pending: Promise<void> | undefined;

  const pullOnce = (): Promise<void> =>
    (pending ??= source
      .next()
      .then(
        (result): Settled<T> => ({ ok: true, result }),
        (error: unknown): Settled<T> => ({ ok: false, error }),
      )
      .then((settled) => {
        pending = undefined;
        for (const side of [0, 1] as const) if (listening[side]) buffers[side].push(settled);
      }));

  const stop = async (index: 0 | 1) => {
    listening[index] = false;
    buffers[index].clear();
    if (!listening[1 - index]) await source.return?.();
  };

  const side = (index: 0 | 1): AsyncIterator<T> => ({
    async next() {
      // An abort of the stream is final for each side too, whatever it still holds.
      if (signal?.aborted && listening[index]) {
        await stop(index);
        throw abortError(signal);
      }
      let settled: Settled<T> | undefined;
      while (!(settled = buffers[index].shift())) {
        if (!listening[index]) return { value: undefined, done: true };
        await pullOnce();
      }
      if (!settled.ok) throw settled.error;
      return settled.result;
    },
    async return() {
      await stop(index);
      return { value: undefined, done: true };
    },
  });

  return [side(0), side(1)];
}
