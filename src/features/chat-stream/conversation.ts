import { ModelGateError } from "../../errors/index.ts";
import { isRecord } from "../../internal/values.ts";
import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../../types/index.ts";
import type { EventStream } from "../../resources/chat/event-stream.ts";

/**
 * The conversation a helper object keeps, as openai's runners keep it: the messages (the
 * request's, then each reply and tool result), the completions, and the final values read
 * from them. Adding a completion or a message emits the events openai emits for it.
 */
export class Conversation {
  /** The conversation so far; `runner.messages` is this very list. */
  readonly messages: ChatCompletionMessageParam[];
  readonly completions: ChatCompletion[] = [];
  readonly #events: EventStream;

  /** `messages`: the list to keep, as it is (the caller copies a request's messages first, where it must). */
  constructor(events: EventStream, messages: ChatCompletionMessageParam[]) {
    this.#events = events;
    this.messages = messages;
  }

  /**
   * A completion arrived: `chatCompletion`, then its reply joins the conversation: its first
   * choice's message, or the turn given for it (a runner's, made fit to send back).
   */
  addCompletion(completion: ChatCompletion, reply: ChatCompletionMessageParam | undefined = completion.choices?.[0]?.message): void {
    this.completions.push(completion);
    this.#events.emit("chatCompletion", completion);
    if (reply) this.addMessage(reply);
  }

  /**
   * A message joins the conversation: `message`, then `functionToolCall` for each call of an
   * assistant message, or `functionToolCallResult` for a tool's result. `push: false` for a
   * message already in the list (a runner adds its own).
   */
  addMessage(message: ChatCompletionMessageParam, push = true): void {
    if (push) this.messages.push(message);
    const events = this.#events;
    events.emit("message", message);
    if (message.role === "tool") {
      if (message.content) events.emit("functionToolCallResult", message.content);
    } else if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) if (call?.type === "function") events.emit("functionToolCall", call.function);
    }
  }

  /** The last completion. @throws ModelGateError when there is none. */
  finalChatCompletion(): ChatCompletion {
    const completion = this.completions.at(-1);
    if (!completion) throw new ModelGateError("The helper ended without a chat completion.");
    return completion;
  }

  /** The last assistant message, with `content` and `refusal` as `null` when absent. @throws ModelGateError when there is none. */
  finalMessage(): ChatCompletionMessage {
    const message = this.#last((candidate) => candidate.role === "assistant");
    if (message?.role !== "assistant") throw new ModelGateError("The helper ended without an assistant message.");
    return { ...message, content: message.content ?? null, refusal: message.refusal ?? null } as ChatCompletionMessage;
  }

  finalContent(): string | null {
    const { content } = this.finalMessage();
    return typeof content === "string" ? content : null;
  }

  /** The function of the last call in the conversation. */
  finalFunctionToolCall(): ChatCompletionMessageToolCall["function"] | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i]!;
      if (message.role !== "assistant" || !Array.isArray(message.tool_calls)) continue;
      for (let j = message.tool_calls.length - 1; j >= 0; j--) {
        const call = message.tool_calls[j];
        if (call?.type === "function") return call.function;
      }
    }
    return undefined;
  }

  /** The last tool result in the conversation that answers a call made in it. */
  finalFunctionToolCallResult(): string | undefined {
    const callIDs = new Set<string>();
    for (const message of this.messages) {
      if (message.role === "assistant" && Array.isArray(message.tool_calls)) for (const call of message.tool_calls) if (isRecord(call)) callIDs.add(call.id);
    }
    const result = this.#last((message) => message.role === "tool" && typeof message.content === "string" && callIDs.has(message.tool_call_id));
    return result?.content as string | undefined;
  }

  /** Token counts summed over the completions. */
  totalUsage(): CompletionUsage {
    const total: CompletionUsage = { completion_tokens: 0, prompt_tokens: 0, total_tokens: 0 };
    for (const { usage } of this.completions) {
      if (!usage) continue;
      total.completion_tokens += usage.completion_tokens ?? 0;
      total.prompt_tokens += usage.prompt_tokens ?? 0;
      total.total_tokens += usage.total_tokens ?? 0;
    }
    return total;
  }

  #last(matches: (message: ChatCompletionMessageParam) => boolean): ChatCompletionMessageParam | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) if (matches(this.messages[i]!)) return this.messages[i];
    return undefined;
  }

  /**
   * The final events, in openai's order: `finalChatCompletion`, `finalMessage`,
   * `finalContent` (when not empty), `finalFunctionToolCall`, `finalFunctionToolCallResult`,
   * and `totalUsage` when any completion reported usage.
   */
  emitFinal(): void {
    const events = this.#events;
    const completion = this.completions.at(-1);
    if (completion) events.emit("finalChatCompletion", completion);
    const hasMessage = this.messages.some((message) => message.role === "assistant");
    if (hasMessage) {
      events.emit("finalMessage", this.finalMessage());
      const content = this.finalContent();
      if (content) events.emit("finalContent", content);
    }
    const call = this.finalFunctionToolCall();
    if (call) events.emit("finalFunctionToolCall", call);
    const result = this.finalFunctionToolCallResult();
    if (result != null) events.emit("finalFunctionToolCallResult", result);
    if (this.completions.some((candidate) => candidate.usage)) events.emit("totalUsage", this.totalUsage());
  }
}
