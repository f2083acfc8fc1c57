// The events of openai's helper objects, as `chat.completions.stream()` and `runTools()` emit
// them here: the same names, the same listener arguments.
import type { APIUserAbortError } from "../errors/connection-errors.ts";
import type { ModelGateError } from "../errors/modelgate-error.ts";
import type {
  ChatCompletion,
  ChatCompletionAudio,
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  ChatCompletionTokenLogprob,
  CompletionUsage,
  FinishReason,
} from "./chat-completion.ts";
import type { ChatCompletionMessageParam, ChatCompletionRole } from "./chat-params.ts";
import type { DeepPartial, ParsedChatCompletion, ParsedChatCompletionMessage, ParsedFunctionToolCall } from "./structured.ts";

/** The reply assembled so far, as the `chunk` event gives it beside each chunk (one object, updated in place). */
export interface ChatCompletionSnapshot {
  id: string;
  /** By choice `index`. */
  choices: ChatCompletionSnapshotChoice[];
  created: number;
  model: string;
  system_fingerprint?: string | null;
  usage?: CompletionUsage | null;
}

/** One choice of a `ChatCompletionSnapshot`. */
export interface ChatCompletionSnapshotChoice {
  index: number;
  message: {
    role?: ChatCompletionRole;
    /** The text so far. */
    content?: string | null;
    refusal?: string | null;
    /** The answer parsed so far (deep-partial), when a schema was given. */
    parsed?: unknown;
    /** The calls so far, by their `index`. */
    tool_calls?: {
      id: string;
      type: "function";
      function: { name: string; arguments: string; parsed_arguments?: unknown };
    }[];
    audio?: Partial<ChatCompletionAudio> | null;
  };
  finish_reason: FinishReason | null;
  logprobs: { content: ChatCompletionTokenLogprob[] | null; refusal: ChatCompletionTokenLogprob[] | null } | null;
}

/** `content.delta`: the new text, the text so far, and the answer parsed so far. */
export interface ContentDeltaEvent<PartialT = unknown> {
  delta: string;
  snapshot: string;
  /**
   * With a schema `response_format`, the answer parsed so far (deep-partial; `null` before any
   * of it); `undefined` without one.
   */
  parsed: PartialT | null | undefined;
}

/** `content.done`: a choice's whole text, and its answer checked by the schema (`null` without one). */
export interface ContentDoneEvent<ParsedT = null> {
  content: string;
  parsed: ParsedT | null;
}

/** `refusal.delta`: the new text of a refusal, and the refusal so far. */
export interface RefusalDeltaEvent {
  delta: string;
  snapshot: string;
}

/** `refusal.done`: the whole refusal. */
export interface RefusalDoneEvent {
  refusal: string;
}

/** `tool_calls.function.arguments.delta`: a call's new argument text, and its arguments so far. */
export interface FunctionToolCallArgumentsDeltaEvent {
  name: string;
  /** The call's `index` in the message. */
  index: number;
  /** The arguments so far. */
  arguments: string;
  /** For the calls `parse()` gives `parsed_arguments`, the arguments parsed so far (deep-partial). */
  parsed_arguments: unknown;
  arguments_delta: string;
}

/** `tool_calls.function.arguments.done`: a call's whole arguments. */
export interface FunctionToolCallArgumentsDoneEvent {
  name: string;
  index: number;
  arguments: string;
  /** As `parse()` gives them (a `tool()` tool's arguments checked by its schema); `null` for other tools. */
  parsed_arguments: unknown;
}

/** `logprobs.content.delta`: the new tokens' log probabilities, and all of them so far. */
export interface LogProbsContentDeltaEvent {
  content: ChatCompletionTokenLogprob[];
  snapshot: ChatCompletionTokenLogprob[];
}

/** `logprobs.content.done`: every token's log probability. */
export interface LogProbsContentDoneEvent {
  content: ChatCompletionTokenLogprob[];
}

/** `logprobs.refusal.delta`: the refusal's new tokens' log probabilities, and all of them so far. */
export interface LogProbsRefusalDeltaEvent {
  refusal: ChatCompletionTokenLogprob[];
  snapshot: ChatCompletionTokenLogprob[];
}

/** `logprobs.refusal.done`: every refusal token's log probability. */
export interface LogProbsRefusalDoneEvent {
  refusal: ChatCompletionTokenLogprob[];
}

/** The function of a tool call, as the `functionToolCall` events give it. */
export type FunctionToolCall = ChatCompletionMessageToolCall["function"];

/**
 * The events every helper object emits (openai's runner events), with what each listener gets.
 * `error` and `abort` are followed by `end`; nothing is emitted after `end`.
 */
export interface ChatCompletionRunnerEvents<Completion = ChatCompletion, Message = ChatCompletionMessage> {
  /** The response headers of a request arrived. */
  connect: () => void;
  /** A message was added to the conversation (`messages`): the reply, or a tool's result. */
  message: (message: ChatCompletionMessageParam) => void;
  /** A completion arrived whole. */
  chatCompletion: (completion: Completion) => void;
  /** A reply called a function (one event per call, after `message`). */
  functionToolCall: (functionCall: FunctionToolCall) => void;
  /** A function's result was added to the conversation. */
  functionToolCallResult: (content: string) => void;
  /** The text of the last reply, at the end (not emitted when it is empty). */
  finalContent: (content: string) => void;
  /** The last reply, at the end. */
  finalMessage: (message: Message) => void;
  /** The last completion, at the end. */
  finalChatCompletion: (completion: Completion) => void;
  /** The last function call of the conversation, at the end. */
  finalFunctionToolCall: (functionCall: FunctionToolCall) => void;
  /** The last function result of the conversation, at the end. */
  finalFunctionToolCallResult: (content: string) => void;
  /** The token counts summed over the completions, at the end (when any were reported). */
  totalUsage: (usage: CompletionUsage) => void;
  /** The helper failed: an API or connection error, a cut stream, a listener that threw. `end` follows. */
  error: (error: ModelGateError) => void;
  /** `abort()` or the caller's signal stopped the helper. `end` follows. */
  abort: (error: APIUserAbortError) => void;
  /** The helper is over, whatever the outcome: the last event. */
  end: () => void;
}

/** The events of a streamed reply, chunk by chunk (`chat.completions.stream()`, and `runTools()` with `stream: true`). */
export interface ChatCompletionDeltaEvents<ParsedT = null, PartialT = unknown> {
  /** Each chunk as it arrives, with the reply assembled so far. */
  chunk: (chunk: ChatCompletionChunk, snapshot: ChatCompletionSnapshot) => void;
  /** New text of a choice, and its text so far (non-streamed runner steps: the whole text, twice). */
  content: (contentDelta: string, contentSnapshot: string) => void;
  /** New text of a choice, with its text so far and, given a schema, the object parsed so far. */
  "content.delta": (event: ContentDeltaEvent<PartialT>) => void;
  /** A choice's text is complete (not emitted for a reply the token limit cut when a schema was given). */
  "content.done": (event: ContentDoneEvent<ParsedT>) => void;
  /** New refusal text of a choice, and its refusal so far. */
  "refusal.delta": (event: RefusalDeltaEvent) => void;
  /** A choice's refusal is complete. */
  "refusal.done": (event: RefusalDoneEvent) => void;
  /** New argument text of a tool call, and its arguments so far. */
  "tool_calls.function.arguments.delta": (event: FunctionToolCallArgumentsDeltaEvent) => void;
  /** A tool call's arguments are complete (parsed, for a `tool()` or strict tool). */
  "tool_calls.function.arguments.done": (event: FunctionToolCallArgumentsDoneEvent) => void;
  /** New tokens' log probabilities of a choice's content. */
  "logprobs.content.delta": (event: LogProbsContentDeltaEvent) => void;
  /** Every content token's log probability, once the content is complete. */
  "logprobs.content.done": (event: LogProbsContentDoneEvent) => void;
  /** New tokens' log probabilities of a choice's refusal. */
  "logprobs.refusal.delta": (event: LogProbsRefusalDeltaEvent) => void;
  /** Every refusal token's log probability, once the refusal is complete. */
  "logprobs.refusal.done": (event: LogProbsRefusalDoneEvent) => void;
}

/** Every event of `chat.completions.stream()`'s `ChatCompletionStream`. */
export interface ChatCompletionStreamEvents<ParsedT = null, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall, PartialT = DeepPartial<ParsedT>>
  extends ChatCompletionRunnerEvents<ParsedChatCompletion<ParsedT, Call>, ParsedChatCompletionMessage<ParsedT, Call>>,
    ChatCompletionDeltaEvents<ParsedT, PartialT> {}

/** Every event of `runTools()`'s result (the chunk-by-chunk ones only with `stream: true`). */
export interface ToolRunnerEvents extends ChatCompletionRunnerEvents, ChatCompletionDeltaEvents {}

/** The arguments a listener of `Event` gets. */
export type EventParameters<Events, Event extends keyof Events> = Events[Event] extends (...args: infer Args) => unknown ? Args : never;

/** What `emitted(event)` resolves to: the event's first argument (`undefined` for an event without one). */
export type EmittedValue<Events, Event extends keyof Events> = EventParameters<Events, Event> extends [infer First, ...unknown[]] ? First : void;

/** The event emitter of openai's helper objects: `on`, `off` and `once` return the object, so calls chain. */
export interface HelperEventEmitter<Events> {
  /**
   * Calls `listener` on every `event` from now on (as often as it was added).
   *
   * A `listener` that is not a function is an argument mistake: the helper fails with a
   * `ModelGateError` naming the event (the `error` event, then `end`; `done()` and the final
   * values reject with it), before its request is sent when added before it starts, else at
   * its next event. `once()` does the same.
   *
   * A listener that throws never throws out of the helper, nor crashes the process: thrown
   * while the helper works (any event before its outcome: `content`, `message`,
   * `functionToolCall`, …), it stops the helper with that `error` (the thrown value as
   * `cause`). Thrown by a listener of `end` after a success, `done()`, the final values and an
   * awaited `runTools()` reject with a `ModelGateError` saying so (the thrown value as `cause`).
   * Thrown by a listener of `error` or `abort`, or of `end` after a failure, the helper keeps
   * its first failure (what `done()` rejects with) and the throw is written to the client's
   * `logger` with `logger.error` (to the console for `ChatCompletionStream.fromReadableStream()`,
   * which has no client); every other listener of that event is still called.
   */
  on<Event extends keyof Events>(event: Event, listener: Events[Event]): this;
  /** Removes one registration of `listener` for `event`. */
  off<Event extends keyof Events>(event: Event, listener: Events[Event]): this;
  /** Calls `listener` on the next `event` only. */
  once<Event extends keyof Events>(event: Event, listener: Events[Event]): this;
  /**
   * Resolves with the next `event`'s first argument; rejects if the helper fails or is aborted
   * first (`emitted("error")` resolves with the error instead).
   */
  emitted<Event extends keyof Events>(event: Event): Promise<EmittedValue<Events, Event>>;
  /**
   * Every `event` from now on, as an async iterator of its arguments (openai's `events()`:
   * `for await (const [message] of runner.events("message"))`). Values wait in a queue until
   * read; it ends at `end` and, after the values it holds, rejects with the helper's error or
   * abort (asking for `"error"` or `"abort"` yields them instead). Made after the end, it ends at
   * once; leaving the loop early stops listening.
   */
  events<Event extends keyof Events>(event: Event): AsyncIterableIterator<EventParameters<Events, Event>>;
  /** Resolves when the helper has ended; rejects with its error (or abort). */
  done(): Promise<void>;
  /** Stops the helper: cancels the request in flight (`abort` then `end` follow). */
  abort(): void;
  /** Aborting it is `abort()`. */
  readonly controller: AbortController;
  /** Whether the helper has ended: `end` was emitted (already `true` in the listeners of `end`). */
  readonly ended: boolean;
  /**
   * Whether the helper failed: `error` or `abort` was emitted (already `true` in their
   * listeners). As in openai, an abort sets it too.
   */
  readonly errored: boolean;
  /** Whether `abort()`, `controller.abort()` or the caller's `signal` stopped the helper: `abort` was emitted. */
  readonly aborted: boolean;
}

/** The final values of a helper object, each resolved once it has ended (rejected if it failed). */
export interface HelperFinalValues<Completion = ChatCompletion, Message = ChatCompletionMessage> {
  /** The last completion. */
  finalChatCompletion(): Promise<Completion>;
  /** The text of the last reply (`null` when it has none). */
  finalContent(): Promise<string | null>;
  /** The last reply (`content` and `refusal` are `null` when absent). */
  finalMessage(): Promise<Message>;
  /** The last function call in the conversation, if any. */
  finalFunctionToolCall(): Promise<FunctionToolCall | undefined>;
  /** The last function result in the conversation, if any. */
  finalFunctionToolCallResult(): Promise<string | undefined>;
  /** The token counts summed over the completions. */
  totalUsage(): Promise<CompletionUsage>;
}

