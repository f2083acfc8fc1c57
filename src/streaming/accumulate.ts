import type {
  ChatCompletionAnnotation,
  ChatCompletionReasoningDetail,
  ChatCompletionAudioDelta,
  ChatCompletionImage,
  ChatCompletionVideo,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkToolCallDelta,
  ChatCompletionLogprobs,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  CompletionUsage,
  FinishReason,
  GatewayInfo,
} from "../types/chat-completion.ts";
import { isRecord } from "../internal/values.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { gatewayInfo, learnFrom } from "../gateway/info.ts";
import { usageOf } from "./chunk-events.ts";

/** A spoken reply's fragments: `data` and `transcript` pieces, joined once at the end. */
interface AudioParts {
  id: string;
  data: string[];
  transcript: string[];
  expiresAt: number;
  format: string | undefined;
}

interface ToolCallParts {
  id: string;
  name: string;
  arguments: string[];
  /** The call's fields other than `index`, `id`, `type` and `function` (Gemini's `extra_content`), merged. */
  extra: Record<string, unknown> | undefined;
}

interface ChoiceParts {
  content: string[];
  refusal: string[];
  reasoning: string[];
  /** Images and videos arrive whole, one per chunk at most. */
  images: ChatCompletionImage[];
  videos: ChatCompletionVideo[];
  audio: AudioParts | undefined;
  /** Keyed by the fragments' `index`. */
  toolCalls: Map<number, ToolCallParts>;
  finishReason: FinishReason | null;
  logprobs: ChatCompletionLogprobs | undefined;
  annotations: unknown[];
  /** OpenRouter's reasoning blocks, in arrival order; those with an `index` also by it, to merge into. */
  reasoningDetails: unknown[];
  reasoningDetailsByIndex: Map<number, Record<string, unknown>> | undefined;
  /** A `content` sent as parts, every list of them in arrival order (see `readResponseMessage`). */
  contentParts: unknown[];
  /** The delta fields the SDK does not know, merged (see `mergeField`). */
  extra: Record<string, unknown> | undefined;
}

/** The delta fields read into a message of their own accord; any other is carried over as it came (see `mergeField`). */
const KNOWN_DELTA_FIELDS = new Set([
  "role",
  "content",
  "refusal",
  "reasoning",
  "reasoning_content",
  "tool_calls",
  "function_call",
  "images",
  "videos",
  "audio",
  "annotations",
  "reasoning_details",
]);

/** A tool-call fragment's fields that are read into the call; the others are the provider's own. */
const KNOWN_CALL_FIELDS = new Set(["index", "id", "type", "function"]);

/**
 * Assembles the `ChatCompletion` that a stream of chunks amounts to, shaped as a
 * non-streamed call would have returned it (what `stream.finalChatCompletion()` resolves to).
 *
 * Fragments are kept as lists and joined once in `result()`, so the work stays linear in the
 * length of the reply however many chunks it came in.
 *
 * Lenient where the meaning is clear, since the gateway fronts many providers: a missing
 * `role` is fine, and a choice without `finish_reason` gets `"stop"` — the `Stream` only ends
 * normally without one after `[DONE]` (a close without `[DONE]` needs every choice to have
 * finished), so a choice is never marked finished that was cut. Tool-call fragments arrive
 * with their `index` filled in by the stream (`ChunkEvents`), whatever the provider sent.
 *
 * Nothing a delta carries is dropped: `annotations` are concatenated in arrival order,
 * `reasoning_details` with the same `index` merged (others appended), and every other field
 * (of a delta or of a tool-call fragment) that the SDK does not know is carried onto the
 * message or the call by `mergeField`'s rule. openai's accumulator only assigns such fields,
 * so a later fragment replaces an earlier one there.
 */
export class ChatCompletionAccumulator {
  #sawChunk = false;
  #id = "";
  #created: number | undefined;
  #model = "";
  #provider: string | undefined;
  #systemFingerprint: string | undefined;
  #serviceTier: string | undefined;
  #usage: CompletionUsage | undefined;
  readonly #choices = new Map<number, ChoiceParts>();

  /** Takes in the next chunk of the stream. */
  add(chunk: ChatCompletionChunk): void {
    if (!isRecord(chunk)) return;
    this.#sawChunk = true;
    // Each field comes from the first chunk that has it: some providers leave them empty in
    // the first chunk (the role-only one) or only name the routed model later.
    if (!this.#id && chunk.id) this.#id = chunk.id;
    if (this.#created === undefined && typeof chunk.created === "number") this.#created = chunk.created;
    if (!this.#model && chunk.model) this.#model = chunk.model;
    this.#provider ||= chunk.provider ?? undefined;
    this.#systemFingerprint ||= chunk.system_fingerprint ?? undefined;
    this.#serviceTier ||= chunk.service_tier ?? undefined;
    // Groq's `x_groq.usage` is the usage of a chunk without its own (the last one wins either way).
    // Only an object is a usage (see `usageOf`): a `"lots"` is not the completion's usage.
    const usage = usageOf(chunk as unknown as Record<string, unknown>);
    if (usage) this.#usage = usage as unknown as CompletionUsage;

    // `choices` is empty in the usage-only final chunk, and absent in some error chunks.
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      if (!isRecord(choice)) continue;
      // The same reading of `index` as the stream's end check (ChunkEvents): they must agree on
      // which choice a chunk belongs to.
      const parts = this.#choice(typeof choice.index === "number" ? choice.index : 0);
      const delta = choice.delta;
      if (typeof delta?.content === "string") parts.content.push(delta.content);
      if (typeof delta?.refusal === "string") parts.refusal.push(delta.refusal);
      // `reasoning_content` (some providers' spelling) is read as `reasoning` by the stream.
      if (typeof delta?.reasoning === "string") parts.reasoning.push(delta.reasoning);
      if (Array.isArray(delta?.images)) parts.images.push(...delta.images);
      if (Array.isArray(delta?.videos)) parts.videos.push(...delta.videos);
      if (isRecord(delta?.audio)) addAudioFragment(parts, delta.audio);
      if (Array.isArray(delta?.tool_calls)) for (const fragment of delta.tool_calls) if (isRecord(fragment)) addToolCallFragment(parts, fragment);
      // The legacy `function_call` (one per reply) is gathered as a call of its own, under an
      // index no tool call has, and given back as `message.function_call`.
      if (isRecord(delta?.function_call)) addToolCallFragment(parts, { index: LEGACY_CALL, function: delta.function_call });
      // A lone object instead of a list is read as a list of one, as a lone tool call is.
      const annotations = listOf(delta?.annotations);
      if (annotations) for (const annotation of annotations) parts.annotations.push(copied(annotation));
      const reasoningDetails = listOf(delta?.reasoning_details);
      if (reasoningDetails) addReasoningDetails(parts, reasoningDetails);
      if (isRecord(delta)) addExtraFields(parts, delta);
      if (choice.finish_reason) parts.finishReason = choice.finish_reason;
      if (isRecord(choice.logprobs)) addLogprobs(parts, choice.logprobs);
    }
  }

  /**
   * The completion that the chunks added so far amount to; may be called again after more
   * chunks. Choices are sorted by `index`. Its `gateway` (not enumerable, as on a completion
   * `create()` returns) is the one given: what the gateway did for the call the chunks came
   * from. Without one (chunks from a bridge body, which no call of this process made), it is
   * what the chunks say: model, provider, id, usage and cost, no request id, no attempts.
   *
   * @throws ModelGateError when no chunk was added at all (there is nothing to describe).
   */
  result(gateway?: GatewayInfo): ChatCompletion {
    if (!this.#sawChunk) {
      throw new ModelGateError("The stream ended without any chunk, so there is no completion to assemble.");
    }
    const choices = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, parts]) => toChoice(index, parts));
    const completion: Omit<ChatCompletion, "gateway"> = {
      id: this.#id,
      object: "chat.completion",
      created: this.#created ?? 0,
      model: this.#model,
      choices,
    };
    if (this.#provider) completion.provider = this.#provider;
    if (this.#systemFingerprint) completion.system_fingerprint = this.#systemFingerprint;
    if (this.#serviceTier) completion.service_tier = this.#serviceTier;
    if (this.#usage) completion.usage = this.#usage;
    return Object.defineProperty(completion, "gateway", { value: gateway ?? learnedFrom(completion), configurable: true }) as ChatCompletion;
  }

  #choice(index: number): ChoiceParts {
    let parts = this.#choices.get(index);
    if (!parts) {
      parts = {
        content: [],
        refusal: [],
        reasoning: [],
        images: [],
        videos: [],
        audio: undefined,
        toolCalls: new Map(),
        finishReason: null,
        logprobs: undefined,
        annotations: [],
        reasoningDetails: [],
        reasoningDetailsByIndex: undefined,
        contentParts: [],
        extra: undefined,
      };
      this.#choices.set(index, parts);
    }
    return parts;
  }
}

function addAudioFragment(parts: ChoiceParts, fragment: ChatCompletionAudioDelta): void {
  const audio = (parts.audio ??= { id: "", data: [], transcript: [], expiresAt: 0, format: undefined });
  if (typeof fragment.id === "string" && !audio.id) audio.id = fragment.id;
  if (typeof fragment.data === "string") audio.data.push(fragment.data);
  if (typeof fragment.transcript === "string") audio.transcript.push(fragment.transcript);
  if (typeof fragment.expires_at === "number") audio.expiresAt = fragment.expires_at;
  // The stream gives each reply's first fragment the request's `audio.format` when it names
  // none, so a format a later fragment names is the server's own, and wins.
  if (typeof fragment.format === "string") audio.format = fragment.format;
}

function addToolCallFragment(parts: ChoiceParts, fragment: ChatCompletionChunkToolCallDelta): void {
  const index = typeof fragment.index === "number" ? fragment.index : 0;
  let call = parts.toolCalls.get(index);
  if (!call) {
    call = { id: "", name: "", arguments: [], extra: undefined };
    parts.toolCalls.set(index, call);
  }
  // The first fragment that names the call wins: some providers repeat the id and name on
  // every fragment, and a few send a different name later, which is not a rename (one with
  // another id is a call of its own: ChunkEvents gives it another index).
  if (!call.id && fragment.id) call.id = fragment.id;
  if (!call.name && typeof fragment.function?.name === "string") call.name = fragment.function.name;
  if (typeof fragment.function?.arguments === "string") call.arguments.push(fragment.function.arguments);
  for (const key in fragment) {
    if (!KNOWN_CALL_FIELDS.has(key)) mergeInto((call.extra ??= {}), key, (fragment as unknown as Record<string, unknown>)[key]);
  }
}

function listOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : isRecord(value) ? [value] : undefined;
}

/** The delta's fields the SDK does not know, carried onto the message; also the content parts behind a `content` read as text. */
function addExtraFields(parts: ChoiceParts, delta: Record<string, unknown>): void {
  for (const key in delta) if (!KNOWN_DELTA_FIELDS.has(key)) mergeInto((parts.extra ??= {}), key, delta[key]);
  const contentParts = delta.content_parts;
  if (Array.isArray(contentParts) && !Object.prototype.propertyIsEnumerable.call(delta, "content_parts")) for (const part of contentParts) parts.contentParts.push(copied(part));
}

/**
 * OpenRouter's reasoning blocks (`reasoning.text`, `reasoning.summary`, `reasoning.encrypted`),
 * which it asks clients to send back in tool loops: fragments of one block share an `index`
 * and are merged into it (its text concatenated); blocks without one are appended.
 */
function addReasoningDetails(parts: ChoiceParts, details: unknown[]): void {
  for (const detail of details) {
    const index = isRecord(detail) && typeof detail.index === "number" ? detail.index : undefined;
    const held = index === undefined ? undefined : parts.reasoningDetailsByIndex?.get(index);
    if (held === undefined) {
      const kept = copied(detail);
      parts.reasoningDetails.push(kept);
      if (index !== undefined) (parts.reasoningDetailsByIndex ??= new Map()).set(index, kept as Record<string, unknown>);
      continue;
    }
    for (const key in detail as Record<string, unknown>) {
      // What names the block is the same in each of its fragments: kept once, not concatenated.
      if (!BLOCK_IDENTITY.has(key) || ownValue(held, key) === undefined) mergeInto(held, key, (detail as Record<string, unknown>)[key]);
    }
  }
}

/** The fields that say which reasoning block a fragment belongs to, and how it is encoded. */
const BLOCK_IDENTITY = new Set(["index", "type", "format", "id"]);

/**
 * How a field the SDK does not know is joined across fragments: strings concatenated, lists
 * joined in arrival order, objects merged key by key by the same rule, and any other value
 * the last one sent. A `null` after a value adds nothing (as a `content: null` says nothing
 * new): providers send `"field": null` in the fragments that carry nothing for it. What is kept is
 * a copy, so the chunks handed out earlier are never changed.
 */
function mergeField(held: unknown, next: unknown, depth = 0): unknown {
  if (held === undefined) return copied(next, depth);
  if (next === null || next === undefined) return held;
  if (typeof held === "string" && typeof next === "string") return held + next;
  // Deeper than any provider nests a field, the last value is kept as it came: the walk stays
  // within the stack however deep a chunk's JSON (JSON.parse takes any depth).
  if (depth >= MAX_MERGE_DEPTH) return next;
  if (Array.isArray(held) && Array.isArray(next)) {
    for (const item of next) held.push(copied(item, depth + 1));
    return held;
  }
  if (isRecord(held) && isRecord(next)) {
    for (const key in next) mergeInto(held, key, next[key], depth + 1);
    return held;
  }
  return copied(next, depth);
}

/** How deep `mergeField` merges and `copied` copies. */
const MAX_MERGE_DEPTH = 64;

/** `holder[key]` merged with `next` by `mergeField`'s rule. */
function mergeInto(holder: Record<string, unknown>, key: string, next: unknown, depth = 0): void {
  setOwnValue(holder, key, mergeField(ownValue(holder, key), next, depth));
}

/**
 * A copy of a JSON value's lists and objects, what `mergeField` later adds to, down to
 * `MAX_MERGE_DEPTH` (below it nothing is merged into, so it is shared as it is).
 */
function copied(value: unknown, depth = 0): unknown {
  if (depth >= MAX_MERGE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => copied(item, depth + 1));
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const key in value) setOwnValue(copy, key, copied(value[key], depth + 1));
    return copy;
  }
  return value;
}

// A provider's JSON may hold a key named "__proto__", which JSON.parse makes an own entry:
// read and written as one, never as the prototype (reading it off `{}` would give
// Object.prototype, and merging into that would change every object of the program).
function ownValue(holder: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(holder, key) ? holder[key] : undefined;
}

function setOwnValue(holder: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
  else holder[key] = value;
}

function addLogprobs(parts: ChoiceParts, next: ChatCompletionLogprobs): void {
  const logprobs = (parts.logprobs ??= { content: null, refusal: null });
  // A loop rather than push(...tokens): spreading a long array into arguments can overflow the stack.
  if (Array.isArray(next.content)) for (const token of next.content) (logprobs.content ??= []).push(token);
  if (Array.isArray(next.refusal)) for (const token of next.refusal) (logprobs.refusal ??= []).push(token);
}

/**
 * Where the legacy `function_call`'s fragments are gathered, sorted before every tool call: an
 * index no JSON can carry, so no provider's tool call (whatever its `index`) lands there.
 */
const LEGACY_CALL = -Infinity;

function toChoice(index: number, parts: ChoiceParts): ChatCompletionChoice {
  const toolCalls: ChatCompletionMessageToolCall[] = [...parts.toolCalls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments.join("") },
      ...(call.extra && (copied(call.extra) as object)),
    }));
  // Sorted first, so taken off the front.
  const legacyCall = parts.toolCalls.has(LEGACY_CALL) && toolCalls.shift()!.function;
  const text = parts.content.join("");
  const message: ChatCompletionMessage = {
    role: "assistant",
    // As in a non-streamed reply: a reply made only of calls, of a refusal or of speech has `content: null`.
    content: text === "" && (legacyCall || toolCalls.length > 0 || parts.refusal.length > 0 || parts.audio) ? null : text,
  };
  if (parts.refusal.length > 0) message.refusal = parts.refusal.join("");
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (legacyCall) message.function_call = legacyCall;
  if (parts.reasoning.length > 0) message.reasoning = parts.reasoning.join("");
  if (parts.images.length > 0) message.images = parts.images;
  if (parts.videos.length > 0) message.videos = parts.videos;
  const { audio } = parts;
  if (audio) {
    message.audio = { id: audio.id, data: audio.data.join(""), transcript: audio.transcript.join(""), expires_at: audio.expiresAt };
    if (audio.format) message.audio.format = audio.format;
  }
  // Copies, as for logprobs below: a completion already returned does not change with later chunks.
  if (parts.annotations.length > 0) message.annotations = copied(parts.annotations) as ChatCompletionAnnotation[];
  if (parts.reasoningDetails.length > 0) message.reasoning_details = copied(parts.reasoningDetails) as ChatCompletionReasoningDetail[];
  if (parts.extra) {
    const extra = copied(parts.extra) as Record<string, unknown>;
    for (const key in extra) setOwnValue(message as unknown as Record<string, unknown>, key, extra[key]);
  }
  if (parts.contentParts.length > 0) {
    Object.defineProperty(message, "content_parts", { value: copied(parts.contentParts), writable: true, configurable: true, enumerable: false });
  }
  const choice: ChatCompletionChoice = {
    index,
    message,
    // See the class comment: a choice without one is reached only after [DONE].
    finish_reason: parts.finishReason ?? "stop",
  };
  if (parts.logprobs) {
    // Copies, so that chunks added after this call do not change a completion already returned.
    const { content, refusal } = parts.logprobs;
    choice.logprobs = { content: content && [...content], refusal: refusal && [...refusal] };
  }
  return choice;
}

/** What a completion assembled from chunks says of the gateway, when no call's info is known. */
function learnedFrom(completion: Omit<ChatCompletion, "gateway">): GatewayInfo {
  const info = gatewayInfo(undefined, undefined, 0);
  learnFrom(info, completion as unknown as Record<string, unknown>);
  return info;
}
