/**
 * The events of a run, kept so that every reader gets all of them from the first, whenever it
 * starts reading, and then waits for the next. Ends with the run, or fails with its error.
 */
export class EventLog<T> {
  readonly #events: T[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiting: (() => void)[] = [];

  push(event: T): void {
    this.#events.push(event);
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

  reader(): AsyncIterator<T> {
    let next = 0;
    let stopped = false;
    return {
      next: async () => {
        for (;;) {
          if (stopped) return { value: undefined, done: true };
          if (next < this.#events.length) return { value: this.#events[next++] as T, done: false };
          if (this.#failure) {
            stopped = true;
            throw this.#failure.error;
          }
          if (this.#ended) return { value: undefined, done: true };
          await new Promise<void>((resolve) => this.#waiting.push(resolve));
        }
      },
      // A reader that stops early stops reading; the run itself goes on (await it, or abort its signal).
      return: async () => {
        stopped = true;
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
