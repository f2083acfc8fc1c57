import { ChatCompletionAccumulator } from "../../streaming/lazy/accumulate.ts";
import { sdk } from "../../streaming/lazy/shared.ts";
import type { Stream } from "../../streaming/stream.ts";
import type { ChatCompletionChunk } from "../../types/index.ts";
import type { ParsedChatCompletion, StructuredStream } from "../../types/structured.ts";
import { PartialJSONParser } from "../partial-json.ts";
import { parseCompletion } from "./parse-completion.ts";
import type { AnswerPlan, RequestPlan } from "./plan.ts";
import { pieces } from "./pieces.ts";

/**
 * The `Stream` `parse({ stream: true })` resolves to: the chunks of `source`, plus
 * `partialObjectStream` and a `finalChatCompletion()` that validates.
 */
export function structuredStream(source: Stream<ChatCompletionChunk>, plan: RequestPlan): StructuredStream<unknown> {
  const recorder = new Recorder(source, plan);
  const stream = new pieces.Stream(() => recorder.chunks(), source.controller, source.response, source.gateway) as StructuredStream<unknown>;
  Object.defineProperty(stream, "partialObjectStream", { get: () => recorder.partials() });
  Object.defineProperty(stream, "finalChatCompletion", { value: () => recorder.final() });
  return stream;
}

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
  /** Once the answer's text can no longer be JSON, the parser is left alone. */
  #malformed = false;
  #ended = false;
  #failure: { error: unknown } | undefined;
  #reading: Promise<IteratorResult<ChatCompletionChunk>> | undefined;
  #owned = false;
  #started = false;
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
      throw new sdk.ModelGateError(
        "This stream has already been consumed by partialObjectStream or finalChatCompletion(); read the chunks first (or only), then call finalChatCompletion().",
      );
    }
    this.#owned = true;
    return {
      next: () => this.#pull(),
      return: async () => {
        this.#owned = false;
        await this.#cancel();
        return { done: true, value: undefined };
      },
    };
  }

  /** `partialObjectStream`: the parsed-so-far answer, each time it changes, then the verdict. */
  partials(): AsyncIterable<unknown> {
    return {
      [Symbol.asyncIterator]: () => {
        let shown = 0;
        let finished = false;
        return {
          next: async (): Promise<IteratorResult<unknown>> => {
            while (!finished) {
              if (this.#version !== shown) {
                shown = this.#version;
                const value = this.#current();
                if (value !== undefined) return { value, done: false };
              } else if (this.#ended || this.#malformed) {
                finished = true;
                await this.final(); // the same error finalChatCompletion() gives, if any
              } else {
                await this.#advance();
              }
            }
            return { value: undefined, done: true };
          },
          return: async () => {
            finished = true;
            // Like breaking out of the chunks: nobody wants the rest, so it is not downloaded.
            if (!this.#owned) await this.#cancel();
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
    return parseCompletion(this.#accumulator.result(), this.#plan);
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
    try {
      if (this.#parser.push(text)) this.#version++;
    } catch {
      // The answer cannot be JSON any more: the rest is not worth paying for, unless somebody
      // reads the chunks themselves. finalChatCompletion() reports the error with its position.
      this.#malformed = true;
      if (!this.#owned) void this.#cancel();
    }
  }

  #end(): void {
    this.#ended = true;
    if (this.#malformed || !this.#answer?.started) return;
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

  /** Stops reading the source (cancelling its body) and wakes everyone who waits. */
  async #cancel(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#notify();
    await this.#source?.return?.();
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
    if (!sdk.isRecord(delta)) return "";
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
