// The public types, listed by name so the surface users see can be read (and reviewed) in one place.

export type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartText,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionDeveloperMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCallParam,
  ChatCompletionNamedToolChoice,
  ChatCompletionRole,
  ChatCompletionStreamOptions,
  ChatCompletionSystemMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
  ChatModel,
  FunctionDefinition,
  ResponseFormat,
  RouteFilters,
} from "./chat-params.ts";

export type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionChunkError,
  ChatCompletionChunkToolCallDelta,
  ChatCompletionLogprobs,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  ChatCompletionTokenLogprob,
  CompletionUsage,
  FinishReason,
} from "./chat-completion.ts";

export type { Model, ModelCapability, ModelList } from "./models.ts";
