import { ModelGateError } from "../../errors/index.ts";
import type { EventStream } from "../../resources/chat/event-stream.ts";
import type { ChatCompletionSnapshot } from "../../types/helper-events.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../../types/index.ts";
import { Conversation } from "./conversation.ts";
import type { DeltaEvents } from "./delta-events.ts";
import { listen, type Taps } from "./listen.ts";

/**
 * The part openai's stream helper and its runners share (its `AbstractChatCompletionRunner`),
 * behind the object a call returned (resources/chat/abstract-runner.ts): the conversation and
 * the final values, each resolved once the helper has ended (rejected with its error or abort).
 * The events are the object's own (`events`): this code emits into them.
 */
export abstract class ChatHelper {
  readonly events: EventStream;
  readonly conversation: Conversation;
  /** The events of the completion being streamed (its snapshot so far); `undefined` between streamed completions. */
  streaming: DeltaEvents | undefined;

  /** `messages`: the object's own list, which the conversation fills (see `Conversation`). */
  constructor(events: EventStream, messages: ChatCompletionMessageParam[]) {
    this.events = events;
    this.conversation = new Conversation(events, messages);
  }

  /** Begins the work (a promise job later, see `EventStream.run`); its events follow, then `end`. */
  abstract start(): void;

  get currentChatCompletionSnapshot(): ChatCompletionSnapshot | undefined {
    return this.streaming?.snapshot;
  }

  allChatCompletions(): ChatCompletion[] {
    return [...this.conversation.completions];
  }

  /**
   * The chunks for `toReadableStream()`: every one from the first, or, when chunks have gone by
   * already (the body was made after an `await`, or after the end), a failure the bridge writes
   * as its error frame, so the far side throws instead of taking the rest for the whole answer.
   * `refusal`: a reason there are no chunks to write at all; `taps`: what the body carries (a
   * tool run's adds its tool messages). Nothing is kept for a bridge that might come later (openai's helper keeps nothing either; it
   * writes the rest as if it were all).
   */
  bridged(refusal?: string, taps: Taps<ChatCompletionChunk> = { chunk: (chunk: ChatCompletionChunk) => chunk }): AsyncIterable<ChatCompletionChunk> {
    const { chunksTold } = this.events;
    refusal ??= chunksTold ? `toReadableStream() was called after ${chunksTold} chunk(s) had gone by, so its body would lack the start of the answer: call it before awaiting anything else.` : undefined;
    if (!refusal) return listen(this.events, taps, () => this.events.controller.abort());
    const error = new ModelGateError(refusal);
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  }

  async finalChatCompletion(): Promise<ChatCompletion> {
    await this.events.done();
    return this.conversation.finalChatCompletion();
  }

  async finalMessage(): Promise<ChatCompletionMessage> {
    await this.events.done();
    return this.conversation.finalMessage();
  }

  async finalContent(): Promise<string | null> {
    await this.events.done();
    return this.conversation.finalContent();
  }

  async finalFunctionToolCall(): Promise<ChatCompletionMessageToolCall["function"] | undefined> {
    await this.events.done();
    return this.conversation.finalFunctionToolCall();
  }

  async finalFunctionToolCallResult(): Promise<string | undefined> {
    await this.events.done();
    return this.conversation.finalFunctionToolCallResult();
  }

  async totalUsage(): Promise<CompletionUsage> {
    await this.events.done();
    return this.conversation.totalUsage();
  }
}
