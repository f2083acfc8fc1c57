import type { ModelCapability } from "./models.ts";
import type { ChatCompletionReasoningDetail } from "./chat-completion.ts";

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
    detail?: "auto" | "low" | "high" | undefined;
  };
}

/** An audio part (audio input), base64-encoded. */
export interface ChatCompletionContentPartInputAudio {
  type: "input_audio";
  input_audio: { data: string; format: "wav" | "mp3" };
}

/** A file part (e.g. a PDF): its bytes as a base64 `data:` URL in `file_data`, or an uploaded file's `file_id`. */
export interface ChatCompletionContentPartFile {
  type: "file";
  file: {
    /** The file's name, which some models use to tell what it holds. */
    filename?: string | undefined;
    /** The file's content, base64 encoded (a `data:application/pdf;base64,...` URL). */
    file_data?: string | undefined;
    /** The id of a file uploaded to the provider beforehand. */
    file_id?: string | undefined;
  };
}

/** One part of a user message's content. */
export type ChatCompletionContentPart =
  | ChatCompletionContentPartText
  | ChatCompletionContentPartImage
  | ChatCompletionContentPartInputAudio
  | ChatCompletionContentPartFile;

/** Instructions for the model, ahead of the conversation. */
export interface ChatCompletionSystemMessageParam {
  role: "system";
  content: string | ChatCompletionContentPartText[];
  name?: string | undefined;
}

/** Instructions from the developer; newer models prefer it over `system`. */
export interface ChatCompletionDeveloperMessageParam {
  role: "developer";
  content: string | ChatCompletionContentPartText[];
  name?: string | undefined;
}

/** What the user says: text, or parts mixing text, images and audio. */
export interface ChatCompletionUserMessageParam {
  role: "user";
  content: string | ChatCompletionContentPart[];
  name?: string | undefined;
}

/** An earlier reply of the model, sent back as conversation history. */
export interface ChatCompletionAssistantMessageParam {
  role: "assistant";
  /** May be null or absent when the reply was only tool calls. */
  content?: string | (ChatCompletionContentPartText | ChatCompletionContentPartRefusal)[] | null | undefined;
  name?: string | undefined;
  refusal?: string | null | undefined;
  tool_calls?: ChatCompletionMessageToolCallParam[] | undefined;
  /** @deprecated The legacy form of `tool_calls`: the function call of a reply to `functions`. */
  function_call?: ChatCompletionFunctionCall | null | undefined;
  /** OpenRouter's reasoning blocks of the reply, sent back so the model keeps its reasoning across a tool loop. */
  reasoning_details?: ChatCompletionReasoningDetail[] | undefined;
}

/** A refusal of an earlier reply, as a part of its `content` (as openai sends history back). */
export interface ChatCompletionContentPartRefusal {
  type: "refusal";
  /** The refusal the model gave. */
  refusal: string;
}

/** The result of a tool call, answering the call with the same id. */
export interface ChatCompletionToolMessageParam {
  role: "tool";
  tool_call_id: string;
  content: string | ChatCompletionContentPartText[];
}

/** @deprecated The legacy form of a `tool` message: the result of a `function_call`, answering it by `name`. */
export interface ChatCompletionFunctionMessageParam {
  role: "function";
  /** The function that was called. */
  name: string;
  content: string | null;
}

/** One message of the conversation. */
export type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam
  | ChatCompletionFunctionMessageParam;

/** The role of a message's author. */
export type ChatCompletionRole = ChatCompletionMessageParam["role"];

/** Every message role, for checks of plain-JavaScript input (the SDK's and the mock gateway's). */
export const CHAT_ROLES: readonly ChatCompletionRole[] = ["system", "developer", "user", "assistant", "tool", "function"];

/** A tool call of an earlier assistant message. */
export interface ChatCompletionMessageToolCallParam {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  /** Gemini's thought signature of the call (`{ google: { thought_signature } }`), as the reply carried it. */
  extra_content?: Record<string, unknown> | undefined;
}

/** A function call the model made, its arguments as JSON text (which may not be valid JSON). */
export interface ChatCompletionFunctionCall {
  name: string;
  arguments: string;
}

/** @deprecated The legacy `function_call` param's way to force one function: `{ name }`. */
export interface ChatCompletionFunctionCallOption {
  name: string;
}

/** A function the model may call. */
export interface FunctionDefinition {
  name: string;
  description?: string | undefined;
  /** A JSON Schema object describing the arguments. */
  parameters?: Record<string, unknown> | undefined;
  /** Ask for arguments that follow `parameters` exactly (where the model supports it). */
  strict?: boolean | null | undefined;
}

/** A tool the model may call. */
export interface ChatCompletionTool {
  type: "function";
  function: FunctionDefinition;
}

/** A function tool: openai's name for `ChatCompletionTool` (the same type). */
export type ChatCompletionFunctionTool = ChatCompletionTool;

/**
 * openai's custom tool, whose input is free text (optionally following a grammar), named for
 * code written against openai that builds one. `tools` is typed as function tools, the kind
 * every provider behind the gateway calls; from plain JavaScript a custom tool is sent as given.
 */
export interface ChatCompletionCustomTool {
  type: "custom";
  custom: {
    name: string;
    description?: string | undefined;
    /** Free text (`{ type: "text" }`) or text following a grammar (`{ type: "grammar", grammar: { definition, syntax } }`). */
    format?: { type: "text" } | { type: "grammar"; grammar: { definition: string; syntax: "lark" | "regex" } } | undefined;
  };
}

/** Forces a call of one named tool. */
export interface ChatCompletionNamedToolChoice {
  type: "function";
  function: { name: string };
}

/** openai's choice forcing one named custom tool (see `ChatCompletionCustomTool`). */
export interface ChatCompletionNamedToolChoiceCustom {
  type: "custom";
  custom: { name: string };
}

/** The tools a model may pick from in this request, out of all of `tools` (openai's `allowed_tools`). */
export interface ChatCompletionAllowedTools {
  /** `auto`: the model may call one of them or none; `required`: it must call one. */
  mode: "auto" | "required";
  /** Each as a `tool_choice` names it: `{ type: "function", function: { name } }`. */
  tools: Record<string, unknown>[];
}

/** Limits the tools the model may call to some of `tools`, the list staying whole (so a provider's prompt cache holds). */
export interface ChatCompletionAllowedToolChoice {
  type: "allowed_tools";
  allowed_tools: ChatCompletionAllowedTools;
}

/**
 * `none`: no tool; `auto`: the model decides; `required`: at least one tool; a named tool; or
 * some of the tools (`allowed_tools`). Sent as given: a provider that does not know a form
 * answers with its own error.
 */
export type ChatCompletionToolChoiceOption = "none" | "auto" | "required" | ChatCompletionAllowedToolChoice | ChatCompletionNamedToolChoice;

/** The shape of the reply: free text, any JSON object, or JSON following a schema. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | {
      type: "json_schema";
      json_schema: { name: string; description?: string | undefined; schema?: Record<string, unknown> | undefined; strict?: boolean | null | undefined };
    };

/**
 * How hard a reasoning model thinks before it answers: less effort answers faster, with fewer
 * (billed) reasoning tokens. Not every model supports every value.
 */
export type ChatCompletionReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** What a reply may hold: `text` (the default), `audio` (with `audio` set) or `image`. */
export type ChatCompletionModality = "text" | "audio" | "image" | (string & {});

/** The gateway's reasoning options, passed on to each provider in its own terms. */
export interface ReasoningConfig {
  /** How hard to think, as `reasoning_effort`. */
  effort?: ChatCompletionReasoningEffort | undefined;
  /** At most this many reasoning tokens (for providers that budget thinking in tokens). */
  max_tokens?: number | undefined;
  /** Think, but leave the reasoning text out of the reply. @default false */
  exclude?: boolean | undefined;
}

/** The spoken reply asked for with `modalities: ["text", "audio"]`. */
export interface ChatCompletionAudioParam {
  /** A built-in voice such as `"alloy"`, or a custom voice by id. */
  voice:
    | "alloy" | "ash" | "ballad" | "coral" | "echo" | "sage" | "shimmer" | "verse" | "marin" | "cedar"
    | (string & {})
    | { id: string };
  /** Encoding of the audio data. */
  format: "wav" | "aac" | "mp3" | "flac" | "opus" | "pcm16";
}

/**
 * Predicted Outputs: text the reply will mostly repeat (a file being edited), which lets the
 * model answer faster.
 */
export interface ChatCompletionPredictionContent {
  type: "content";
  content: string | ChatCompletionContentPartText[];
}

/** Options of a streamed reply. */
export interface ChatCompletionStreamOptions {
  /** Send a final chunk with `usage` (and `choices: []`) before `[DONE]`. */
  include_usage?: boolean | undefined;
}

/**
 * Filters for `model: "auto"` (a ModelGate extension): the gateway picks among the models
 * that pass every filter, ordered by `sort`.
 */
export interface RouteFilters {
  /** Highest acceptable price, USD per million tokens. */
  max_price?: { prompt?: number | undefined; completion?: number | undefined } | undefined;
  /** Lowest acceptable quality score, 0 to 1. */
  min_quality?: number | undefined;
  /** Capabilities the model must have, e.g. `["vision", "tools"]`. */
  capabilities?: ModelCapability[] | undefined;
  /** What to prefer among the models that pass. @default "price" */
  sort?: "price" | "quality" | "latency" | undefined;
  /**
   * The most the call may cost, in USD: only models whose worst case (the prompt plus
   * the reply limit, at their prices) fits are chosen; a 400 says when none does. The
   * `maxCost` option sets it for `model: "auto"`.
   */
  max_cost?: number | undefined;
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
  stream?: boolean | null | undefined;
  /** Fallback models (ModelGate extension) the gateway tries in order when `model` fails or is unavailable. */
  models?: string[] | undefined;
  /** Routing filters for `model: "auto"` (ModelGate extension), sent as given. */
  route?: RouteFilters | undefined;
  /** Functions the model may call. */
  tools?: ChatCompletionTool[] | undefined;
  /** Whether and which tool the model must call. @default "auto" when `tools` is given, else "none" */
  tool_choice?: ChatCompletionToolChoiceOption | undefined;
  /**
   * @deprecated The legacy form of `tools`: functions the model may call, answered with
   * `message.function_call` (one call at most) and `finish_reason: "function_call"`.
   */
  functions?: FunctionDefinition[] | undefined;
  /**
   * @deprecated The legacy form of `tool_choice`: `"none"`, `"auto"`, or `{ name }` to force
   * that function. @default "auto" when `functions` is given, else "none"
   */
  function_call?: "none" | "auto" | ChatCompletionFunctionCallOption | undefined;
  /** Allow several tool calls in one reply. */
  parallel_tool_calls?: boolean | undefined;
  /** Ask for JSON (`json_object`) or JSON following a schema (`json_schema`). @default { type: "text" } */
  response_format?: ResponseFormat | undefined;
  /** Sampling temperature, 0 to 2. */
  temperature?: number | null | undefined;
  /** Nucleus sampling, 0 to 1. */
  top_p?: number | null | undefined;
  /**
   * The older limit of generated tokens. OpenAI's reasoning models reject it in favour of
   * `max_completion_tokens`, while some other providers only understand this one.
   */
  max_tokens?: number | null | undefined;
  /** Limit of generated tokens, visible and reasoning tokens together. */
  max_completion_tokens?: number | null | undefined;
  /** Up to 4 sequences where generation stops. */
  stop?: string | string[] | null | undefined;
  /** How many choices to generate. @default 1 */
  n?: number | null | undefined;
  /** Best-effort deterministic sampling. */
  seed?: number | null | undefined;
  /** -2 to 2: discourages repeating tokens by frequency. */
  frequency_penalty?: number | null | undefined;
  /** -2 to 2: discourages tokens that already appeared. */
  presence_penalty?: number | null | undefined;
  /** Token id → bias from -100 to 100. */
  logit_bias?: Record<string, number> | null | undefined;
  /** Return log probabilities of the output tokens. */
  logprobs?: boolean | null | undefined;
  /** 0 to 20 most likely tokens per position, with `logprobs: true`. */
  top_logprobs?: number | null | undefined;
  /** Only with `stream: true`. */
  stream_options?: ChatCompletionStreamOptions | null | undefined;
  /** A stable id of your end user, for abuse monitoring. */
  user?: string | undefined;
  /** Up to 16 key-value pairs stored with the request. */
  metadata?: Record<string, string> | null | undefined;
  /** Effort of a reasoning model. @default "medium" where the model supports it */
  reasoning_effort?: ChatCompletionReasoningEffort | null | undefined;
  /** Reasoning options (ModelGate extension): effort, a token budget, or thinking without showing it. */
  reasoning?: ReasoningConfig | undefined;
  /** What the reply should hold. @default ["text"] */
  modalities?: ChatCompletionModality[] | null | undefined;
  /** Voice and format of a spoken reply; required with `modalities: ["text", "audio"]`. */
  audio?: ChatCompletionAudioParam | null | undefined;
  /** Predicted Outputs: content the reply is expected to largely match. */
  prediction?: ChatCompletionPredictionContent | null | undefined;
  /** The provider's processing tier, for providers that have them. @default "auto" */
  service_tier?: "auto" | "default" | "flex" | "scale" | "priority" | "fast" | null | undefined;
  /** Whether the provider may store the completion (e.g. for its evals and distillation). */
  store?: boolean | null | undefined;
}

/** Parameters of a non-streamed call: resolves to a `ChatCompletion`. */
export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false | null | undefined;
}

/** Parameters of a streamed call: resolves to a `Stream<ChatCompletionChunk>`. */
export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
}

/** Parameters of `chat.completions.create()`. */
export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;
