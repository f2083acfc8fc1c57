import { CHAINED_CALLS, LATER_CALLS, type ShellCall } from "../core.ts";
import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../types/index.ts";
import { Conversation } from "./conversation.ts";
import { HelperEmitter } from "./emitter.ts";

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
   * `messages`: the list to keep (see `Conversation`). Takes over the shell: the calls queued
   * on it are made here, in order (no event can have fired yet: the work starts a promise job
   * later, see `HelperEmitter.run`), and its methods become this helper's own, so that from
   * now on a call reaches the helper at once (a listener added in a listener hears the very
   * next event; a loop started now misses no chunk).
   */
  constructor([shell, queued]: ShellHandle, messages: ChatCompletionMessageParam[]) {
    super(shell.controller);
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
