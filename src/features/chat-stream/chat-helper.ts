import { ModelGateError } from "../../errors/index.ts";
import { CHAINED_CALLS, LATER_CALLS, type ShellCall } from "../../resources/chat/helper-shell.ts";
import type { Requester } from "../../resources/requester.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../../types/index.ts";
import { Conversation } from "./conversation.ts";
import { HelperEmitter } from "./emitter.ts";
import { listen } from "./listen.ts";

/** What the object a helper stands behind (resources/chat/helper-shell.ts) has of its own, synchronously. */
export interface Shell {
  readonly controller: AbortController;
  messages: ChatCompletionMessageParam[];
  allChatCompletions(): ChatCompletion[];
}

/** What a shell hands its helper: itself, and the calls made on it before the helper loaded. */
export type ShellHandle = [shell: Shell, queued: ShellCall[]];

/**
 * The part openai's stream helper and its runners share (its `AbstractChatCompletionRunner`):
 * events, the conversation, and the final values, each resolved once the helper has ended
 * (rejected with its error or abort).
 */
export class ChatHelper extends HelperEmitter {
  readonly conversation: Conversation;

  /**
   * `messages`: the list to keep (see `Conversation`); `client`: whose logger and redaction to
   * use (see `HelperEmitter`). Takes over the shell: the calls queued
   * on it are made here, in order (no event can have fired yet: the work starts a promise job
   * later, see `HelperEmitter.run`), and its methods become this helper's own, so that from
   * now on a call reaches the helper at once (a listener added in a listener hears the very
   * next event; a loop started now misses no chunk).
   */
  constructor([shell, queued]: ShellHandle, messages: ChatCompletionMessageParam[], client?: Requester) {
    super(shell.controller, client);
    this.conversation = new Conversation(this, messages);
    const methods = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    const own: PropertyDescriptorMap = {
      messages: { value: messages, writable: true, configurable: true },
      allChatCompletions: { value: () => [...this.conversation.completions], configurable: true },
    };
    for (const name of CHAINED_CALLS.split(" ")) {
      own[name] = { value: (...args: unknown[]) => (methods[name]!(...args), shell), configurable: true };
    }
    for (const name of LATER_CALLS.split(" ")) {
      // Names only the other helper has (a run's `result`, `catch`, `finally`) keep the shell's.
      if (typeof methods[name] === "function") own[name] = { value: (...args: unknown[]) => methods[name]!(...args), configurable: true };
    }
    Object.defineProperties(shell, own);
    for (const [name, args] of queued) methods[name]!(...args);
    queued.length = 0;
  }

  /**
   * The chunks for `toReadableStream()`: every one from the first, or, when chunks have gone by
   * already (the body was made after an `await`, or after the end), a failure the bridge writes
   * as its error frame, so the far side throws instead of taking the rest for the whole answer.
   * `refusal`: a reason there are no chunks to write at all. Nothing is kept for a bridge that might come later (openai's helper keeps nothing either; it
   * writes the rest as if it were all).
   */
  bridged(refusal?: string): AsyncIterable<ChatCompletionChunk> {
    refusal ??= this.chunksTold ? `toReadableStream() was called after ${this.chunksTold} chunk(s) had gone by, so its body would lack the start of the answer: call it before awaiting anything else.` : undefined;
    if (!refusal) return listen(this, "chunk", () => this.abort());
    const error = new ModelGateError(refusal);
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  }

  async finalChatCompletion(): Promise<ChatCompletion> {
    await this.done();
    return this.conversation.finalChatCompletion();
  }

  async finalMessage(): Promise<ChatCompletionMessage> {
    await this.done();
    return this.conversation.finalMessage();
  }

  async finalContent(): Promise<string | null> {
    await this.done();
    return this.conversation.finalContent();
  }

  async finalFunctionToolCall(): Promise<ChatCompletionMessageToolCall["function"] | undefined> {
    await this.done();
    return this.conversation.finalFunctionToolCall();
  }

  async finalFunctionToolCallResult(): Promise<string | undefined> {
    await this.done();
    return this.conversation.finalFunctionToolCallResult();
  }

  async totalUsage(): Promise<CompletionUsage> {
    await this.done();
    return this.conversation.totalUsage();
  }
}
