import { APIUserAbortError, invalidArgument, ModelGateError } from "../core.ts";

type Listener = (...args: never[]) => unknown;

/**
 * The event emitter behind openai's helper objects, as its `EventStream` behaves: listeners by
 * event, called in the order they were added; `error` or `abort` ends the helper and is
 * followed by `end`; nothing is emitted after `end`; `done()` settles with the end.
 *
 * One difference, on purpose: an `error` (or `abort`) nobody listens to is not turned into an
 * unhandled rejection (openai's crashes a Node process that way). It is kept: `done()` and the
 * final values reject with it when asked. A listener that throws during the work ends the
 * helper with that `error`; one of `error`, `abort` or `end` itself that throws has nothing
 * left to report to, and its throw is left to surface as an unhandled rejection.
 */
export class HelperEmitter {
  readonly #listeners = new Map<string, { listener: Listener; once: boolean }[]>();
  #ended = false;
  #settle!: (error?: { error: unknown }) => void;
  readonly #end = new Promise<void>((resolve, reject) => {
    this.#settle = (failure) => (failure ? reject(failure.error) : resolve());
  });
  /** How many `chunk` events have gone by, listened to or not: a bridge made after the first would lack the start (see `ChatHelper.bridged`). */
  chunksTold = 0;
  /** The signal the helper's requests go out with: `abort()`, or the caller's own signal, aborts it. */
  readonly controller: AbortController;

  constructor(controller: AbortController) {
    this.controller = controller;
    // Settled whether or not anyone asks (see the class comment).
    this.#end.catch(() => {});
  }

  /** Whether the helper has ended (`end` was emitted). */
  get ended(): boolean {
    return this.#ended;
  }

  on(event: string, listener: Listener): this {
    return this.#add(event, listener, false);
  }

  once(event: string, listener: Listener): this {
    return this.#add(event, listener, true);
  }

  off(event: string, listener: Listener): this {
    const listeners = this.#listeners.get(event) ?? [];
    const index = listeners.findIndex((entry) => entry.listener === listener);
    if (index >= 0) listeners.splice(index, 1);
    return this;
  }

  /** The next `event`'s first argument; rejects if the helper fails or is aborted first. */
  emitted(event: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const settle = (value: unknown) => {
        this.off(event, settle).off("error", fail).off("abort", fail);
        resolve(value);
      };
      const fail = (error: unknown) => {
        this.off(event, settle).off("error", fail).off("abort", fail);
        reject(error);
      };
      this.once(event, settle);
      if (event !== "error") this.once("error", fail);
      if (event !== "abort") this.once("abort", fail);
    });
  }

  /** Resolves at the end; rejects with the helper's error or abort. */
  done(): Promise<void> {
    return this.#end;
  }

  abort(): void {
    this.controller.abort();
  }

  /**
   * Makes the caller's `signal` (a call option) abort the helper, as `abort()` does, until it
   * ends; its reason goes along, as the abort error's cause. The requests and tools get the
   * helper's own signal.
   * @throws ModelGateError when `signal` is given and is not an AbortSignal.
   */
  follow(signal: unknown): void {
    if (signal == null) return;
    if (typeof (signal as AbortSignal).addEventListener !== "function") throw invalidArgument("signal", "an AbortSignal", signal);
    const caller = signal as AbortSignal;
    const forward = () => this.controller.abort(caller.reason);
    if (caller.aborted) return forward();
    caller.addEventListener("abort", forward, { once: true });
    this.on("end", () => caller.removeEventListener("abort", forward));
  }

  /** Whether anyone listens to `event` (to skip building what nobody would see). */
  listens(event: string): boolean {
    return (this.#listeners.get(event)?.length ?? 0) > 0;
  }

  /**
   * Calls the listeners of `event` with `args`. A listener that throws stops the others and
   * throws out of here: during the run, that becomes the helper's `error`.
   */
  emit(event: string, ...args: unknown[]): void {
    if (this.#ended) return;
    const listeners = this.#listeners.get(event);
    if (!listeners?.length) return;
    // Once-listeners go before any is called, so a listener that emits again cannot call them twice.
    if (listeners.some((entry) => entry.once)) {
      this.#listeners.set(
        event,
        listeners.filter((entry) => !entry.once),
      );
    }
    for (const { listener } of listeners) (listener as (...args: unknown[]) => unknown)(...args);
  }

  /**
   * Runs the helper's work, then its final events and `end`; a failure anywhere is `error` (or
   * `abort`), then `end`. The work starts a promise job later, once the shell has handed over
   * the listeners added before the code loaded (openai's helpers wait a timer turn instead;
   * reacting within promise jobs keeps an abort's effect immediate).
   */
  run(work: () => Promise<void>, emitFinal: () => void): void {
    Promise.resolve()
      .then(work)
      .then(emitFinal)
      .then(
        () => this.#finish(),
        (error: unknown) => this.fail(error),
      );
  }

  /** Ends the helper with `error` (or `abort`, for an abort), then `end`. */
  fail(thrown: unknown): void {
    if (this.#ended) return;
    const error = asHelperError(thrown);
    const event = error instanceof APIUserAbortError ? "abort" : "error";
    try {
      this.emit(event, error);
    } finally {
      this.#finish({ error });
    }
  }

  #finish(failure?: { error: unknown }): void {
    if (this.#ended) return;
    // `end` is the last event: listeners of it may still read the final state, but no more events come.
    const listeners = this.#listeners.get("end") ?? [];
    this.#ended = true;
    this.#listeners.clear();
    this.#settle(failure);
    for (const { listener } of listeners) (listener as () => unknown)();
  }

  #add(event: string, listener: Listener, once: boolean): this {
    const listeners = this.#listeners.get(event);
    if (listeners) listeners.push({ listener, once });
    else this.#listeners.set(event, [{ listener, once }]);
    return this;
  }
}

/**
 * What the `error` and `abort` events carry, as openai's helpers give them: the SDK's errors as
 * they are, a DOM `AbortError` as `APIUserAbortError`, anything else (a listener's own throw)
 * as a `ModelGateError` with the thrown value as `cause`.
 */
function asHelperError(thrown: unknown): ModelGateError {
  if (thrown instanceof ModelGateError) return thrown;
  if (thrown instanceof Error && thrown.name === "AbortError") return new APIUserAbortError(undefined, { cause: thrown });
  return new ModelGateError(thrown instanceof Error ? thrown.message : String(thrown), { cause: thrown });
}
