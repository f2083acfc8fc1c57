import { abortError } from "../../errors/connection-errors.ts";

/**
 * The events of a run: a live view for any number of readers, which holds no more than they
 * need. There are two kinds of event:
 *
 * - lasting ones (`push`: steps, calls, results), few and small beside the result that holds
 *   the same objects, are kept for the whole run: every reader gets all of them from the
 *   first, whenever it starts reading;
 * - live ones (`pushLive`: a streamed step's chunks, one per token or so) go only to the
 *   readers that exist when they happen, and each is let go once every one of those has read
 *   it. A reader that starts later does not get the chunks before it; nobody reading keeps
 *   none, so a long streamed answer is held once (in the accumulated completion), not a
 *   second time as its chunks (4 MB of text came as 126 MB of chunk objects when they were
 *   all kept; see bench/tool-run-memory.mjs).
 *
 * Ends with the run, or fails with its error.
 */
export class EventLog<T> {
  readonly #lasting: T[] = [];
  /** The events each reader has not read yet (a live event is held only here). */
  readonly #readers = new Set<Backlog<T>>();
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiting: (() => void)[] = [];

  /** Adds an event every reader gets, whenever it starts. */
  push(event: T): void {
    this.#lasting.push(event);
    for (const backlog of this.#readers) backlog.add(event);
    this.#wake();
  }

  /** Adds an event only the readers that exist now get; with none, it is not kept at all. */
  pushLive(event: T): void {
    for (const backlog of this.#readers) backlog.add(event);
    this.#wake();
  }

  end(): void {
    this.#ended = true;
    this.#wake();
  }

  fail(error: unknown): void {
    this.#failure = { error };
    this.end();
  }

  /** How many events the log holds, counting an event once per reader that has yet to read it (what tests count to prove it lets go). */
  get held(): number {
    let held = this.#lasting.length;
    for (const backlog of this.#readers) held += backlog.size;
    return held;
  }

  /**
   * A reader: every lasting event from the first, the live ones from now on, then the end (or
   * the failure). Once `signal` (the run's controller) is aborted, the reader hands out nothing
   * more, whatever it holds, and throws the abort's error: an abort is final, so a "stop"
   * button stops the text even when the rest of a step's reply had arrived. `onEarlyReturn` is
   * called when the loop is left before the end (a `break`).
   */
  reader(signal?: AbortSignal, onEarlyReturn?: () => void): AsyncIterator<T> {
    const backlog = new Backlog<T>(this.#lasting);
    let stopped = false;
    // A reader waiting for the next event wakes at the abort (the run's own failure may come later).
    const onAbort = () => this.#wake();
    const stop = () => {
      stopped = true;
      this.#readers.delete(backlog);
      backlog.clear();
      signal?.removeEventListener("abort", onAbort);
    };
    if (!this.#ended) this.#readers.add(backlog);
    signal?.addEventListener("abort", onAbort, { once: true });
    return {
      next: async () => {
        for (;;) {
          if (stopped) return { value: undefined, done: true };
          if (signal?.aborted) {
            stop();
            throw abortError(signal);
          }
          if (backlog.size > 0) return { value: backlog.take(), done: false };
          if (this.#failure) {
            stop();
            throw this.#failure.error;
          }
          if (this.#ended) {
            stop();
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => this.#waiting.push(resolve));
        }
      },
      // A reader that stops early stops reading, and holds nothing more; `onEarlyReturn` says
      // what that means for the run (the runner's loop stops it, as openai's does).
      return: async () => {
        const early = !stopped;
        stop();
        if (early) onEarlyReturn?.();
        return { value: undefined, done: true };
      },
    };
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}

/**
 * A first-in, first-out queue whose taken items are let go at once and whose storage is
 * reused, so a reader that keeps up holds next to nothing, and one that lags costs what it
 * lags by (linear: no `Array.shift`, which moves the whole rest each time).
 */
class Backlog<T> {
  #items: (T | undefined)[];
  #head = 0;

  constructor(first: readonly T[]) {
    this.#items = [...first];
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  add(item: T): void {
    this.#items.push(item);
  }

  /** The oldest item; call only when `size > 0`. */
  take(): T {
    const item = this.#items[this.#head] as T;
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) this.clear();
    // Taken slots are dropped once they are half the array: a copy moves no more items than were taken since the last.
    else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
