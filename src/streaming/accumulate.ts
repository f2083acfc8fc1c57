import { ModelGateError } from "../errors/index.ts";
import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkToolCallDelta,
  ChatCompletionMessageToolCall,
  CompletionUsage,
  FinishReason,
} from "../types/index.ts";

interface ToolCallParts {
  id: string;
  name: string;
  arguments: string[];
}

interface ChoiceParts {
  content: string[];
  refusal: string[];
  /** By the fragments' `index`. */
  toolCalls: Map<number, ToolCallParts>;
  lastToolCallIndex: number | undefined;
  finishReason: FinishReason | null;
  logprobs: ChatCompletionChoice["logprobs"];
}

/**
 * Assembles the `ChatCompletion` a stream of chunks amounts to, as a non-streamed call would
 * have returned it. Fragments are kept as lists and joined once in `result()`, so the work
 * stays linear in the length of the reply.
 *
 * Lenient where the meaning is clear, since the gateway fronts many providers: a missing
 * `role` or `finish_reason` is fine, and a tool-call fragment without `index` continues the
 * call with the same `id`, else the choice's last call.
 */
export class ChatCompletionAccumulator {
  #first: ChatCompletionChunk | undefined;
  #model = "";
  #usage: CompletionUsage | undefined;
  readonly #choices = new Map<number, ChoiceParts>();

  /** Takes in the next chunk of the stream. */
  add(chunk: ChatCompletionChunk): void {
    this.#first ??= chunk;
    if (!this.#model && chunk.model) this.#model = chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const parts = this.#choice(choice.index ?? 0);
      const { delta } = choice;
      if (delta?.content) parts.content.push(delta.content);
      if (delta?.refusal) parts.refusal.push(delta.refusal);
      for (const fragment of delta?.tool_calls ?? []) addToolCallFragment(parts, fragment);
      if (choice.finish_reason) parts.finishReason = choice.finish_reason;
      if (choice.logprobs) parts.logprobs = mergeLogprobs(parts.logprobs, choice.logprobs);
    }
  }

  /** The completion the chunks added so far amount to. @throws ModelGateError when none was added. */
  result(): ChatCompletion {
    const first = this.#first;
    if (!first) throw new ModelGateError("The stream ended without any chunk to assemble a completion from.");
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, parts]) => toChoice(index, parts));
    const completion: ChatCompletion = {
      id: first.id,
      object: "chat.completion",
      created: first.created,
      model: this.#model,
      choices,
    };
    if (first.provider !== undefined) completion.provider = first.provider;
    if (first.system_fingerprint !== undefined) completion.system_fingerprint = first.system_fingerprint;
    if (first.service_tier !== undefined) completion.service_tier = first.service_tier;
    if (this.#usage) completion.usage = this.#usage;
    return completion;
  }

  #choice(index: number): ChoiceParts {
    let parts = this.#choices.get(index);
    if (!parts) {
      parts = { content: [], refusal: [], toolCalls: new Map(), lastToolCallIndex: undefined, finishReason: null, logprobs: undefined };
      this.#choices.set(index, parts);
    }
    return parts;
  }
}

function addToolCallFragment(parts: ChoiceParts, fragment: ChatCompletionChunkToolCallDelta): void {
  const index = fragment.index ?? indexWithoutIndex(parts, fragment.id);
  let call = parts.toolCalls.get(index);
  if (!call) {
    call = { id: fragment.id ?? "", name: fragment.function?.name ?? "", arguments: [] };
    parts.toolCalls.set(index, call);
  } else {
    // The first fragment names the call; later ones only add arguments (some providers repeat the name).
    if (!call.id && fragment.id) call.id = fragment.id;
    if (!call.name && fragment.function?.name) call.name = fragment.function.name;
  }
  if (fragment.function?.arguments) call.arguments.push(fragment.function.arguments);
  parts.lastToolCallIndex = index;
}

/** A fragment without `index`: the call with its `id`, else the last call, else a new first call. */
function indexWithoutIndex(parts: ChoiceParts, id: string | undefined): number {
  if (id) {
    for (const [index, call] of parts.toolCalls) if (call.id === id) return index;
    return parts.toolCalls.size === 0 ? 0 : Math.max(...parts.toolCalls.keys()) + 1;
  }
  return parts.lastToolCallIndex ?? 0;
}

function toChoice(index: number, parts: ChoiceParts): ChatCompletionChoice {
  const toolCalls: ChatCompletionMessageToolCall[] = [...parts.toolCalls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments.join("") } }));
  const text = parts.content.join("");
  const choice: ChatCompletionChoice = {
    index,
    message: {
      role: "assistant",
      content: text === "" && toolCalls.length > 0 ? null : text,
      ...(parts.refusal.length > 0 ? { refusal: parts.refusal.join("") } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    // A stream that ended properly but never said why it stopped simply stopped.
    finish_reason: parts.finishReason ?? "stop",
  };
  if (parts.logprobs) choice.logprobs = parts.logprobs;
  return choice;
}

function mergeLogprobs(
  earlier: ChatCompletionChoice["logprobs"],
  next: NonNullable<ChatCompletionChoice["logprobs"]>,
): ChatCompletionChoice["logprobs"] {
  if (!earlier) return { content: next.content ? [...next.content] : null, refusal: next.refusal ? [...next.refusal] : null };
  if (next.content) (earlier.content ??= []).push(...next.content);
  if (next.refusal) (earlier.refusal ??= []).push(...next.refusal);
  return earlier;
}
