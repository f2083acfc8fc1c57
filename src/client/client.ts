import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  createRedactor,
  ModelGateError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../errors/index.ts";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { StructuredOutputError } from "../errors/structured-output-error.ts";
import type { APIPromise, WithResponse } from "../pipeline/api-promise.ts";
import type { APIErrorInit } from "../errors/index.ts";
import { request, type PipelineConfig, type RequestSpec } from "../pipeline/request.ts";
import { assertAPIKey } from "../pipeline/auth.ts";
import { serviceRoot } from "../pipeline/url.ts";
import { Chat } from "../resources/chat/chat.ts";
import type { Completions } from "../resources/chat/completions.ts";
import { Models } from "../resources/models.ts";
import { endpointResources, type Audio, type Embeddings, type Images } from "../resources/endpoint-resources.ts";
import type { Stream } from "../streaming/stream.ts";
import type {
  ChatCompletion,
  ChatCompletionAnnotation,
  ChatCompletionAssistantMessageParam,
  ChatCompletionAudio,
  ChatCompletionAudioParam,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionChunkToolCallDelta,
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
  ChatCompletionLogprobs,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionMessageToolCallParam,
  ChatCompletionModality,
  ChatCompletionNamedToolChoice,
  ChatCompletionPredictionContent,
  ChatCompletionReasoningEffort,
  ChatCompletionRole,
  ChatCompletionStreamOptions,
  ChatCompletionSystemMessageParam,
  ChatCompletionTokenLogprob,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
  ChatModel,
  CompletionUsage,
  FinishReason,
  FunctionDefinition,
  Model,
  ModelCapability,
  ModelList,
  ResponseFormat,
  RouteFilters,
  ChatRequestOptions,
  ParseOptions,
  ParsedChatCompletion,
  ParsedChatCompletionMessage,
  ParsedChoice,
  ParsedFunctionToolCall,
  ParsedToolCall,
  StructuredStream,
  StructuredOutputMode,
  DeepPartial,
} from "../types/index.ts";
import type { GatewayInfo } from "../gateway/info.ts";
import type { HeadersInput, QueryInput } from "../client/options.ts";
import type { LogLevel } from "../internal/logger.ts";
import type { DecodedDataURL } from "../media/data-url.ts";
import type { APIKeyFunction } from "../pipeline/auth.ts";
import type { HTTPMethod } from "../pipeline/request.ts";
import type { ModelListPromise } from "../resources/models.ts";
import type { JSONSchemaFormat, JSONSchemaOptions } from "../schemas/json-schema.ts";
import type { SchemaIssue } from "../schemas/schema-source.ts";
import type { SchemaOutput, StandardJSONSchemaConverter, StandardSchemaIssue, StandardSchemaResult, StandardSchemaV1, StructuredSchema } from "../schemas/standard-schema.ts";
import type { RunnableTool, Tool, ToolDefinition, ToolRunContext } from "../schemas/tool.ts";
import type { ChatCompletionAudioDelta, ChatCompletionChunkError, ChatCompletionImage, ChatCompletionParseParams, ChatCompletionVideo, CreateEmbeddingResponse, Embedding, EmbeddingCreateParams, ImageGenerateParams, ImagesResponse, ParseResponseFormat, ParsedInput, ParsedOutput, ParsedToolCallOf, ReasoningConfig, SpeechCreateParams, ToolRun, ToolRunCall, ToolRunEvent, ToolRunOptions, ToolRunParams, ToolRunResult, ToolRunStep, ToolRunStopReason, Transcription, TranscriptionCreateParams } from "../types/index.ts";
import { VERSION } from "../version.ts";
import { argumentError, invalidArgument } from "../errors/invalid-argument.ts";
import { readEnv } from "../internal/env.ts";
import { isLogLevel, levelledLogger, type Logger } from "../internal/logger.ts";
import { detectRuntime, isBrowserLike } from "../internal/runtime.ts";
import { DEFAULT_MAX_LINE_LENGTH } from "../streaming/sse-decoder.ts";
import type { ClientOptions, Fetch, RequestOptions } from "./options.ts";

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RETRIES = 2;

/** Options of the generic `client.post()` / `put()` / `patch()`. */
export interface BodyRequestOptions extends RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Resolve to a `Stream` of the response's Server-Sent Events instead of parsed JSON. */
  stream?: boolean | undefined;
}

/**
 * The ModelGate client: one base URL and one API key for every model.
 *
 * ```ts
 * const client = new ModelGate({ apiKey, baseURL });
 * const completion = await client.chat.completions.create({ model: "auto", messages });
 * ```
 *
 * @throws ModelGateError when the API key or base URL is missing or malformed, or when
 *   constructed in a browser without `dangerouslyAllowBrowser`.
 */
export class ModelGate {
  // The error classes, reachable from the client class as openai-node users write them:
  // `err instanceof ModelGate.RateLimitError`. The same classes as the named exports.
  static ModelGateError = ModelGateError;
  static APIError = APIError;
  static BadRequestError = BadRequestError;
  static AuthenticationError = AuthenticationError;
  static PaymentRequiredError = PaymentRequiredError;
  static PermissionDeniedError = PermissionDeniedError;
  static NotFoundError = NotFoundError;
  static ConflictError = ConflictError;
  static UnprocessableEntityError = UnprocessableEntityError;
  static RateLimitError = RateLimitError;
  static InternalServerError = InternalServerError;
  static APIConnectionError = APIConnectionError;
  static APIConnectionTimeoutError = APIConnectionTimeoutError;
  static APIUserAbortError = APIUserAbortError;
  static StructuredOutputError = StructuredOutputError;
  static BudgetExceededError = BudgetExceededError;

  /** The service root requests go to (`baseURL` without a trailing `/v1`). */
  readonly baseURL: string;
  /** Milliseconds per attempt; see `ClientOptions.timeout`. */
  readonly timeout: number;
  /** Longest silence between stream events, in milliseconds. */
  readonly streamIdleTimeout: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** `client.chat.completions.create(...)`. */
  readonly chat: Chat;
  /** `client.models.list()` and `retrieve(id)`. */
  readonly models: Models;
  /** `client.embeddings.create({ model, input })`. */
  readonly embeddings: Embeddings;
  /** `client.images.generate({ model, prompt })`. */
  readonly images: Images;
  /** `client.audio.speech.create(...)` and `client.audio.transcriptions.create(...)`. */
  readonly audio: Audio;

  readonly #options: ClientOptions;
  readonly #config: PipelineConfig;

  constructor(options: ClientOptions = {}) {
    if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
      throw new ModelGateError(
        "ModelGate does not run in a browser by default: any visitor could read the API key. " +
          "Call the gateway from a server, or pass `dangerouslyAllowBrowser: true` if the key is the visitor's own.",
      );
    }
    // A key function is never called here: it is asked before each attempt.
    const apiKey = typeof options.apiKey === "function" ? options.apiKey : requiredSetting("apiKey", options.apiKey, "MODELGATE_API_KEY");
    if (typeof apiKey === "string") assertAPIKey(apiKey, "new ModelGate()");
    const baseURL = requiredSetting("baseURL", options.baseURL, "MODELGATE_BASE_URL");
    const { root, search } = serviceRoot(baseURL.trim());
    this.baseURL = root;
    this.timeout = nonNegative("timeout", options.timeout, DEFAULT_TIMEOUT_MS);
    this.streamIdleTimeout = nonNegative("streamIdleTimeout", options.streamIdleTimeout, DEFAULT_STREAM_IDLE_TIMEOUT_MS);
    this.maxRetries = nonNegative("maxRetries", options.maxRetries, DEFAULT_MAX_RETRIES);
    if (!Number.isInteger(this.maxRetries)) throw invalidArgument("maxRetries", "a whole number", this.maxRetries);

    const logLevelFromEnv = readEnv("MODELGATE_LOG");
    const logLevel = options.logLevel ?? (isLogLevel(logLevelFromEnv) ? logLevelFromEnv : "warn");
    const log = levelledLogger(logLevel, options.logger ?? console);
    warnAboutPlainHTTP(this.baseURL, log);

    this.#options = options;
    const redactor = typeof apiKey === "string" ? createRedactor(apiKey) : createRedactor();
    this.#config = {
      apiKey,
      root,
      search,
      fetch: resolveFetch(options.fetch),
      timeout: this.timeout,
      streamIdleTimeout: this.streamIdleTimeout,
      maxRetries: this.maxRetries,
      shrinkToAffordable: trueOrFalse("shrinkToAffordable", options.shrinkToAffordable),
      maxSSELineLength: nonNegative("maxSSELineLength", options.maxSSELineLength, DEFAULT_MAX_LINE_LENGTH),
      headers: [identificationHeaders(), options.defaultHeaders],
      defaultQuery: options.defaultQuery,
      fetchOptions: options.fetchOptions,
      redact: redactor.redact,
      rememberSecret: redactor.remember,
      log,
      debug: logLevel === "debug",
      traceContent: trueOrFalse("traceContent", options.traceContent),
    };
    // Resources get the pipeline and the redactor, not the client.
    const requester = { request: <T>(spec: RequestSpec) => request<T>(this.#config, spec), redact: redactor.redact, timeout: this.timeout };
    this.chat = new Chat(requester);
    this.models = new Models(requester);
    ({ embeddings: this.embeddings, images: this.images, audio: this.audio } = endpointResources(requester));
  }

  /** A new client with some options changed; the rest (API key included) carried over. */
  withOptions(overrides: ClientOptions): ModelGate {
    return new ModelGate({ ...this.#options, ...overrides });
  }

  /** `GET {baseURL}{path}` through the same auth, retries, timeouts and errors as every method. */
  get<T = unknown>(path: string, options?: RequestOptions): APIPromise<T> {
    return this.request({ method: "GET", path, options });
  }

  /**
   * `POST {baseURL}{path}` with `options.body` as JSON, for endpoints without a typed wrapper:
   * `client.post("/v1/images/generations", { body: { model, prompt } })`.
   */
  post<T = unknown>(path: string, options: BodyRequestOptions & { stream: true }): APIPromise<Stream<T>>;
  post<T = unknown>(path: string, options?: BodyRequestOptions & { stream?: false | undefined }): APIPromise<T>;
  post<T = unknown>(path: string, options?: BodyRequestOptions): APIPromise<T | Stream<T>>;
  post<T = unknown>(path: string, options: BodyRequestOptions = {}): APIPromise<T | Stream<T>> {
    return this.#withBody("POST", path, options);
  }

  /** `PUT {baseURL}{path}` with `options.body` as JSON. */
  put<T = unknown>(path: string, options: BodyRequestOptions = {}): APIPromise<T> {
    return this.#withBody("PUT", path, options);
  }

  /** `PATCH {baseURL}{path}` with `options.body` as JSON. */
  patch<T = unknown>(path: string, options: BodyRequestOptions = {}): APIPromise<T> {
    return this.#withBody("PATCH", path, options);
  }

  /** `DELETE {baseURL}{path}`. */
  delete<T = unknown>(path: string, options?: RequestOptions): APIPromise<T> {
    return this.request({ method: "DELETE", path, options });
  }

  /** The one request pipeline every method goes through. */
  request<T>(spec: RequestSpec): APIPromise<T> {
    return request<T>(this.#config, spec);
  }

  /** The key is left out, so logging or serialising a client cannot leak it. */
  toJSON(): Record<string, unknown> {
    return {
      // A key written into the URL's path (some gateways take it there) is cut out too.
      baseURL: this.#config.redact(this.baseURL),
      timeout: this.timeout,
      streamIdleTimeout: this.streamIdleTimeout,
      maxRetries: this.maxRetries,
    };
  }

  toString(): string {
    return `ModelGate(${JSON.stringify(this.toJSON())})`;
  }

  /** Node's `util.inspect` (console.log) shows this instead of the instance's fields. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }

  #withBody<T>(method: "POST" | "PUT" | "PATCH", path: string, options: BodyRequestOptions): APIPromise<T> {
    // Not destructured: from plain JavaScript `options` may be anything, and a mistake must
    // reject the call (the pipeline names it), not throw here.
    if (typeof options !== "object" || options === null) return this.request({ method, path, options: options as RequestOptions });
    const { body, stream, ...rest } = options;
    return this.request({ method, path, body, response: stream === true ? "sse" : "json", options: rest });
  }
}

/**
 * The public types, also reachable through the client class as openai-node users write them:
 * `const messages: ModelGate.ChatCompletionMessageParam[] = [...]`. Types only: nothing here
 * exists at run time. The error classes are statics of the class instead (a static and a
 * namespace member cannot share a name), so `err instanceof ModelGate.APIError` works and
 * the type is the named export `APIError`.
 */
export declare namespace ModelGate {
  /**
   * The chat types under the paths openai's docs use: `ModelGate.Chat.ChatCompletionCreateParams`,
   * `ModelGate.Chat.Completions.ChatCompletionMessageParam` (the same types as `ModelGate.X`).
   */
  export namespace Chat {
    export {
      type ChatCompletion,
      type ChatCompletionAnnotation,
      type ChatCompletionAssistantMessageParam,
      type ChatCompletionAudio,
      type ChatCompletionAudioDelta,
      type ChatCompletionAudioParam,
      type ChatCompletionChoice,
      type ChatCompletionChunk,
      type ChatCompletionChunkChoice,
      type ChatCompletionChunkDelta,
      type ChatCompletionChunkError,
      type ChatCompletionChunkToolCallDelta,
      type ChatCompletionContentPart,
      type ChatCompletionContentPartFile,
      type ChatCompletionContentPartImage,
      type ChatCompletionContentPartInputAudio,
      type ChatCompletionContentPartText,
      type ChatCompletionCreateParams,
      type ChatCompletionCreateParamsBase,
      type ChatCompletionCreateParamsNonStreaming,
      type ChatCompletionCreateParamsStreaming,
      type ChatCompletionDeveloperMessageParam,
      type ChatCompletionImage,
      type ChatCompletionLogprobs,
      type ChatCompletionMessage,
      type ChatCompletionMessageParam,
      type ChatCompletionMessageToolCall,
      type ChatCompletionMessageToolCallParam,
      type ChatCompletionModality,
      type ChatCompletionNamedToolChoice,
      type ChatCompletionParseParams,
      type ChatCompletionPredictionContent,
      type ChatCompletionReasoningEffort,
      type ChatCompletionRole,
      type ChatCompletionStreamOptions,
      type ChatCompletionSystemMessageParam,
      type ChatCompletionTokenLogprob,
      type ChatCompletionTool,
      type ChatCompletionToolChoiceOption,
      type ChatCompletionToolMessageParam,
      type ChatCompletionUserMessageParam,
      type ChatCompletionVideo,
      type ChatModel,
      type ChatRequestOptions,
      type CompletionUsage,
      type FinishReason,
      type FunctionDefinition,
      type ParseOptions,
      type ParsedChatCompletion,
      type ParsedChatCompletionMessage,
      type ParsedChoice,
      type ParsedFunctionToolCall,
      type ParsedToolCall,
      type ReasoningConfig,
      type ResponseFormat,
      type RouteFilters,
    };
    export namespace Completions {
      export {
        type ChatCompletion,
        type ChatCompletionAnnotation,
        type ChatCompletionAssistantMessageParam,
        type ChatCompletionAudio,
        type ChatCompletionAudioDelta,
        type ChatCompletionAudioParam,
        type ChatCompletionChoice,
        type ChatCompletionChunk,
        type ChatCompletionChunkChoice,
        type ChatCompletionChunkDelta,
        type ChatCompletionChunkError,
        type ChatCompletionChunkToolCallDelta,
        type ChatCompletionContentPart,
        type ChatCompletionContentPartFile,
        type ChatCompletionContentPartImage,
        type ChatCompletionContentPartInputAudio,
        type ChatCompletionContentPartText,
        type ChatCompletionCreateParams,
        type ChatCompletionCreateParamsBase,
        type ChatCompletionCreateParamsNonStreaming,
        type ChatCompletionCreateParamsStreaming,
        type ChatCompletionDeveloperMessageParam,
        type ChatCompletionImage,
        type ChatCompletionLogprobs,
        type ChatCompletionMessage,
        type ChatCompletionMessageParam,
        type ChatCompletionMessageToolCall,
        type ChatCompletionMessageToolCallParam,
        type ChatCompletionModality,
        type ChatCompletionNamedToolChoice,
        type ChatCompletionParseParams,
        type ChatCompletionPredictionContent,
        type ChatCompletionReasoningEffort,
        type ChatCompletionRole,
        type ChatCompletionStreamOptions,
        type ChatCompletionSystemMessageParam,
        type ChatCompletionTokenLogprob,
        type ChatCompletionTool,
        type ChatCompletionToolChoiceOption,
        type ChatCompletionToolMessageParam,
        type ChatCompletionUserMessageParam,
        type ChatCompletionVideo,
        type ChatModel,
        type ChatRequestOptions,
        type CompletionUsage,
        type FinishReason,
        type FunctionDefinition,
        type ParseOptions,
        type ParsedChatCompletion,
        type ParsedChatCompletionMessage,
        type ParsedChoice,
        type ParsedFunctionToolCall,
        type ParsedToolCall,
        type ReasoningConfig,
        type ResponseFormat,
        type RouteFilters,
      };
    }
  }
  export {
    type ClientOptions,
    type RequestOptions,
    type Fetch,
    type BodyRequestOptions,
    type APIPromise,
    type WithResponse,
    type Stream,
    type APIErrorInit,
    type Completions,
    type Models,
    type ChatCompletion,
    type ChatCompletionAnnotation,
    type ChatCompletionAssistantMessageParam,
    type ChatCompletionAudio,
    type ChatCompletionAudioParam,
    type ChatCompletionChoice,
    type ChatCompletionChunk,
    type ChatCompletionChunkChoice,
    type ChatCompletionChunkDelta,
    type ChatCompletionChunkToolCallDelta,
    type ChatCompletionContentPart,
    type ChatCompletionContentPartFile,
    type ChatCompletionContentPartImage,
    type ChatCompletionContentPartInputAudio,
    type ChatCompletionContentPartText,
    type ChatCompletionCreateParams,
    type ChatCompletionCreateParamsBase,
    type ChatCompletionCreateParamsNonStreaming,
    type ChatCompletionCreateParamsStreaming,
    type ChatCompletionDeveloperMessageParam,
    type ChatCompletionLogprobs,
    type ChatCompletionMessage,
    type ChatCompletionMessageParam,
    type ChatCompletionMessageToolCall,
    type ChatCompletionMessageToolCallParam,
    type ChatCompletionModality,
    type ChatCompletionNamedToolChoice,
    type ChatCompletionPredictionContent,
    type ChatCompletionReasoningEffort,
    type ChatCompletionRole,
    type ChatCompletionStreamOptions,
    type ChatCompletionSystemMessageParam,
    type ChatCompletionTokenLogprob,
    type ChatCompletionTool,
    type ChatCompletionToolChoiceOption,
    type ChatCompletionToolMessageParam,
    type ChatCompletionUserMessageParam,
    type ChatModel,
    type CompletionUsage,
    type FinishReason,
    type FunctionDefinition,
    type Model,
    type ModelCapability,
    type ModelList,
    type ResponseFormat,
    type RouteFilters,
    type GatewayInfo,
    type ChatRequestOptions,
    type ParseOptions,
    type ParsedChatCompletion,
    type ParsedChatCompletionMessage,
    type ParsedChoice,
    type ParsedFunctionToolCall,
    type ParsedToolCall,
    type StructuredStream,
    type StructuredOutputMode,
    type DeepPartial,
    type LogLevel,
    type Logger,
    type HeadersInput,
    type QueryInput,
    type APIKeyFunction,
    type HTTPMethod,
    type ModelListPromise,
    type Audio,
    type Embeddings,
    type Images,
    type JSONSchemaFormat,
    type JSONSchemaOptions,
    type SchemaIssue,
    type StandardSchemaV1,
    type StandardSchemaIssue,
    type StandardSchemaResult,
    type StandardJSONSchemaConverter,
    type StructuredSchema,
    type SchemaOutput,
    type DecodedDataURL,
    type RunnableTool,
    type Tool,
    type ToolDefinition,
    type ToolRunContext,
    type ReasoningConfig,
    type ChatCompletionAudioDelta,
    type ChatCompletionImage,
    type ChatCompletionVideo,
    type ChatCompletionChunkError,
    type ChatCompletionParseParams,
    type ParsedInput,
    type ParsedOutput,
    type ParsedToolCallOf,
    type ParseResponseFormat,
    type ToolRun,
    type ToolRunCall,
    type ToolRunEvent,
    type ToolRunOptions,
    type ToolRunParams,
    type ToolRunResult,
    type ToolRunStep,
    type ToolRunStopReason,
    type CreateEmbeddingResponse,
    type Embedding,
    type EmbeddingCreateParams,
    type ImageGenerateParams,
    type ImagesResponse,
    type SpeechCreateParams,
    type Transcription,
    type TranscriptionCreateParams,
  };
}

const warnedOrigins = new Set<string>();

/**
 * The key travels in a header: over plain http anyone on the path can read it. Loopback is
 * fine (a local gateway or mock), anything else gets one warning per origin and process.
 */
function warnAboutPlainHTTP(root: string, log: Logger): void {
  const url = new URL(root);
  if (url.protocol !== "http:" || warnedOrigins.has(url.origin)) return;
  const host = url.hostname;
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
  if (loopback) return;
  warnedOrigins.add(url.origin);
  log.warn(`modelgate: baseURL ${url.origin} uses plain http, so the API key is sent unencrypted; use https.`);
}

/** Called through a wrapper: browsers throw "Illegal invocation" for `fetch` detached from `window`. */
function resolveFetch(custom: Fetch | undefined): Fetch {
  if (custom) return custom;
  if (typeof globalThis.fetch !== "function") {
    throw new ModelGateError("No global `fetch` in this runtime; pass one as the `fetch` option.");
  }
  return (input, init) => globalThis.fetch(input, init);
}

function identificationHeaders(): Record<string, string> {
  const runtime = detectRuntime();
  const headers: Record<string, string> = {
    "x-modelgate-sdk": `modelgate-js/${VERSION}`,
    "x-modelgate-runtime": `${runtime.name}/${runtime.version}`,
  };
  // Browsers do not let a page set User-Agent; elsewhere it names the SDK in server logs.
  if (runtime.name !== "browser") headers["user-agent"] = `modelgate-js/${VERSION} (${runtime.name} ${runtime.version})`;
  return headers;
}

/** An option that may come from the environment instead, and must come from one of them. */
function requiredSetting(option: string, value: string | undefined, envName: string): string {
  const resolved = value ?? readEnv(envName);
  if (typeof resolved !== "string" || resolved.trim() === "") {
    throw argumentError(
      option,
      `is missing: pass \`new ModelGate({ ${option} })\` or set the ${envName} environment variable (on Deno, also allow reading it: --allow-env=${envName})`,
    );
  }
  return resolved;
}

function trueOrFalse(name: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== "boolean") throw invalidArgument(name, "true or false", value);
  return value === true;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw invalidArgument(name, "a non-negative number", value);
  return value;
}
