import { abortError } from "../../errors/connection-errors.ts";
import type { EventStream } from "../../resources/chat/event-stream.ts";
import { queue } from "../../streaming/queue.ts";

/**
 * What to take from each event listened to: the value to queue for the loop, or `undefined` to
 * take nothing (a tool run's bridge takes its chunks, and a frame for each tool message).
 */
export type Taps<T> = Record<string, (value: never) => T | undefined>;

/**
 * The values of `event` (or of several events, each read by its tap) from now on, as an async
 * iterable (a stream's chunks): it ends at `end`, throws the helper's error or abort, and, when
 * the loop is left early, calls `stop` (a `ChatCompletionStream` aborts then, as openai's does).
 * Values the loop has not read yet wait in a queue, in the order they were emitted. Made after
 * the helper ended, it ends at once, or throws the helper's error.
 */
export function listen<T>(events: EventStream, event: string | Taps<T>, stop: () => void): AsyncIterable<T> {
  // First in, first out at a constant cost per value, however far the loop lags the helper.
  const values = queue<T>();
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    wake?.();
    wake = undefined;
  };
  const take = (value: T) => {
    values.push(value);
    wakeUp();
  };
  const fail = (error: unknown) => {
    failure = { error };
    wakeUp();
  };
  const end = () => {
    ended = true;
    wakeUp();
  };
  const taps = Object.entries(typeof event === "string" ? { [event]: (value: T) => value } : event).map(([name, tap]) => {
    const listener = (value: never) => {
      const taken = tap(value);
      if (taken !== undefined) take(taken);
    };
    return [name, listener] as const;
  });
  const unlisten = () => {
    for (const [name, listener] of taps) events.off(name, listener);
    events.off("end", end).off("error", fail).off("abort", fail);
  };
  // A helper already over tells its outcome through done().
  let late = events.ended ? events.done().then(() => undefined, (error: unknown) => ({ error })) : undefined;
  if (!late) {
    for (const [name, listener] of taps) events.on(name, listener);
    events.on("end", end).on("error", fail).on("abort", fail);
  }
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<T>> {
        // An abort is final: what the helper had emitted before it (the rest of a short reply
        // often has arrived) is not handed out after it.
        const { signal } = events.controller;
        if (!ended && signal.aborted) {
          ended = true;
          values.clear();
          unlisten();
          late = undefined;
          throw abortError(signal);
        }
        if (late) {
          failure = await late;
          late = undefined;
          ended = true;
        }
        while (values.size === 0 && !failure && !ended) await new Promise<void>((resolve) => (wake = resolve));
        if (values.size > 0) return { value: values.shift() as T, done: false };
        ended = true;
        unlisten();
        if (failure) {
          const { error } = failure;
          failure = undefined;
          throw error;
        }
        return { value: undefined, done: true };
      },
      async return(): Promise<IteratorResult<T>> {
        const early = !ended;
        ended = true;
        values.clear();
        failure = undefined;
        unlisten();
        if (early) stop();
        return { value: undefined, done: true };
      },
    }),
  };
}
