import { ChatCompletionAccumulator, isRecord, ModelGateError, Stream } from "../core.ts";
import type { ChatCompletionChunk } from "../types/index.ts";
import type { ParsedChatCompletion, StructuredStream } from "../types/structured.ts";
import { PartialJSONParser } from "./partial-json.ts";
import { parseCompletion } from "./parse-completion.ts";
import type { AnswerPlan, RequestPlan } from "./plan.ts";

/**
 * The `Stream` `parse({ stream: true })` resolves to: the chunks of `source`, plus
 * `partialObjectStream` and a `finalChatCompletion()` that validates.
 */
export function structuredStream(source: Stream<ChatCompletionChunk>, plan: RequestPlan): StructuredStream<unknown> {
  const recorder = new Recorder(source, plan);
  const stream = new Stream(() => recorder.chunks(), source.controller, source.response, source.gateway) as StructuredStream<unknown>;
  Object.defineProperty(stream, "partialObjectStream", { get: () => recorder.partials() });
  Object.defineProperty(stream, "finalChatCompletion", { value: () => recorder.final() });
  return stream;
}

/**
 * Below this many characters of answer, every change is shown; past it, a partial is shown once
 * the answer has grown by a thirty-second since the last one. A partial copies the containers
 * still open (so that old partials never change), which for a wide object or array is the
 * cost of its whole width: showing one per chunk would make a long answer quadratic.
 */
const EVERY_CHANGE_BELOW = 16_384;
const GROWTH_BETWEEN_PARTIALS = 1 / 32;

/**
 * Reads the source stream once for every way of consuming it, keeping what each needs: the
 * chunks for the accumulator, the answer's text for the incremental parser.
 *
 * Who pulls: a chunk iterator (`for await (const chunk of stream)`, `textStream`) owns the
 * chunks, and then `partialObjectStream` and `finalChatCompletion()` only watch what it reads,
 * so it misses none. Without one, whichever of them is waiting pulls, one read at a time, and
 * the others see the same state.
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
  /** Characters of answer text parsed so far. */
  #parsedLength = 0;
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
        let shownAtLength = 0;
        let finished = false;
        this.#partialReaders++;
        const finish = () => {
          if (!finished) this.#partialReaders--;
          finished = true;
        };
        return {
          next: async (): Promise<IteratorResult<unknown>> => {
            try {
              while (!finished) {
                const over = this.#ended || this.#malformed;
                if (this.#version !== shown && !this.#malformed && (over || this.#worthShowing(shownAtLength))) {
                  shown = this.#version;
                  shownAtLength = this.#parsedLength;
                  const value = this.#current();
                  if (value !== undefined) return { value, done: false };
                } else if (over) {
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

  /** Whether the answer has grown enough since the partial shown at `shownAtLength` to show another. */
  #worthShowing(shownAtLength: number): boolean {
    return this.#parsedLength < EVERY_CHANGE_BELOW || this.#parsedLength - shownAtLength >= this.#parsedLength * GROWTH_BETWEEN_PARTIALS;
  }

  /** Waits for the next change: reads one chunk, or lets the owner of the chunks read it. */
  async #advance(): Promise<void> {
    // Before the first read, one turn first: a `for await` over the chunks started right after
    // finalChatCompletion() or partialObjectStream (in the same tick) then gets the chunks
    // instead of finding them taken.
    if (!this.#started) await null;
    if (this.#owned) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else await this.#pull();
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
      this.#failure = { error };
      this.#end();
      this.#notify();
      throw error;
    }
    if (result.done) this.#end();
    else this.#take(result.value);
    this.#notify();
    return result;
  }

  #take(chunk: ChatCompletionChunk): void {
    this.#accumulator.add(chunk);
    const text = this.#answer?.of(chunk);
    if (!text || this.#malformed) return;
    this.#parsedLength += text.length;
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

/** The answer's text in a chunk: choice 0's content, or its answer-function call's arguments. */
class AnswerText {
  readonly #toolName: string | undefined;
  readonly wrapped: boolean;
  #callIndex: number | undefined;
  started = false;

  constructor(answer: AnswerPlan) {
    this.#toolName = answer.toolName;
    this.wrapped = answer.wrapped;
  }

  of(chunk: ChatCompletionChunk): string {
    const choice = Array.isArray(chunk?.choices) ? chunk.choices.find((candidate) => (candidate?.index ?? 0) === 0) : undefined;
    const delta = choice?.delta;
    if (!isRecord(delta)) return "";
    let text = "";
    if (this.#toolName === undefined) {
      if (typeof delta.content === "string") text = delta.content;
    } else if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        if (this.#callIndex === undefined && call?.function?.name === this.#toolName) this.#callIndex = call.index;
        if (call?.index === this.#callIndex && typeof call.function?.arguments === "string") text += call.function.arguments;
      }
    }
    if (text) this.started = true;
    return text;
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
