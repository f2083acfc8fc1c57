import type { ChatCompletionFunctionCall } from "./chat-params.ts";
/**
 * Why generation stopped: `stop` (natural end or a stop sequence), `length` (token limit),
 * `tool_calls`, `content_filter`, `function_call` (deprecated form of `tool_calls`), `error`
 * (a provider failed mid-reply, a gateway value); open to values other providers send.
 */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call" | "error" | (string & {});

/** A tool call the model asks for; `arguments` is JSON text, to be validated before use. */
export interface ChatCompletionMessageToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  /**
   * Gemini's own field: `{ google: { thought_signature } }`, which Gemini 3 needs sent back with
   * the call. Kept from a stream's fragments, and replayed by `runTools()`, as any field of a
   * call that the SDK does not know is.
   */
  extra_content?: Record<string, unknown>;
}

/** A function tool call: openai's name for `ChatCompletionMessageToolCall` (the same type). */
export type ChatCompletionMessageFunctionToolCall = ChatCompletionMessageToolCall;

/**
 * openai's call of a custom tool (see `ChatCompletionCustomTool`), its input free text, named
 * for code written against openai. The gateway's replies carry function calls
 * (`ChatCompletionMessageToolCall`).
 */
export interface ChatCompletionMessageCustomToolCall {
  id: string;
  type: "custom";
  custom: { name: string; input: string };
}

/**
 * One of OpenRouter's reasoning blocks (`reasoning_details`), which it asks clients to send
 * back in tool loops. In a stream, the fragments of one block share an `index`;
 * `finalChatCompletion()` merges them (their text concatenated).
 */
export interface ChatCompletionReasoningDetail {
  type: "reasoning.text" | "reasoning.summary" | "reasoning.encrypted" | (string & {});
  index?: number;
  id?: string | null;
  format?: string | null;
  text?: string | null;
  summary?: string;
  data?: string;
  signature?: string | null;
  [field: string]: unknown;
}

/**
 * A part of a `content` that a provider sent as a list (Mistral's reasoning models): `text`
 * parts are the text, `thinking` and `reasoning` parts the reasoning, and any other part is
 * kept as it came.
 */
export interface ChatCompletionResponseContentPart {
  type: "text" | "thinking" | "reasoning" | (string & {});
  text?: string;
  /** A thinking part's text, or the `text` parts it holds (Mistral's form). */
  thinking?: string | { type: string; text?: string }[];
  [field: string]: unknown;
}

/** A web source the reply cites, e.g. from a model with web search. */
export interface ChatCompletionAnnotation {
  type: "url_citation";
  url_citation: {
    url: string;
    title: string;
    /** Where in `content` the citation starts (index of the first character). */
    start_index: number;
    /** Where in `content` the citation ends (index after the last character). */
    end_index: number;
  };
}

/** A spoken reply, asked for with `modalities: ["text", "audio"]`. */
export interface ChatCompletionAudio {
  id: string;
  /** The audio, base64 encoded in the requested `audio.format`. */
  data: string;
  /** What is said. */
  transcript: string;
  /** Unix time in seconds after which the audio can no longer be referred to in a later turn. */
  expires_at: number;
  /** The encoding of `data` (`"wav"`, `"mp3"`, ...): the gateway's, else the request's `audio.format`. */
  format?: string;
}

/** A generated image, asked for with `modalities: ["image", "text"]`: a `data:` URL (see `decodeDataURL()`) or an `https:` one. */
export interface ChatCompletionImage {
  type: "image_url";
  image_url: { url: string };
}

/** A generated video, from a model with `video_generation`. */
export interface ChatCompletionVideo {
  type: "video_url";
  video_url: { url: string };
}

/** A fragment of a streamed spoken reply: the first carries `id`, the others pieces of `data` and `transcript`. */
export interface ChatCompletionAudioDelta {
  id?: string;
  data?: string;
  transcript?: string;
  expires_at?: number;
  format?: string;
}

/** The model's reply message. */
export interface ChatCompletionMessage {
  role: "assistant";
  /** The text; `null` when the reply is only tool calls. */
  content: string | null;
  refusal?: string | null;
  tool_calls?: ChatCompletionMessageToolCall[];
  /** @deprecated The legacy form of `tool_calls`, in a reply to `functions`: the one function the model called. */
  function_call?: ChatCompletionFunctionCall | null;
  /** Sources the text cites (web search). */
  annotations?: ChatCompletionAnnotation[];
  /** The spoken reply, when audio was asked for. */
  audio?: ChatCompletionAudio | null;
  /** Generated images, when `modalities` asked for them. */
  images?: ChatCompletionImage[];
  /** Generated videos, from a video model. */
  videos?: ChatCompletionVideo[];
  /**
   * What a reasoning model thought before answering (when the provider shows it). A
   * provider's `reasoning_content`, or the `thinking` parts of a `content` sent as parts, is
   * read as this (not enumerable then); where both are sent, `reasoning` wins.
   */
  reasoning?: string | null;
  /** OpenRouter's reasoning blocks, to be sent back in a tool loop (`runTools()` does). */
  reasoning_details?: ChatCompletionReasoningDetail[];
  /**
   * The list a provider sent as `content`, as it came (not enumerable): `content` is then the
   * text of its `text` parts, and `reasoning` that of its `thinking` parts. For a stream, the
   * parts of every chunk, in order.
   */
  readonly content_parts?: readonly ChatCompletionResponseContentPart[];
}

/** Log probability of one output token. */
export interface ChatCompletionTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: { token: string; logprob: number; bytes: number[] | null }[];
}

/** Log probabilities of a choice, when `logprobs: true` was asked for. */
export interface ChatCompletionLogprobs {
  content: ChatCompletionTokenLogprob[] | null;
  refusal?: ChatCompletionTokenLogprob[] | null | undefined;
}

/** One choice of a completion (several when `n` > 1). */
export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  finish_reason: FinishReason;
  logprobs?: ChatCompletionLogprobs | null;
}

/**
 * Token counts of a request. The details are optional and open, since each provider reports
 * a different subset.
 */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Prompt plus completion. */
  total_tokens: number;
  /** What the call was charged, in USD (ModelGate extension). */
  cost?: number;
  prompt_tokens_details?: {
    /** Prompt tokens read from the provider's prompt cache (usually billed lower). */
    cached_tokens?: number;
    /** Prompt tokens written to the prompt cache. */
    cache_write_tokens?: number;
    audio_tokens?: number;
    image_tokens?: number;
    text_tokens?: number;
    [key: string]: number | undefined;
  };
  completion_tokens_details?: {
    /** Hidden reasoning tokens, counted in `completion_tokens`. */
    reasoning_tokens?: number;
    audio_tokens?: number;
    text_tokens?: number;
    /** Predicted Outputs: prediction tokens that appeared in the completion. */
    accepted_prediction_tokens?: number;
    /** Predicted Outputs: prediction tokens that did not appear, still billed. */
    rejected_prediction_tokens?: number;
    [key: string]: number | undefined;
  };
}

/** A whole (non-streamed) reply. */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  /** Unix time in seconds. */
  created: number;
  /** The model that answered: the gateway's choice when `model: "auto"` was asked for. */
  model: string;
  /** The provider that served the model (gateway extension). */
  provider?: string;
  choices: ChatCompletionChoice[];
  usage?: CompletionUsage;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  /**
   * What the gateway did: the model and provider that answered, the attempts made, the cost.
   * Set on every completion the SDK returns: from `create()` and `parse()`, and assembled from
   * a stream's chunks (`finalChatCompletion()`: the stream's `gateway`, or for a stream read
   * from a bridge body, what its chunks say). Not enumerable, so `JSON.stringify(completion)`
   * shows the reply as it was sent. A completion as a server sends it (a mock's, a fixture's)
   * is an `Omit<ChatCompletion, "gateway">`.
   */
  readonly gateway: GatewayInfo;
}

/** A fragment of a tool call in a stream; fragments with the same `index` form one call. */
export interface ChatCompletionChunkToolCallDelta {
  /**
   * Position of the call among the reply's calls: `acc[fragment.index]` collects one call.
   * Always a number: for providers that leave it out (or send `null`) the SDK fills it in from
   * the call with the same `id`, else the last call.
   */
  index: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
  /** Gemini's thought signature (`{ google: { thought_signature } }`), kept on the assembled call. */
  extra_content?: Record<string, unknown>;
}

/** What one chunk adds to a choice. */
export interface ChatCompletionChunkDelta {
  role?: "developer" | "system" | "user" | "assistant" | "tool";
  /** A text fragment; absent or null means nothing new. */
  content?: string | null;
  refusal?: string | null;
  tool_calls?: ChatCompletionChunkToolCallDelta[];
  /** @deprecated A fragment of the legacy `function_call`: its `name` first, then pieces of `arguments`. */
  function_call?: { name?: string; arguments?: string };
  /** A fragment of the reasoning text (a provider's `reasoning_content` is read as this). */
  reasoning?: string | null;
  /** Images, each whole in one chunk. */
  images?: ChatCompletionImage[];
  /** Videos, each whole in one chunk. */
  videos?: ChatCompletionVideo[];
  /** A fragment of the spoken reply; `finalChatCompletion()` joins them. */
  audio?: ChatCompletionAudioDelta;
  /** Sources the text cites (OpenRouter's web search); `finalChatCompletion()` concatenates them. */
  annotations?: ChatCompletionAnnotation[];
  /** Fragments of OpenRouter's reasoning blocks; `finalChatCompletion()` merges those with the same `index`. */
  reasoning_details?: ChatCompletionReasoningDetail[];
  /**
   * The list a provider sent as `content`, as it came (not enumerable): `content` is then the
   * text of its `text` parts, and `reasoning` that of its `thinking` parts.
   */
  readonly content_parts?: readonly ChatCompletionResponseContentPart[];
}

/** One choice's part of a chunk. */
export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  /** Set on the choice's last chunk. */
  finish_reason: FinishReason | null;
  logprobs?: ChatCompletionLogprobs | null;
}

/** An error a provider reported in the middle of a stream (thrown by the SDK as an `APIError`). */
export interface ChatCompletionChunkError {
  code?: number | string;
  message: string;
  metadata?: Record<string, unknown>;
}

/** One chunk of a streamed reply. */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  /** The model that answered: the gateway's choice when `model: "auto"` was asked for. */
  model: string;
  provider?: string;
  /** Empty in the final usage-only chunk (`stream_options.include_usage`). */
  choices: ChatCompletionChunkChoice[];
  usage?: CompletionUsage | null;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  error?: ChatCompletionChunkError;
  /** Groq's extension: its `usage` (on the last chunk) is read as the chunk's `usage` when that is absent. */
  x_groq?: { id?: string; usage?: CompletionUsage | null; [field: string]: unknown };
}

/**
 * What the gateway did for one call: on a completion (`completion.gateway`, not enumerable, so
 * `JSON.stringify(completion)` is unchanged), on a stream (`stream.gateway`, filled in as
 * chunks arrive) and on every `APIError` the SDK throws (`error.gateway`, what was known when
 * the call failed).
 */
export interface GatewayInfo {
  /** The model the call asked for, e.g. `"auto"`. */
  requestedModel: string | null;
  /** The model that answered (for a stream, from its first chunk). */
  model: string | null;
  /** The provider that served it, e.g. `"openai"`. */
  provider: string | null;
  /** The generation's id: an `x-generation-id` header, else the completion's `id`. */
  generationID: string | null;
  /** The `x-request-id` response header. */
  requestID: string | null;
  /** HTTP attempts made: retries of every kind included. */
  attempts: number;
  /**
   * What the call cost in USD (`usage.cost`, or an `x-modelgate-cost` header), when it is a
   * finite number from 0; `null` when the gateway said nothing (or nothing that is a cost).
   */
  cost: number | null;
  /** Token counts, when the gateway reported them (for a stream, from its usage chunk). */
  usage: CompletionUsage | null;
}
