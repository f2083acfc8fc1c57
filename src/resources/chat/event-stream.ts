import { APIUserAbortError, ModelGateError } from "../../errors/index.ts";
import { describeCause } from "../../errors/describe-cause.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { redactNothing } from "../../internal/redact.ts";
import { assertOptions } from "../../pipeline/call-options.ts";
import { queue } from "../../streaming/queue.ts";
import type { Requester } from "../requester.ts";

type Listener = (...args: never[]) => unknown;

/**
 * The reason a helper object's controller is aborted with when its caller leaves a `for await`
 * over it (`break`): the request ends, and tracing reads it as the end of the call, not a failure.
 */
export const LEFT_THE_LOOP = Symbol.for("modelgate.break");

/**
 * The event emitter behind openai's helper objects, as its `EventStream` behaves: listeners by
 * event, called in the order they were added; `error` or `abort` ends the helper and is
 * followed by `end`; nothing is emitted after `end`; `done()` settles with the end; `ended`,
 * `errored` and `aborted` say how it went.
 *
 * It belongs to the object a call returns at once (`ChatCompletionStream`, the `runTools()`
 * runner: see abstract-runner.ts), which keeps its listeners here from the start, so a listener
 * added before the helper's code has loaded hears every event; the code loaded on demand emits
 * into it, and a load that fails is told to the listeners as the helper's `error` (or `abort`).
 *
 * Differences, on purpose: an `error` (or `abort`) nobody listens to is not turned into an
 * unhandled rejection (openai's crashes a Node process that way). It is kept: `done()` and the
 * final values reject with it when asked. No listener's throw ever leaves the helper (so none
 * crashes the process): thrown during the work, it ends the helper with that `error`; thrown
 * by a listener of `end` after a success, `done()` rejects with it; thrown by a listener of
 * `error` or `abort`, or of `end` after a failure, the outcome is the first failure and the
 * throw goes to the client's logger (`logger.error`). A listener that is not a function is an
 * argument mistake: the helper fails with it before its request is sent (at its next event
 * when added later).
 */
export class EventStream {
  readonly #listeners = new Map<string, { listener: Listener; once: boolean }[]>();
  #ended = false;
  #errored = false;
  #aborted = false;
  #settle!: (error?: { error: unknown }) => void;
  readonly #end = new Promise<void>((resolve, reject) => {
    this.#settle = (failure) => (failure ? reject(failure.error) : resolve());
  });
  /** How many `chunk` events have gone by, listened to or not: a bridge made after the first would lack the start (see `ChatHelper.bridged`). */
  chunksTold = 0;
  /** The signal the helper's requests go out with: `abort()`, or the caller's own signal, aborts it. */
  readonly controller: AbortController;
  /** The client's logger and redaction; a body read back (`fromReadableStream()`) has no client, and logs to the console. */
  readonly #client: Pick<Requester, "log" | "redact"> | undefined;
  /** A listener given that is not a function: the helper's error, at its start or its next event. */
  #mistake: ModelGateError | undefined;

  constructor(controller: AbortController, client?: Pick<Requester, "log" | "redact">) {
    this.controller = controller;
    this.#client = client;
    // Settled whether or not anyone asks (see the class comment).
    this.#end.catch(() => {});
  }

  /** Whether the helper has ended: `end` was emitted (it is `true` while the listeners of `end` run). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Whether the helper failed: `error` or `abort` was emitted (an abort is a failure too, as in openai). */
  get errored(): boolean {
    return this.#errored;
  }

  /** Whether the helper was stopped by `abort()` or the caller's signal: `abort` was emitted. */
  get aborted(): boolean {
    return this.#aborted;
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

  /**
   * Every `event` from now on, as an async iterator of its arguments, as openai's `events()`
   * (see `HelperEventEmitter.events`): queued until read, ending at `end`, rejecting once with
   * the helper's failure after what it holds.
   */
  events(event: string): AsyncIterableIterator<unknown[]> {
    // First in, first out at a constant cost each, however far the reader lags the helper.
    const values = queue<unknown[]>();
    const readers = queue<{ resolve: (result: IteratorResult<unknown[]>) => void; reject: (error: unknown) => void }>();
    let over = this.#ended;
    let failure: { error: unknown } | undefined;
    // Hands out what is there: the values first, then the failure (once), then the end.
    const settle = () => {
      while (readers.size > 0 && values.size > 0) readers.shift()!.resolve({ value: values.shift()!, done: false });
      if (values.size > 0) return;
      if (failure && readers.size > 0) {
        const { error } = failure;
        failure = undefined;
        readers.shift()!.reject(error);
      }
      if (over && !failure) while (readers.size > 0) readers.shift()!.resolve({ value: undefined, done: true });
    };
    const take = (...args: unknown[]) => {
      values.push(args);
      settle();
    };
    // `end` follows a failure at once: the failure is handed out then.
    const fail = (error: unknown) => void (failure = { error });
    const stop = () => void this.off(event, take).off("end", end).off("error", fail).off("abort", fail);
    const end = () => {
      over = true;
      stop();
      settle();
    };
    if (!over) {
      this.on(event, take).on("end", end);
      if (event !== "error") this.on("error", fail);
      if (event !== "abort") this.on("abort", fail);
    }
    return {
      next: () => new Promise<IteratorResult<unknown[]>>((resolve, reject) => {
        readers.push({ resolve, reject });
        settle();
      }),
      return: () => {
        over = true;
        values.clear();
        failure = undefined;
        stop();
        settle();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Resolves at the end; rejects with the helper's error or abort. */
  done(): Promise<void> {
    return this.#end;
  }

  /**
   * Makes the caller's `signal` (a call option) abort the helper, as `abort()` does, until it
   * ends; its reason goes along, as the abort error's cause. The requests and tools get the
   * helper's own signal.
   * @throws ModelGateError when `signal` is given and is not an AbortSignal.
   */
  follow(signal: unknown): void {
    if (signal == null) return;
    // Checked as every call option is: the helper follows it before its request's own check runs.
    assertOptions({ signal });
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
    if (this.#mistake) throw this.#mistake;
    for (const { listener } of this.#take(event)) (listener as (...args: unknown[]) => unknown)(...args);
  }

  /**
   * Runs the helper's work, then its final events and `end`; a failure anywhere is `error` (or
   * `abort`), then `end`. The work starts a promise job later, so that a throw in its first
   * steps is the `error` event too (openai's helpers wait a timer turn instead; reacting within
   * promise jobs keeps an abort's effect immediate).
   */
  run(work: () => Promise<void>, emitFinal: () => void): void {
    Promise.resolve()
      .then(() => {
        // A listener that is not a function, given before the start: nothing is sent.
        if (this.#mistake) throw this.#mistake;
        return work();
      })
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
    // Set before the listeners run, as openai sets them: a listener of `error` reads `errored` as true.
    this.#errored = true;
    this.#aborted = event === "abort";
    // Every listener is told (an iterator's among them), whichever throws: the failure stays the outcome.
    for (const { listener } of this.#take(event)) {
      try {
        (listener as (error: unknown) => unknown)(error);
      } catch (thrown) {
        this.#report(event, thrown);
      }
    }
    this.#finish({ error });
  }

  #finish(failure?: { error: unknown }): void {
    if (this.#ended) return;
    // `end` is the last event: listeners of it may still read the final state, but no more events come.
    const listeners = this.#listeners.get("end") ?? [];
    this.#ended = true;
    this.#listeners.clear();
    // Told before done() settles, so that after a success a listener's throw is what it rejects with.
    for (const { listener } of listeners) {
      try {
        (listener as () => unknown)();
      } catch (thrown) {
        if (failure) this.#report("end", thrown);
        else failure = { error: new ModelGateError((this.#client?.redact ?? redactNothing)(`An \`end\` listener threw: ${describeCause(thrown)}`), { cause: thrown }) };
      }
    }
    this.#settle(failure);
  }

  /** The listeners of `event` to call now; once-listeners are taken off first, so a listener that emits again cannot call them twice. */
  #take(event: string): { listener: Listener }[] {
    const listeners = this.#listeners.get(event);
    if (!listeners?.length) return [];
    if (listeners.some((entry) => entry.once)) {
      this.#listeners.set(
        event,
        listeners.filter((entry) => !entry.once),
      );
    }
    return listeners;
  }

  /** A listener's throw that the outcome, settled already, cannot carry: written to the client's logger, never lost, never thrown. */
  #report(event: string, thrown: unknown): void {
    const redact = this.#client?.redact ?? redactNothing;
    (this.#client?.log ?? console).error(redact(`An \`${event}\` listener threw: ${describeCause(thrown)}. The helper had already failed; done() keeps that failure.`), thrown);
  }

  #add(event: string, listener: Listener, once: boolean): this {
    if (typeof listener !== "function") {
      // Told as the helper's error (see `run`, `emit`); after the end it would never be called.
      const name = typeof event === "string" ? JSON.stringify(event) : "…";
      if (!this.#ended) this.#mistake ??= invalidArgument("listener", "a function", listener, `${once ? "once" : "on"}(${name})`, this.#client?.redact);
      return this;
    }
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
  return new ModelGateError(describeCause(thrown), { cause: thrown });
}
