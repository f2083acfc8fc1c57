import { ModelGateError } from "../../errors/index.ts";
import { ChatCompletionAccumulator } from "../../streaming/accumulate.ts";
import { Stream } from "../../streaming/stream.ts";
import type { ChatCompletionChunk } from "../../types/index.ts";
import type { ParsedChatCompletion, StructuredStream as StructuredStreamShape } from "../../types/structured.ts";
import { AnswerText } from "./answer-text.ts";
import { PartialJSONParser } from "./partial-json.ts";
import { parseCompletion } from "./parse-completion.ts";
import type { RequestPlan } from "./plan.ts";

/** The `Stream` `parse({ stream: true })` resolves to, over the chunks of `source`. */
export function structuredStream(source: Stream<ChatCompletionChunk>, plan: RequestPlan): StructuredStreamShape<unknown> {
  return new StructuredStream(source, plan);
}

/**
 * A `Stream` of the chunks of `source`, plus `partialObjectStream` and a
 * `finalChatCompletion()` that validates. Every way of reading it goes through one `Recorder`,
 * so the partials and the final completion see what a loop over the chunks read.
 */
class StructuredStream extends Stream<ChatCompletionChunk> implements StructuredStreamShape<unknown> {
  readonly #recorder: Recorder;

  constructor(source: Stream<ChatCompletionChunk>, plan: RequestPlan) {
    // `stream.controller.abort()` stops the check at the end as the caller's signal does.
    const recorder = new Recorder(source, { ...plan, signals: [...plan.signals, source.controller.signal] });
    super(() => recorder.chunks(), source.controller, source.response, source.gateway);
    this.#recorder = recorder;
  }

  /** The answer parsed so far, each time it changes (see `StructuredStream` in types/structured.ts). */
  get partialObjectStream(): AsyncIterable<unknown> {
    return this.#recorder.partials();
  }

  /** The whole reply with `parsed` validated: the same promise on every call. */
  override finalChatCompletion(): Promise<ParsedChatCompletion<unknown>> {
    return this.#recorder.final();
  }
}

/**
 * How many promise jobs a partial reader gives the next chunk to arrive before it shows the
 * change it holds. A chunk already received is handed over within a few jobs (measured on Node
 * 20: 1 for the next event of the same network read, 3 for a read queued in the body, 6 when a
 * loop over the chunks reads them) and joins the same partial. A chunk the network has yet to
 * deliver cannot arrive before the event loop polls for I/O, which it does only once every job
 * has run: waiting these jobs never holds a change back while the SDK waits on the network.
 *
 * Why merge at all: a partial copies the open containers on the path to the change (so that
 * earlier partials never change), which for a wide object or a long array is its whole width.
 * One partial per chunk would make a burst of chunks quadratic; one per network read keeps it
 * linear, and while a partial is being copied, what arrives meanwhile joins the next one.
 */
const JOBS_FOR_A_RECEIVED_CHUNK = 32;

/**
 * Reads the source stream once for every way of consuming it, keeping what each needs: the
 * chunks for the accumulator, the answer's text for the incremental parser.
 *
 * Who pulls: a chunk iterator (`for await (const chunk of stream)`, `textStream`) owns the
 * chunks, and then `partialObjectStream` and `finalChatCompletion()` only watch what it reads,
 * so it misses none. Without one, whichever of them is waiting pulls, one read at a time, and
 * the others see the same state; a partial reader holding a change starts the next read before
 * it shows the change, to learn whether that read had already arrived.
 */
class Recorder {
  readonly #stream: Stream<ChatCompletionChunk>;
  readonly #plan: RequestPlan;
  readonly #accumulator = new ChatCompletionAccumulator();
  readonly #parser = new PartialJSONParser();
  readonly #answer: AnswerText | undefined;
  #source: AsyncIterator<ChatCompletionChunk> | undefined;
  /** Counts the changes of the partial answer; a reader shows a new partial when it moved. */
  #version = 0;
  #partial: { version: number; value: unknown } = { version: 0, value: undefined };
  /** Reads of the source that completed (a chunk, the end or a failure). */
  #reads = 0;
  /** Once the answer's text can no longer be JSON, the parser is left alone (the reply is still read to its end). */
  #malformed = false;
  #ended = false;
  /** The source was stopped before its end: a loop over it ended early. */
  #stopped = false;
  #failure: { error: unknown } | undefined;
  #reading: Promise<IteratorResult<ChatCompletionChunk>> | undefined;
  #owned = false;
  #started = false;
  /** Partial readers that have not finished. */
  #partialReaders = 0;
  #waiting: (() => void)[] = [];
  #final: Promise<ParsedChatCompletion<unknown>> | undefined;

  constructor(stream: Stream<ChatCompletionChunk>, plan: RequestPlan) {
    this.#stream = stream;
    this.#plan = plan;
    this.#answer = plan.answer && new AnswerText(plan.answer);
  }

  /** The iterator behind `for await (const chunk of stream)`. */
  chunks(): AsyncIterator<ChatCompletionChunk> {
    if (this.#started) {
      throw new ModelGateError(
        "This stream has already been consumed by partialObjectStream or finalChatCompletion(); read the chunks first (or only), then call finalChatCompletion().",
      );
    }
    this.#owned = true;
    return {
      next: () => this.#pull(),
      return: async () => {
        this.#owned = false;
        await this.#stop();
        return { done: true, value: undefined };
      },
    };
  }

  /** `partialObjectStream`: the parsed-so-far answer as it grows, then the verdict. */
  partials(): AsyncIterable<unknown> {
    return {
      [Symbol.asyncIterator]: () => {
        let shown = 0;
        let finished = false;
        this.#partialReaders++;
        const finish = () => {
          if (!finished) this.#partialReaders--;
          finished = true;
        };
        const step = async (): Promise<IteratorResult<unknown>> => {
          try {
            while (!finished) {
              if (this.#version !== shown && !this.#malformed) {
                // Chunks that already arrived join this partial; the next one the network owes does not.
                if (!this.#ended && (await this.#readsOnAtOnce())) continue;
                shown = this.#version;
                const value = this.#current();
                if (value !== undefined) return { value, done: false };
              } else if (this.#ended || this.#malformed) {
                finish();
                // The same verdict as finalChatCompletion(), which reads the reply to its end.
                await this.final();
              } else {
                await this.#advance();
              }
            }
          } catch (error) {
            finish();
            throw error;
          }
          return { value: undefined, done: true };
        };
        // Calls of next() made at once run one after another, as an async generator's do: each
        // sees what the one before it showed, so a partial is handed out once, not to each of them.
        let previous: Promise<unknown> = Promise.resolve();
        return {
          next: (): Promise<IteratorResult<unknown>> => {
            const result = previous.then(step);
            previous = result.catch(() => {});
            return result;
          },
          return: async () => {
            finish();
            // Like breaking out of the chunks: when nobody else wants the rest, it is not downloaded.
            if (!this.#owned && !this.#final && this.#partialReaders === 0) await this.#stop();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }

  /** `finalChatCompletion()`: the whole reply, validated. The same promise on every call. */
  final(): Promise<ParsedChatCompletion<unknown>> {
    return (this.#final ??= this.#finish());
  }

  async #finish(): Promise<ParsedChatCompletion<unknown>> {
    while (!this.#ended) await this.#advance();
    if (this.#failure) throw this.#failure.error;
    if (this.#stopped) {
      throw new ModelGateError(
        "The stream was stopped before its end (a loop over it ended early), so there is no whole reply to parse: call finalChatCompletion() before breaking out, or read to the end.",
      );
    }
    const completion = this.#accumulator.result();
    // What the gateway did, as on parse()'s non-streamed completion (not enumerable there either).
    if (this.#stream.gateway) Object.defineProperty(completion, "gateway", { value: this.#stream.gateway, configurable: true });
    return parseCompletion(completion, this.#plan);
  }

  /**
   * Whether another chunk is read within a few promise jobs, that is, whether it had already
   * arrived. The read it starts (when nobody owns the chunks) goes on if not: the next partial
   * waits on it.
   */
  async #readsOnAtOnce(): Promise<boolean> {
    const reads = this.#reads;
    // A failed read is recorded (#failure) and ends the stream: the loop shows the last state, then throws it.
    if (!this.#owned) this.#pull().catch(() => {});
    for (let job = 0; job < JOBS_FOR_A_RECEIVED_CHUNK && this.#reads === reads; job++) await null;
    return this.#reads !== reads;
  }

  /** Waits for the next change: reads one chunk, or lets the owner of the chunks read it. */
  async #advance(): Promise<void> {
    // Before the first read, one turn first: a `for await` over the chunks started right after
    // finalChatCompletion() or partialObjectStream (in the same tick) then gets the chunks
    // instead of finding them taken.
    if (!this.#started) await null;
    if (this.#owned) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
      return;
    }
    try {
      await this.#pull();
    } catch (error) {
      // A read that failed ended the stream: the caller shows the last state first, then
      // finalChatCompletion() throws this same error.
      if (this.#failure === undefined) throw error;
    }
  }

  #pull(): Promise<IteratorResult<ChatCompletionChunk>> {
    this.#started = true;
    return (this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    }));
  }

  async #read(): Promise<IteratorResult<ChatCompletionChunk>> {
    if (this.#ended) return { done: true, value: undefined };
    this.#source ??= this.#stream[Symbol.asyncIterator]();
    let result: IteratorResult<ChatCompletionChunk>;
    try {
      result = await this.#source.next();
    } catch (error) {
      this.#reads++;
      if (!this.#ended) {
        this.#failure = { error };
        this.#end();
      }
      this.#notify();
      throw error;
    }
    this.#reads++;
    // Stopped while this read was pending (a loop broke out): what it brought is not wanted.
    if (this.#ended) return { done: true, value: undefined };
    if (result.done) this.#end();
    else this.#take(result.value);
    this.#notify();
    return result;
  }

  #take(chunk: ChatCompletionChunk): void {
    this.#accumulator.add(chunk);
    const text = this.#answer?.of(chunk);
    if (!text || this.#malformed) return;
    try {
      if (this.#parser.push(text)) this.#version++;
    } catch {
      // The answer cannot be JSON any more. The rest is still read: a refusal may follow, and
      // finalChatCompletion() reports the error with the whole reply.
      this.#malformed = true;
    }
  }

  #end(): void {
    this.#ended = true;
    if (this.#malformed || !this.#answer?.started || this.#failure) return;
    // A number or literal at the very end of the answer is complete only now.
    try {
      const before = this.#partial.version === this.#version ? this.#partial.value : this.#parser.snapshot();
      const value = this.#parser.end();
      if (sameJSON(before, value)) return; // nothing new to show: partials are yielded on change only
      this.#version++;
      this.#partial = { version: this.#version, value };
    } catch {
      this.#malformed = true;
    }
  }

  /** Stops reading the source before its end (cancelling its body) and wakes everyone who waits. */
  async #stop(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopped = true;
    this.#notify();
    // Made if nothing was read yet: its return() is what cancels the body.
    await (this.#source ??= this.#stream[Symbol.asyncIterator]()).return?.();
  }

  #notify(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /** The partial answer at the current version, unwrapped from `{ value }` in `"tool"` mode. */
  #current(): unknown {
    if (this.#partial.version !== this.#version) this.#partial = { version: this.#version, value: this.#parser.snapshot() };
    const value = this.#partial.value;
    if (!this.#answer?.wrapped) return value;
    return typeof value === "object" && value !== null ? (value as { value?: unknown }).value : undefined;
  }
}

/** Whether two parsed JSON values are equal (one walk, at the end of a stream). */
function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJSON((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
