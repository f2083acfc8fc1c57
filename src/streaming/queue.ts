/**
 * First in, first out, at a constant cost per value however far the reader lags the writer.
 *
 * An array's `shift()` moves every value behind the first one: a queue that grows (one side of
 * a `tee()` that lags the other) then costs the square of its length. Here values are read at
 * a head index instead, and the slots already read are dropped only once they are at least
 * half of the array, so each value is moved at most once on average.
 */
export class Queue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  /** How many values are waiting. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  push(value: T): void {
    this.#items.push(value);
  }

  /** The oldest value, removed; `undefined` when the queue is empty. */
  shift(): T | undefined {
    const items = this.#items;
    if (this.#head === items.length) return undefined;
    const value = items[this.#head];
    // The slot is cleared so a value read is not kept alive until the next compaction.
    items[this.#head++] = undefined;
    if (this.#head === items.length) this.clear();
    else if (this.#head >= 1024 && this.#head * 2 >= items.length) {
      items.splice(0, this.#head);
      this.#head = 0;
    }
    return value;
  }

  /** Drops every value. */
  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
