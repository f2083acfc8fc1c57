import type { ModelCapability } from "./models.ts";

/** A model id such as `openai/gpt-4.1-mini`, or `"auto"` to let the gateway choose. */
export type ChatModel = "auto" | (string & {});

/** A text part of a message's content. */
export interface ChatCompletionContentPartText {
  type: "text";
  text: string;
}

/** An image part (vision input): a URL or a `data:` URL with base64 image bytes. */
export interface ChatCompletionContentPartImage {
  type: "image_url";
  image_url: {
    url: string;
    /** How closely the model looks: `low` is cheaper. @default "auto" */
    detail?: "auto" | "low" | "high";
  };
}

/** An audio part (audio input), base64-encoded. */
export interface ChatCompletionContentPartInputAudio {
  type: "input_audio";
  input_audio: { data: string; format: "wav" | "mp3" };
}

/** One part of a user message's content. */
export type ChatCompletionContentPart =
  | ChatCompletionContentPartText
  | ChatCompletionContentPartImage
  | ChatCompletionContentPartInputAudio;

/** Instructions for the model, ahead of the conversation. */
export interface ChatCompletionSystemMessageParam {
  role: "system";
  content: string | ChatCompletionContentPartText[];
  name?: string;
}

/** Instructions from the developer; newer models prefer it over `system`. */
export interface ChatCompletionDeveloperMessageParam {
  role: "developer";
  content: string | ChatCompletionContentPartText[];
  name?: string;
}

/** What the user says: text, or parts mixing text, images and audio. */
export interface ChatCompletionUserMessageParam {
  role: "user";
  content: string | ChatCompletionContentPart[];
  name?: string;
}

/** An earlier reply of the model, sent back as conversation history. */
export interface ChatCompletionAssistantMessageParam {
  role: "assistant";
  /** May be null or absent when the reply was only tool calls. */
  content?: string | ChatCompletionContentPartText[] | null;
  name?: string;
  refusal?: string | null;
  tool_calls?: ChatCompletionMessageToolCallParam[];
}

/** The result of a tool call, answering the call with the same id. */
export interface ChatCompletionToolMessageParam {
  role: "tool";
  tool_call_id: string;
  content: string | ChatCompletionContentPartText[];
}

/** One message of the conversation. */
export type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam;

/** The role of a message's author. */
export type ChatCompletionRole = ChatCompletionMessageParam["role"];

/** Every message role, for checks of plain-JavaScript input (the SDK's and the mock gateway's). */
export const CHAT_ROLES: readonly ChatCompletionRole[] = ["system", "developer", "user", "assistant", "tool"];

/** A tool call of an earlier assistant message. */
export interface ChatCompletionMessageToolCallParam {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A function the model may call. */
export interface FunctionDefinition {
  name: string;
  description?: string;
  /** A JSON Schema object describing the arguments. */
  parameters?: Record<string, unknown>;
  /** Ask for arguments that follow `parameters` exactly (where the model supports it). */
  strict?: boolean | null;
}

/** A tool the model may call. */
export interface ChatCompletionTool {
  type: "function";
  function: FunctionDefinition;
}

/** Forces a call of one named tool. */
export interface ChatCompletionNamedToolChoice {
  type: "function";
  function: { name: string };
}

/** `none`: no tool; `auto`: the model decides; `required`: at least one tool; or a named tool. */
export type ChatCompletionToolChoiceOption = "none" | "auto" | "required" | ChatCompletionNamedToolChoice;

/** The shape of the reply: free text, any JSON object, or JSON following a schema. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | {
      type: "json_schema";
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
    };

/** Options of a streamed reply. */
export interface ChatCompletionStreamOptions {
  /** Send a final chunk with `usage` (and `choices: []`) before `[DONE]`. */
  include_usage?: boolean;
}

/**
 * Filters for `model: "auto"` (a ModelGate extension): the gateway picks among the models
 * that pass every filter, ordered by `sort`.
 */
export interface RouteFilters {
  /** Highest acceptable price, USD per million tokens. */
  max_price?: { prompt?: number; completion?: number };
  /** Lowest acceptable quality score, 0 to 1. */
  min_quality?: number;
  /** Capabilities the model must have, e.g. `["vision", "tools"]`. */
  capabilities?: ModelCapability[];
  /** What to prefer among the models that pass. @default "price" */
  sort?: "price" | "quality" | "latency";
}

/**
 * Parameters of `chat.completions.create()`, streamed or not.
 *
 * Fields the types do not know (gateways and providers add their own) are sent untouched:
 * pass them in a variable or spread them in (`{ model, messages, ...extra }`). There is
 * deliberately no index signature, because one would let a misspelled field such as
 * `temprature` compile without a word.
 */
export interface ChatCompletionCreateParamsBase {
  /** A model id, or `"auto"` to let the gateway choose (narrowed by `route`). */
  model: ChatModel;
  /** The conversation so far. */
  messages: ChatCompletionMessageParam[];
  /** Stream the reply as chunks: `true` makes `create()` resolve to a `Stream`. @default false */
  stream?: boolean | null;
  /** Fallback models (ModelGate extension) the gateway tries in order when `model` fails or is unavailable. */
  models?: string[];
  /** Routing filters for `model: "auto"` (ModelGate extension), sent as given. */
  route?: RouteFilters;
  /** Functions the model may call. */
  tools?: ChatCompletionTool[];
  /** Whether and which tool the model must call. @default "auto" when `tools` is given, else "none" */
  tool_choice?: ChatCompletionToolChoiceOption;
  /** Allow several tool calls in one reply. */
  parallel_tool_calls?: boolean;
  /** Ask for JSON (`json_object`) or JSON following a schema (`json_schema`). @default { type: "text" } */
  response_format?: ResponseFormat;
  /** Sampling temperature, 0 to 2. */
  temperature?: number | null;
  /** Nucleus sampling, 0 to 1. */
  top_p?: number | null;
  /**
   * The older limit of generated tokens. OpenAI's reasoning models reject it in favour of
   * `max_completion_tokens`, while some other providers only understand this one.
   */
  max_tokens?: number | null;
  /** Limit of generated tokens, visible and reasoning tokens together. */
  max_completion_tokens?: number | null;
  /** Up to 4 sequences where generation stops. */
  stop?: string | string[] | null;
  /** How many choices to generate. @default 1 */
  n?: number | null;
  /** Best-effort deterministic sampling. */
  seed?: number | null;
  /** -2 to 2: discourages repeating tokens by frequency. */
  frequency_penalty?: number | null;
  /** -2 to 2: discourages tokens that already appeared. */
  presence_penalty?: number | null;
  /** Token id → bias from -100 to 100. */
  logit_bias?: Record<string, number> | null;
  /** Return log probabilities of the output tokens. */
  logprobs?: boolean | null;
  /** 0 to 20 most likely tokens per position, with `logprobs: true`. */
  top_logprobs?: number | null;
  /** Only with `stream: true`. */
  stream_options?: ChatCompletionStreamOptions | null;
  /** A stable id of your end user, for abuse monitoring. */
  user?: string;
  /** Up to 16 key-value pairs stored with the request. */
  metadata?: Record<string, string> | null;
}

/** Parameters of a non-streamed call: resolves to a `ChatCompletion`. */
export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false | null;
}

/** Parameters of a streamed call: resolves to a `Stream<ChatCompletionChunk>`. */
export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
}

/** Parameters of `chat.completions.create()`. */
export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;
