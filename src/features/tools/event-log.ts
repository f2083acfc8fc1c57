import { abortError } from "../../errors/connection-errors.ts";
import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import { queue, type Queue } from "../../streaming/queue.ts";

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
  readonly #readers = new Set<Queue<T>>();
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiting: (() => void)[] = [];

  /** Adds an event every reader gets, whenever it starts. */
  push(event: T): void {
    this.#lasting.push(event);
    for (const backlog of this.#readers) backlog.push(event);
    this.#wake();
  }

  /** Adds an event only the readers that exist now get; with none, it is not kept at all. */
  pushLive(event: T): void {
    for (const backlog of this.#readers) backlog.push(event);
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
    // First in, first out at a constant cost per event, so a reader that lags costs what it lags by.
    const backlog = queue<T>();
    for (const event of this.#lasting) backlog.push(event);
    let stopped = false;
    const stop = () => {
      stopped = true;
      this.#readers.delete(backlog);
      backlog.clear();
    };
    if (!this.#ended) this.#readers.add(backlog);
    return {
      next: async () => {
        for (;;) {
          if (stopped) return { value: undefined, done: true };
          if (signal?.aborted) {
            stop();
            throw abortError(signal);
          }
          if (backlog.size > 0) return { value: backlog.shift() as T, done: false };
          if (this.#failure) {
            stop();
            throw this.#failure.error;
          }
          if (this.#ended) {
            stop();
            return { value: undefined, done: true };
          }
          // A reader waiting for the next event wakes at the abort too (the run's own failure may
          // come later): the abort is then thrown at the top of the loop.
          await unlessAborted(new Promise<void>((resolve) => this.#waiting.push(resolve)), signal).catch(() => {});
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
