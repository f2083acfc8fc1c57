import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../types/index.ts";
import { Conversation } from "./conversation.ts";
import { HelperEmitter } from "./emitter.ts";

/** What the object a helper stands behind (resources/chat/helper-shell.ts) has of its own, synchronously. */
export interface Shell {
  readonly controller: AbortController;
  messages: ChatCompletionMessageParam[];
  allChatCompletions(): ChatCompletion[];
}

/**
 * The part openai's stream helper and its runners share (its `AbstractChatCompletionRunner`):
 * events, the conversation, and the final values, each resolved once the helper has ended
 * (rejected with its error or abort).
 */
export class ChatHelper extends HelperEmitter {
  readonly conversation: Conversation;

  /** `messages`: the list to keep (see `Conversation`). The shell's own members answer from here on. */
  constructor(shell: Shell, messages: ChatCompletionMessageParam[]) {
    super(shell.controller);
    this.conversation = new Conversation(this, messages);
    shell.messages = messages;
    shell.allChatCompletions = () => [...this.conversation.completions];
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
