/** A first-in, first-out buffer; see `queue()`. */
export interface Queue<T> {
  push(value: T): void;
  /** The oldest value, removed; `undefined` when the queue is empty. */
  shift(): T | undefined;
  /** Drops every value. */
  clear(): void;
  /** How many values it holds. */
  readonly size: number;
}

/**
 * First in, first out, at a constant cost per value however far the reader lags the writer.
 *
 * An array's `shift()` moves every value behind the first one: a queue that grows (one side of
 * a `tee()` that lags the other) then costs the square of its length. Here values are read at
 * a head index instead, and the slots already read are dropped only once they are at least
 * half of the array, so each value is moved at most once on average.
 */
export function queue<T>(): Queue<T> {
  const items: (T | undefined)[] = [];
  let head = 0;
  return {
    push: (value) => void items.push(value),
    shift() {
      if (head === items.length) return undefined;
      const value = items[head];
      // The slot is cleared so a value read is not kept alive until the next compaction.
      items[head++] = undefined;
      if (head === items.length) items.length = head = 0;
      else if (head >= 1024 && head * 2 >= items.length) {
        items.splice(0, head);
        head = 0;
      }
      return value;
    },
    clear() {
      items.length = head = 0;
    },
    get size() {
      return items.length - head;
    },
  };
}
