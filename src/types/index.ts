// The public types, listed by name so the surface users see can be read (and reviewed) in one place.

export type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionAudioParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartFile,
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
  ChatCompletionModality,
  ChatCompletionNamedToolChoice,
  ChatCompletionPredictionContent,
  ChatCompletionReasoningEffort,
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
  ReasoningConfig,
  RouteFilters,
} from "./chat-params.ts";

export type {
  ChatCompletion,
  ChatCompletionAnnotation,
  ChatCompletionAudio,
  ChatCompletionAudioDelta,
  ChatCompletionImage,
  ChatCompletionVideo,
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
  GatewayInfo,
} from "./chat-completion.ts";

export type { Model, ModelCapability, ModelList } from "./models.ts";

export type {
  ChatRequestOptions,
  ChatCompletionParseParams,
  DeepPartial,
  ParsedChatCompletion,
  ParsedChatCompletionMessage,
  ParsedChoice,
  ParsedFunctionToolCall,
  ParsedToolCall,
  ParsedInput,
  ParsedOutput,
  ParsedToolCallOf,
  ParseOptions,
  ParseResponseFormat,
  StructuredOutputMode,
  StructuredStream,
} from "./structured.ts";

export type { ToolRun, ToolRunCall, ToolRunEvent, ToolRunOptions, ToolRunParams, ToolRunResult, ToolRunStep, ToolRunStopReason } from "./tool-runner.ts";

export type {
  CreateEmbeddingResponse,
  Embedding,
  EmbeddingCreateParams,
  ImageGenerateParams,
  ImagesResponse,
  SpeechCreateParams,
  Transcription,
  TranscriptionCreateParams,
} from "./endpoints.ts";
