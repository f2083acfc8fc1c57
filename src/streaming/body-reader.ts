import { abortError, APIConnectionTimeoutError, brokenBodyError, type APIConnectionError } from "../errors/connection-errors.ts";
import { describeCause } from "../errors/describe-cause.ts";
import { describeValue } from "../errors/invalid-argument.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { MAX_TIMER_MS } from "../internal/values.ts";

/** How a streamed body is read; see `BodyReader`. */
export interface BodyReaderOptions {
  /**
   * Owns the request: aborting it (the caller, a timeout) ends a pending read at once and
   * cancels the body; the reader aborts it itself when the idle budget runs out.
   */
  controller: AbortController;
  /**
   * The longest the server may keep the reader waiting between two calls to `progress()`, in
   * milliseconds. Only time spent waiting on the network counts.
   */
  idleTimeoutMs?: number;
  /** Called once, when the first read returns: the per-attempt `timeout` ends there. */
  onFirstRead?: (() => void) | undefined;
  /** Called once, when the reader is finished in any way (end, error, cancel, abort). */
  onEnd?: () => void;
  /**
   * The error of a body that broke off, built from what it errored with. The pipeline's keeps
   * it with the key cut out (`redactedBrokenBodyError`); without one, the body is the caller's
   * own (`Stream.fromReadableStream()`), sent with no key, and its error is kept as it is.
   */
  brokenBody?: ((error: unknown) => APIConnectionError) | undefined;
}

/**
 * The one reader of streamed bodies, for Server-Sent Events and the newline-delimited bridge
 * alike. It owns the lifecycle that every stream needs, so the formats on top of it only
 * decode bytes:
 *
 * - the idle budget: a clock that runs only while a read is pending, so a slow consumer never
 *   times out a fast server, and that only `progress()` (a real event) refills, so a server
 *   that sends only keep-alives still runs out of it;
 * - abort: the controller's abort ends a pending read at once with the reason's error
 *   (`APIUserAbortError`, or the timeout that aborted it);
 * - cancel: the body is cancelled whenever the reader stops before the body ended.
 *
 * The first read starts at construction, not at the first `read()`: the first byte of the body
 * is what ends the request's `timeout`, and it arrives whether or not the consumer has started
 * to iterate yet (a caller may await something else between `create()` and `for await`). An
 * abort before anyone reads still cancels the body and releases the request.
 *
 * `read()` resolves to the next bytes, or `undefined` at the end of the body, and throws only
 * `ModelGateError`s.
 */
export class BodyReader {
  readonly #body: ReadableStream<Uint8Array>;
  readonly #options: BodyReaderOptions;
  readonly #idleTimeoutMs: number;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The read started at construction, until `read()` takes it. */
  #firstRead: Promise<Uint8Array | undefined> | undefined;
  /** Milliseconds of network waiting left before the idle timeout. */
  #idleBudget: number;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Reads waiting on the network now. A consumer may ask again before its last read settled
   * (several `next()` at once): the clock runs while any is pending, one timer for them all.
   */
  #pendingReads = 0;
  #waitingSince = 0;
  #sawFirstRead = false;
  #ended = false;
  /** Who reads the bytes (see `claim`). */
  #consumer: string | undefined;

  constructor(body: ReadableStream<Uint8Array>, options: BodyReaderOptions) {
    this.#body = body;
    this.#options = options;
    const idle = options.idleTimeoutMs ?? Infinity;
    // Past setTimeout's range (Infinity included) there is no idle timeout.
    this.#idleTimeoutMs = idle < MAX_TIMER_MS ? idle : Infinity;
    this.#idleBudget = this.#idleTimeoutMs;
    options.controller.signal.addEventListener("abort", this.#onAbort, { once: true });
    this.#firstRead = this.#pull();
    // Nobody may ever take it (a stream dropped unread); its failure is reported by read().
    this.#firstRead.catch(() => {});
  }

  /**
   * The first read, without taking it (`read()` still hands it out): the request waits on it,
   * so that a body that stays silent or breaks before its first byte fails the attempt.
   */
  first(): Promise<Uint8Array | undefined> | undefined {
    return this.#firstRead;
  }

  /**
   * The error a consumer of the body throws instead of handing out anything more, once the
   * controller was aborted (the caller's signal, `stream.controller.abort()`, a timeout):
   * chunks decoded before the abort are not handed out after it. `undefined` until then.
   */
  abortedError(): ModelGateError | undefined {
    const { signal } = this.#options.controller;
    return signal.aborted ? abortError(signal) : undefined;
  }

  /**
   * Hands `bytes` out again as the next `read()`: what was read to see what the body is (see
   * `readStreamStart`) is still the stream's to decode.
   */
  unread(bytes: Uint8Array): void {
    this.#firstRead = Promise.resolve(bytes);
  }

  /** The controller's signal: a consumer asks it before every chunk it hands out (see `abortedError`). */
  get signal(): AbortSignal {
    return this.#options.controller.signal;
  }

  /**
   * Takes the body for `consumer` (a stream's chunks, `asResponse()`): both read through this
   * one reader, so two of them would each get part of the bytes, one failing as if the body
   * were cut and the other ending with what was left (an empty body). The second is refused.
   * @throws ModelGateError when another consumer has taken it
   */
  claim(consumer: string): void {
    if (this.#consumer !== undefined && this.#consumer !== consumer) {
      throw new ModelGateError(
        `The response body is already being read by ${this.#consumer}, so ${consumer} cannot read it too: a streamed response is read once. Read either the stream or asResponse(), not both (stream.tee() gives two readers of the chunks).`,
      );
    }
    this.#consumer = consumer;
  }

  /** The next bytes of the body, or `undefined` once it has ended. */
  read(): Promise<Uint8Array | undefined> {
    const first = this.#firstRead;
    if (first) {
      this.#firstRead = undefined;
      return first;
    }
    return this.#pull();
  }

  async #pull(): Promise<Uint8Array | undefined> {
    const { signal } = this.#options.controller;
    // An abort ends the reader (#onAbort) but is reported, not taken for the end of the body.
    if (signal.aborted) throw this.#stop(abortError(signal));
    if (this.#ended) return undefined;
    if (!this.#reader) {
      if (this.#body.locked) throw this.#stop(new ModelGateError("The response body is already being read elsewhere (e.g. by asResponse())."));
      this.#reader = this.#body.getReader();
    }
    this.#startIdleClock();
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      // An abort cancels the reader (#onAbort), which settles this read at once.
      result = await this.#reader.read();
    } catch (error) {
      throw this.#stop(signal.aborted ? abortError(signal) : (this.#options.brokenBody ?? ((error) => brokenBodyError(describeCause(error), error)))(error));
    } finally {
      this.#stopIdleClock();
    }
    if (signal.aborted) throw this.#stop(abortError(signal));
    if (!this.#sawFirstRead) {
      this.#sawFirstRead = true;
      this.#options.onFirstRead?.();
    }
    if (result.done) {
      this.#finish(false);
      return undefined;
    }
    // Decoding needs bytes: a body of strings (a ReadableStream built by hand, or a custom
    // fetch's Response around one) is named here, not met as a TypeError of the decoder. The
    // tag, not `instanceof` alone: bytes made in another realm (an iframe, a VM context) are bytes.
    // A string is not quoted: a custom fetch's body is what a server sent, which may echo the key.
    const bytes: unknown = result.value;
    if (!(bytes instanceof Uint8Array) && Object.prototype.toString.call(bytes) !== "[object Uint8Array]") {
      throw this.#stop(new ModelGateError(`The response body yielded ${typeof bytes === "string" ? "a string" : describeValue(bytes)} where it must yield bytes (Uint8Array), as a Response's body does. For a stream of text, encode it first: \`readable.pipeThrough(new TextEncoderStream())\`.`));
    }
    return result.value;
  }

  /** A whole event (not a keep-alive) arrived: the idle budget starts again. */
  progress(): void {
    this.#idleBudget = this.#idleTimeoutMs;
    // A read still waits (one asked before this event arrived): its clock starts again too.
    if (this.#pendingReads > 0 && !this.#ended) {
      clearTimeout(this.#idleTimer);
      this.#armIdleTimer();
    }
  }

  /** Stops reading and cancels the rest of the body (a `break`, a consumer that is done). */
  cancel(): void {
    this.#firstRead = undefined;
    this.#finish(true);
  }

  /** Stops with `error`, cancelling the body; returns the error to throw. */
  #stop(error: ModelGateError): ModelGateError {
    this.#finish(true);
    return error;
  }

  #finish(cancelBody: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#idleTimer);
    this.#options.controller.signal.removeEventListener("abort", this.#onAbort);
    if (cancelBody) (this.#reader ?? this.#body).cancel().catch(() => {});
    this.#options.onEnd?.();
  }

  readonly #onAbort = () => {
    // Some fetch implementations (mocks, polyfills) ignore the signal once the body is
    // flowing; cancelling the reader ends a pending read() everywhere. With no read pending
    // (a stream nobody reads yet), finishing here is what releases the request.
    this.#finish(true);
  };

  #startIdleClock(): void {
    if (this.#idleTimeoutMs === Infinity) return;
    if (this.#pendingReads++ > 0) return;
    this.#armIdleTimer();
  }

  /** Starts the idle timer for what is left of the budget, from now. */
  #armIdleTimer(): void {
    this.#waitingSince = Date.now();
    this.#idleTimer = setTimeout(this.#onIdle, Math.max(0, this.#idleBudget));
  }

  #stopIdleClock(): void {
    if (this.#idleTimeoutMs === Infinity) return;
    if (--this.#pendingReads > 0) return;
    clearTimeout(this.#idleTimer);
    this.#idleBudget -= Date.now() - this.#waitingSince;
  }

  readonly #onIdle = () => {
    this.#options.controller.abort(
      new APIConnectionTimeoutError(`The stream sent no event for ${this.#idleTimeoutMs} ms (streamIdleTimeout).`),
    );
  };
}
