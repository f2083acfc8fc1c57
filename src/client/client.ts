import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  ModelGateError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../errors/index.ts";
import { createRedactor } from "../internal/redact.ts";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { StructuredOutputError } from "../errors/structured-output-error.ts";
import { createAPIPromise, type APIPromise, type WithResponse } from "../pipeline/api-promise.ts";
import type { APIErrorInit } from "../errors/index.ts";
import { assertOptions, callOptionsWith } from "../pipeline/call-options.ts";
import { request, type PipelineConfig, type RequestSpec } from "../pipeline/request.ts";
import { assertAPIKey, type APIKeyFunction } from "../pipeline/auth.ts";
import { serviceRoot } from "../pipeline/url.ts";
import { Chat } from "../resources/chat/chat.ts";
import type { Completions } from "../resources/chat/completions.ts";
import { Models } from "../resources/models.ts";
import { endpointResources, type Audio, type Embeddings, type Images } from "../resources/endpoint-resources.ts";
import type { Stream } from "../streaming/stream.ts";
import { VERSION } from "../version.ts";
import { warnAboutPlainHTTP } from "../logging/plain-http.ts";
import { argumentError, describeKind, invalidArgument, unboundMethodError } from "../errors/invalid-argument.ts";
import { readEnv } from "../internal/env.ts";
import { isRecord } from "../internal/values.ts";
import { isLogLevel, levelledLogger, type LogLevel } from "../logging/logger.ts";
import type { Requester } from "../resources/requester.ts";
import { isBrowserLike, runtimeName } from "../internal/runtime.ts";
import { DEFAULT_MAX_LINE_LENGTH } from "../streaming/line-limit.ts";
import type { ClientOptions, Fetch, RequestOptions } from "./options.ts";

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RETRIES = 2;

/** Options of the generic `client.post()` / `put()` / `patch()`. */
export interface BodyRequestOptions extends RequestOptions {
  /**
   * Sent as JSON; a `ReadableStream` is sent as it is, streamed (`duplex: "half"`), and such
   * a call is never retried or re-sent: a stream can be read once only.
   */
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
  /** The `ModelGateError` class (the same as the named export): `err instanceof ModelGate.ModelGateError`. */
  static ModelGateError = ModelGateError;
  /** The `APIError` class (the same as the named export): `err instanceof ModelGate.APIError`. */
  static APIError = APIError;
  /** The `BadRequestError` class (the same as the named export): `err instanceof ModelGate.BadRequestError`. */
  static BadRequestError = BadRequestError;
  /** The `AuthenticationError` class (the same as the named export): `err instanceof ModelGate.AuthenticationError`. */
  static AuthenticationError = AuthenticationError;
  /** The `PaymentRequiredError` class (the same as the named export): `err instanceof ModelGate.PaymentRequiredError`. */
  static PaymentRequiredError = PaymentRequiredError;
  /** The `PermissionDeniedError` class (the same as the named export): `err instanceof ModelGate.PermissionDeniedError`. */
  static PermissionDeniedError = PermissionDeniedError;
  /** The `NotFoundError` class (the same as the named export): `err instanceof ModelGate.NotFoundError`. */
  static NotFoundError = NotFoundError;
  /** The `ConflictError` class (the same as the named export): `err instanceof ModelGate.ConflictError`. */
  static ConflictError = ConflictError;
  /** The `UnprocessableEntityError` class (the same as the named export): `err instanceof ModelGate.UnprocessableEntityError`. */
  static UnprocessableEntityError = UnprocessableEntityError;
  /** The `RateLimitError` class (the same as the named export): `err instanceof ModelGate.RateLimitError`. */
  static RateLimitError = RateLimitError;
  /** The `InternalServerError` class (the same as the named export): `err instanceof ModelGate.InternalServerError`. */
  static InternalServerError = InternalServerError;
  /** The `APIConnectionError` class (the same as the named export): `err instanceof ModelGate.APIConnectionError`. */
  static APIConnectionError = APIConnectionError;
  /** The `APIConnectionTimeoutError` class (the same as the named export): `err instanceof ModelGate.APIConnectionTimeoutError`. */
  static APIConnectionTimeoutError = APIConnectionTimeoutError;
  /** The `APIUserAbortError` class (the same as the named export): `err instanceof ModelGate.APIUserAbortError`. */
  static APIUserAbortError = APIUserAbortError;
  /** The `StructuredOutputError` class (the same as the named export): `err instanceof ModelGate.StructuredOutputError`. */
  static StructuredOutputError = StructuredOutputError;
  /** The `BudgetExceededError` class (the same as the named export): `err instanceof ModelGate.BudgetExceededError`. */
  static BudgetExceededError = BudgetExceededError;

  /**
   * The `baseURL` option as given, or as read from `MODELGATE_BASE_URL`: not normalised, as
   * openai's reads back (`"https://host/v1"` stays so). Requests go to the service root it
   * names, the trailing `/v1` dropped so that a path is never prefixed twice.
   */
  declare readonly baseURL: string;
  /** Milliseconds per attempt; see `ClientOptions.timeout`. */
  declare readonly timeout: number;
  /** Longest silence between stream events, in milliseconds. */
  declare readonly streamIdleTimeout: number;
  /** Retries after the first attempt. */
  declare readonly maxRetries: number;
  /** The log level in use: the `logLevel` option, else `MODELGATE_LOG`, else `"warn"`. */
  declare readonly logLevel: LogLevel;
  /** `client.chat.completions.create(...)`. */
  declare readonly chat: Chat;
  /** `client.models.list()` and `retrieve(id)`. */
  declare readonly models: Models;
  /** `client.embeddings.create({ model, input })`. */
  declare readonly embeddings: Embeddings;
  /** `client.images.generate({ model, prompt })`. */
  declare readonly images: Images;
  /** `client.audio.speech.create(...)` and `client.audio.transcriptions.create(...)`. */
  declare readonly audio: Audio;

  /** The options this client was made with, its `apiKey`, `baseURL` and `logLevel` as resolved. */
  readonly #options: ClientOptions;
  readonly #config: PipelineConfig;
  readonly #requester: Requester;

  /**
   * A client for one gateway and key; every option may be left out (see `ClientOptions` for
   * each default and environment variable).
   * @throws ModelGateError when there is no API key or base URL (none given and none in the
   * environment), when an option is malformed, or in a browser-like runtime without
   * `dangerouslyAllowBrowser: true`.
   */
  constructor(options: ClientOptions = {}) {
    assertObject(options);
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
    const redactor = typeof apiKey === "string" ? createRedactor(apiKey) : createRedactor();
    assertOptions(options, redactor.redact, "client");
    this.baseURL = baseURL;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.streamIdleTimeout = options.streamIdleTimeout ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;

    const logLevelFromEnv = readEnv("MODELGATE_LOG");
    const logLevel = options.logLevel ?? (isLogLevel(logLevelFromEnv) ? logLevelFromEnv : "warn");
    this.logLevel = logLevel;
    const log = levelledLogger(logLevel, options.logger ?? console);
    warnAboutPlainHTTP(root, log);

    // What this client resolved, for a clone to start from: a `baseURL`, key or log level read
    // from the environment is not read again, so a `MODELGATE_BASE_URL` changed since never
    // receives this client's key.
    const resolved = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: true, configurable: true });
    this.#options = Object.create(options, { apiKey: resolved(apiKey), baseURL: resolved(baseURL), logLevel: resolved(logLevel) }) as ClientOptions;
    this.#config = {
      apiKey,
      root,
      search,
      fetch: resolveFetch(options.fetch),
      middleware: options.middleware ?? [],
      timeout: this.timeout,
      streamIdleTimeout: this.streamIdleTimeout,
      maxRetries: this.maxRetries,
      shrinkToAffordable: options.shrinkToAffordable === true,
      maxSSELineLength: options.maxSSELineLength ?? DEFAULT_MAX_LINE_LENGTH,
      headers: [identificationHeaders(), options.defaultHeaders],
      query: [options.defaultQuery],
      fetchOptions: options.fetchOptions,
      redact: redactor.redact,
      rememberSecret: redactor.remember,
      log,
      debug: logLevel === "debug",
      traceContent: options.traceContent === true,
    };
    // Resources get the pipeline and the redactor, not the client.
    const requester = (this.#requester = { request: <T>(spec: RequestSpec) => request<T>(this.#config, spec), redact: redactor.redact, timeout: this.timeout, log, cache: {} });
    this.chat = new Chat(requester);
    this.models = new Models(requester);
    ({ embeddings: this.embeddings, images: this.images, audio: this.audio } = endpointResources(requester));
    clients.add(this);
  }

  /**
   * A new client with some options changed, e.g. one per tenant:
   * `client.withOptions({ defaultHeaders: { "x-tenant": id } })`. `defaultHeaders` and
   * `defaultQuery` merge by name over this client's (`null` removes one); every other option
   * given replaces this client's, and one not given (`undefined` or `null`) is this client's,
   * `fetch`, `apiKey` and `baseURL` included, as this client resolved them: one it read from
   * the environment is not read again (this client's key must not go to a `MODELGATE_BASE_URL`
   * set since, and `null` never reaches for the environment either). While `baseURL`, `apiKey`, `defaultHeaders` and `defaultQuery` stay
   * as they are, both share the model catalogue `maxCost` fetches. This client is unchanged.
   *
   * @throws ModelGateError for a bad override, as `new ModelGate()` does
   */
  withOptions(overrides: ClientOptions): ModelGate {
    if (!isClient(this)) throw unboundMethodError("client.withOptions");
    assertObject(overrides);
    const given = definedOnly(overrides);
    // Over this client's options, not a spread of them: a `baseURL` or `apiKey` this client read
    // from a prototype or a getter must stay its own, not fall back to the environment's. Made
    // by this client's own class, as openai's is (a subclass's client stays one).
    const client = new (this.constructor as typeof ModelGate)(Object.assign(Object.create(this.#options), given));
    const [mine, theirs] = [this.#config, client.#config];
    // Layered over this client's, as a call's headers and query are: a name given replaces,
    // `null` removes, `undefined` leaves (checked like any layer, when a request is built).
    theirs.headers = [...mine.headers, given.defaultHeaders];
    theirs.query = [...mine.query, given.defaultQuery];
    // Same gateway, key, headers and query: the same catalogue (its cache is kept by `cache`).
    if (mine.root === theirs.root && mine.search === theirs.search && mine.apiKey === theirs.apiKey && changesNothing(given.defaultHeaders) && changesNothing(given.defaultQuery)) {
      client.#requester.cache = this.#requester.cache;
    }
    return client;
  }

  /**
   * The API key in use (the `apiKey` option, or `MODELGATE_API_KEY`), or the `apiKey` function
   * itself, which is never called to read this. A getter on the class, not a field: the key
   * stays out of `util.inspect` (with `showHidden` and `getters` too), `JSON.stringify` and
   * every error. (openai's is an own property, `null` for a key function until its first call.)
   */
  get apiKey(): string | APIKeyFunction {
    return this.#config.apiKey;
  }

  /** `GET {baseURL}{path}` through the same auth, retries, timeouts and errors as every method. */
  get<T = unknown>(path: string, options?: RequestOptions): APIPromise<T> {
    if (!isClient(this)) return unboundCall("client.get");
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
    if (!isClient(this)) return unboundCall("client.post");
    return this.#withBody("POST", path, options);
  }

  /** `PUT {baseURL}{path}` with `options.body` as JSON. */
  put<T = unknown>(path: string, options: BodyRequestOptions = {}): APIPromise<T> {
    if (!isClient(this)) return unboundCall("client.put");
    return this.#withBody("PUT", path, options);
  }

  /** `PATCH {baseURL}{path}` with `options.body` as JSON. */
  patch<T = unknown>(path: string, options: BodyRequestOptions = {}): APIPromise<T> {
    if (!isClient(this)) return unboundCall("client.patch");
    return this.#withBody("PATCH", path, options);
  }

  /** `DELETE {baseURL}{path}`. */
  delete<T = unknown>(path: string, options?: RequestOptions): APIPromise<T> {
    if (!isClient(this)) return unboundCall("client.delete");
    return this.request({ method: "DELETE", path, options });
  }

  /** The one request pipeline every method goes through. */
  request<T>(spec: RequestSpec): APIPromise<T> {
    if (!isClient(this)) return unboundCall("client.request");
    // From plain JavaScript: named, not met as a TypeError of reading its fields.
    if (!isRecord(spec)) return createAPIPromise(Promise.reject(invalidArgument("spec", "a request: { method, path, body?, options? }", spec)));
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

  /** `ModelGate({...})` with the options `toJSON()` shows: never the API key. */
  toString(): string {
    return `ModelGate(${JSON.stringify(this.toJSON())})`;
  }

  /** Node's `util.inspect` (console.log) shows this instead of the instance's fields. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }

  #withBody<T>(method: "POST" | "PUT" | "PATCH", path: string, options: BodyRequestOptions): APIPromise<T> {
    // From plain JavaScript `options` may be anything, and a mistake must reject the call, not
    // throw here: what is no options object (an array, a string), the pipeline names.
    if (!isRecord(options)) return this.request({ method, path, options: options as RequestOptions });
    let spec: RequestSpec;
    try {
      // The options read into a copy (a getter's or a Proxy's too), less the two that are not call options.
      const { body, stream, ...rest } = callOptionsWith(options, { body: (options as { body?: unknown }).body, stream: (options as { stream?: unknown }).stream });
      spec = { method, path, body, response: stream === true ? "sse" : "json", options: rest as RequestOptions };
    } catch (error) {
      // A getter of plain JavaScript's options that throws: the call rejects, never throws.
      return createAPIPromise(Promise.reject(error));
    }
    return this.request(spec);
  }
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
  // Browsers do not let a page set User-Agent (and send their own); elsewhere it names the SDK
  // and the runtime in server logs. One header, not three: a gateway's logs need no more.
  return isBrowserLike() ? { "x-modelgate-sdk": `modelgate-js/${VERSION}` } : { "user-agent": `modelgate-js/${VERSION} (${runtimeName()})` };
}

/**
 * The clients made, for `isClient`: a Proxy of one, or an object made from one with
 * `Object.create`, passes `instanceof` but holds none of its private fields.
 */
const clients = /* @__PURE__ */ new WeakSet<object>();

/**
 * Whether a method was called on a client (not detached from it, nor on a stand-in for it).
 * Outside the class, as `isCompletions` is: a class that names itself in its own body is
 * emitted as `class _ModelGate`.
 */
function isClient(self: unknown): self is ModelGate {
  return clients.has(self as object);
}

/** The rejected call of a method called without its client (`["/v1/models"].map(client.get)`). */
function unboundCall<T>(method: string): APIPromise<T> {
  return createAPIPromise(Promise.reject(unboundMethodError(method)));
}

/** An option that may come from the environment instead, and must come from one of them. */
function requiredSetting(option: string, value: string | undefined, envName: string): string {
  // Given, but not as text (plain JavaScript): named by its kind only, since a key given as a
  // number is a key all the same.
  if (value != null && typeof value !== "string") {
    throw argumentError(option, `must be a string${option === "apiKey" ? " (or a function that returns one)" : ""}; got ${describeKind(value)}`);
  }
  const resolved = value ?? readEnv(envName);
  if (typeof resolved !== "string" || resolved.trim() === "") {
    throw argumentError(
      option,
      `is missing: pass \`new ModelGate({ ${option} })\` or set the ${envName} environment variable (on Deno, also allow reading it: --allow-env=${envName})`,
    );
  }
  return resolved;
}

/** A `defaultHeaders` or `defaultQuery` override that changes nothing (none, or `{}`), so the catalogue stays shared. */
function changesNothing(layer: unknown): boolean {
  return !layer || (layer.constructor === Object && !Object.keys(layer)[0]);
}

/**
 * Options must be an object. A string given instead is most likely the key itself
 * (`new ModelGate(key)`): it is cut out of the error whole, like the key.
 */
function assertObject(options: unknown): void {
  if (!isRecord(options)) assertOptions(options, createRedactor(typeof options === "string" ? options : "").redact);
}

/** The fields given a value: an `undefined` or `null` override leaves the original's. */
function definedOnly(options: ClientOptions): ClientOptions {
  return Object.fromEntries(Object.entries(options ?? {}).filter((entry) => entry[1] != null));
}

// The type namespace, written by scripts/write-namespace.mjs from what src/index.ts
// exports (`npm run build` and `npm run typecheck` write it): export a public type there, and
// it is here too. It stays at the end of this file, where the class it merges with is declared.
import type { APIErrorInit as _APIErrorInit } from "../errors/api-error.ts";
import type { LogLevel as _LogLevel, Logger as _Logger } from "../logging/logger.ts";
import type { DecodedDataURL as _DecodedDataURL } from "../media/data-url.ts";
import type {
  ResponseLike as _ResponseLike, ToFileInput as _ToFileInput, ToFileOptions as _ToFileOptions,
  Uploadable as _Uploadable,
} from "../media/to-file.ts";
import type { APIPromise as _APIPromise, WithResponse as _WithResponse } from "../pipeline/api-promise.ts";
import type { APIKeyFunction as _APIKeyFunction } from "../pipeline/auth.ts";
import type {
  Fetch as _Fetch, HeadersInput as _HeadersInput, Middleware as _Middleware, MiddlewareContext as _MiddlewareContext,
  MiddlewareNext as _MiddlewareNext, QueryInput as _QueryInput, RequestOptions as _RequestOptions,
} from "../pipeline/options.ts";
import type { HTTPMethod as _HTTPMethod } from "../pipeline/request.ts";
import type { ChatCompletionStream as _ChatCompletionStream } from "../resources/chat/chat-completion-stream.ts";
import type { Completions as _Completions } from "../resources/chat/completions.ts";
import type { Messages as _Messages } from "../resources/chat/messages.ts";
import type { CursorPagePromise as _CursorPagePromise } from "../resources/chat/stored.ts";
import type { Audio as _Audio, Embeddings as _Embeddings, Images as _Images } from "../resources/endpoint-resources.ts";
import type { ModelListPromise as _ModelListPromise, Models as _Models } from "../resources/models.ts";
import type {
  JSONSchemaFormat as _JSONSchemaFormat, JSONSchemaOptions as _JSONSchemaOptions,
} from "../schemas/json-schema.ts";
import type { SchemaIssue as _SchemaIssue } from "../schemas/schema-source.ts";
import type {
  SchemaOutput as _SchemaOutput, StandardJSONSchemaConverter as _StandardJSONSchemaConverter,
  StandardSchemaIssue as _StandardSchemaIssue, StandardSchemaResult as _StandardSchemaResult,
  StandardSchemaV1 as _StandardSchemaV1, StructuredSchema as _StructuredSchema,
} from "../schemas/standard-schema.ts";
import type {
  RunnableTool as _RunnableTool, Tool as _Tool, ToolDefinition as _ToolDefinition, ToolRunContext as _ToolRunContext,
} from "../schemas/tool.ts";
import type { Stream as _Stream } from "../streaming/stream.ts";
import type {
  ChatCompletion as _ChatCompletion, ChatCompletionAnnotation as _ChatCompletionAnnotation,
  ChatCompletionAudio as _ChatCompletionAudio, ChatCompletionAudioDelta as _ChatCompletionAudioDelta,
  ChatCompletionChoice as _ChatCompletionChoice, ChatCompletionChunk as _ChatCompletionChunk,
  ChatCompletionChunkChoice as _ChatCompletionChunkChoice, ChatCompletionChunkDelta as _ChatCompletionChunkDelta,
  ChatCompletionChunkError as _ChatCompletionChunkError,
  ChatCompletionChunkToolCallDelta as _ChatCompletionChunkToolCallDelta, ChatCompletionImage as _ChatCompletionImage,
  ChatCompletionLogprobs as _ChatCompletionLogprobs, ChatCompletionMessage as _ChatCompletionMessage,
  ChatCompletionMessageCustomToolCall as _ChatCompletionMessageCustomToolCall,
  ChatCompletionMessageFunctionToolCall as _ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageToolCall as _ChatCompletionMessageToolCall,
  ChatCompletionReasoningDetail as _ChatCompletionReasoningDetail,
  ChatCompletionResponseContentPart as _ChatCompletionResponseContentPart,
  ChatCompletionTokenLogprob as _ChatCompletionTokenLogprob, ChatCompletionVideo as _ChatCompletionVideo,
  CompletionUsage as _CompletionUsage, FinishReason as _FinishReason, GatewayInfo as _GatewayInfo,
} from "../types/chat-completion.ts";
import type {
  ChatCompletionAllowedToolChoice as _ChatCompletionAllowedToolChoice,
  ChatCompletionAllowedTools as _ChatCompletionAllowedTools,
  ChatCompletionAssistantMessageParam as _ChatCompletionAssistantMessageParam,
  ChatCompletionAudioParam as _ChatCompletionAudioParam, ChatCompletionContentPart as _ChatCompletionContentPart,
  ChatCompletionContentPartFile as _ChatCompletionContentPartFile,
  ChatCompletionContentPartImage as _ChatCompletionContentPartImage,
  ChatCompletionContentPartInputAudio as _ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartRefusal as _ChatCompletionContentPartRefusal,
  ChatCompletionContentPartText as _ChatCompletionContentPartText,
  ChatCompletionCreateParams as _ChatCompletionCreateParams,
  ChatCompletionCreateParamsBase as _ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming as _ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming as _ChatCompletionCreateParamsStreaming,
  ChatCompletionCustomTool as _ChatCompletionCustomTool,
  ChatCompletionDeveloperMessageParam as _ChatCompletionDeveloperMessageParam,
  ChatCompletionFunctionCall as _ChatCompletionFunctionCall,
  ChatCompletionFunctionCallOption as _ChatCompletionFunctionCallOption,
  ChatCompletionFunctionMessageParam as _ChatCompletionFunctionMessageParam,
  ChatCompletionFunctionTool as _ChatCompletionFunctionTool, ChatCompletionMessageParam as _ChatCompletionMessageParam,
  ChatCompletionMessageToolCallParam as _ChatCompletionMessageToolCallParam,
  ChatCompletionModality as _ChatCompletionModality, ChatCompletionNamedToolChoice as _ChatCompletionNamedToolChoice,
  ChatCompletionNamedToolChoiceCustom as _ChatCompletionNamedToolChoiceCustom,
  ChatCompletionPredictionContent as _ChatCompletionPredictionContent,
  ChatCompletionReasoningEffort as _ChatCompletionReasoningEffort, ChatCompletionRole as _ChatCompletionRole,
  ChatCompletionStreamOptions as _ChatCompletionStreamOptions,
  ChatCompletionSystemMessageParam as _ChatCompletionSystemMessageParam, ChatCompletionTool as _ChatCompletionTool,
  ChatCompletionToolChoiceOption as _ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam as _ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam as _ChatCompletionUserMessageParam, ChatModel as _ChatModel,
  FunctionDefinition as _FunctionDefinition, ReasoningConfig as _ReasoningConfig, ResponseFormat as _ResponseFormat,
  RouteFilters as _RouteFilters,
} from "../types/chat-params.ts";
import type {
  CreateEmbeddingResponse as _CreateEmbeddingResponse, Embedding as _Embedding,
  EmbeddingCreateParams as _EmbeddingCreateParams, Image as _Image, ImageEditCompletedEvent as _ImageEditCompletedEvent,
  ImageEditParams as _ImageEditParams, ImageEditParamsNonStreaming as _ImageEditParamsNonStreaming,
  ImageEditParamsStreaming as _ImageEditParamsStreaming, ImageEditPartialImageEvent as _ImageEditPartialImageEvent,
  ImageEditStreamEvent as _ImageEditStreamEvent, ImageGenCompletedEvent as _ImageGenCompletedEvent,
  ImageGenPartialImageEvent as _ImageGenPartialImageEvent, ImageGenStreamEvent as _ImageGenStreamEvent,
  ImageGenerateParams as _ImageGenerateParams, ImageGenerateParamsNonStreaming as _ImageGenerateParamsNonStreaming,
  ImageGenerateParamsStreaming as _ImageGenerateParamsStreaming, ImagesResponse as _ImagesResponse,
  ImagesUsage as _ImagesUsage, SpeechCreateParams as _SpeechCreateParams, Transcription as _Transcription,
  TranscriptionCreateParams as _TranscriptionCreateParams, Translation as _Translation,
  TranslationCreateParams as _TranslationCreateParams,
} from "../types/endpoints.ts";
import type {
  ChatCompletionDeltaEvents as _ChatCompletionDeltaEvents, ChatCompletionRunnerEvents as _ChatCompletionRunnerEvents,
  ChatCompletionSnapshot as _ChatCompletionSnapshot, ChatCompletionSnapshotChoice as _ChatCompletionSnapshotChoice,
  ChatCompletionStreamEvents as _ChatCompletionStreamEvents, ContentDeltaEvent as _ContentDeltaEvent,
  ContentDoneEvent as _ContentDoneEvent, EmittedValue as _EmittedValue, EventParameters as _EventParameters,
  FunctionToolCall as _FunctionToolCall, FunctionToolCallArgumentsDeltaEvent as _FunctionToolCallArgumentsDeltaEvent,
  FunctionToolCallArgumentsDoneEvent as _FunctionToolCallArgumentsDoneEvent, HelperEventEmitter as _HelperEventEmitter,
  HelperFinalValues as _HelperFinalValues, LogProbsContentDeltaEvent as _LogProbsContentDeltaEvent,
  LogProbsContentDoneEvent as _LogProbsContentDoneEvent, LogProbsRefusalDeltaEvent as _LogProbsRefusalDeltaEvent,
  LogProbsRefusalDoneEvent as _LogProbsRefusalDoneEvent, RefusalDeltaEvent as _RefusalDeltaEvent,
  RefusalDoneEvent as _RefusalDoneEvent, ToolRunnerEvents as _ToolRunnerEvents,
} from "../types/helper-events.ts";
import type { Model as _Model, ModelCapability as _ModelCapability, ModelList as _ModelList } from "../types/models.ts";
import type {
  ChatCompletionDeleted as _ChatCompletionDeleted, ChatCompletionListParams as _ChatCompletionListParams,
  ChatCompletionStoreMessage as _ChatCompletionStoreMessage,
  ChatCompletionStoreMessagesPage as _ChatCompletionStoreMessagesPage,
  ChatCompletionUpdateParams as _ChatCompletionUpdateParams, ChatCompletionsPage as _ChatCompletionsPage,
  CursorPage as _CursorPage, CursorPageParams as _CursorPageParams, MessageListParams as _MessageListParams,
} from "../types/stored-completions.ts";
import type {
  ChatCompletionParseParams as _ChatCompletionParseParams, ChatRequestOptions as _ChatRequestOptions,
  DeepPartial as _DeepPartial, ParseOptions as _ParseOptions, ParseResponseFormat as _ParseResponseFormat,
  ParsedChatCompletion as _ParsedChatCompletion, ParsedChatCompletionMessage as _ParsedChatCompletionMessage,
  ParsedChoice as _ParsedChoice, ParsedFunctionToolCall as _ParsedFunctionToolCall, ParsedInput as _ParsedInput,
  ParsedOutput as _ParsedOutput, ParsedToolCall as _ParsedToolCall, ParsedToolCallOf as _ParsedToolCallOf,
  StructuredOutputMode as _StructuredOutputMode, StructuredStream as _StructuredStream,
} from "../types/structured.ts";
import type {
  OpenAIParseableTool as _OpenAIParseableTool, RunnableFunction as _RunnableFunction,
  RunnableFunctionWithParse as _RunnableFunctionWithParse,
  RunnableFunctionWithoutParse as _RunnableFunctionWithoutParse, RunnableToolFunction as _RunnableToolFunction,
  RunnableToolFunctionWithContext as _RunnableToolFunctionWithContext,
  RunnableToolFunctionWithParse as _RunnableToolFunctionWithParse,
  RunnableToolFunctionWithoutParse as _RunnableToolFunctionWithoutParse, ToolRun as _ToolRun,
  ToolRunCall as _ToolRunCall, ToolRunEvent as _ToolRunEvent, ToolRunOptions as _ToolRunOptions,
  ToolRunParams as _ToolRunParams, ToolRunResult as _ToolRunResult, ToolRunStep as _ToolRunStep,
  ToolRunStopReason as _ToolRunStopReason, ToolRunTool as _ToolRunTool,
} from "../types/tool-runner.ts";
import type { ClientOptions as _ClientOptions } from "./options.ts";

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
      type _ChatCompletion as ChatCompletion, type _ChatCompletionAllowedToolChoice as ChatCompletionAllowedToolChoice,
      type _ChatCompletionAllowedTools as ChatCompletionAllowedTools,
      type _ChatCompletionAnnotation as ChatCompletionAnnotation,
      type _ChatCompletionAssistantMessageParam as ChatCompletionAssistantMessageParam,
      type _ChatCompletionAudio as ChatCompletionAudio, type _ChatCompletionAudioDelta as ChatCompletionAudioDelta,
      type _ChatCompletionAudioParam as ChatCompletionAudioParam, type _ChatCompletionChoice as ChatCompletionChoice,
      type _ChatCompletionChunk as ChatCompletionChunk, type _ChatCompletionChunkChoice as ChatCompletionChunkChoice,
      type _ChatCompletionChunkDelta as ChatCompletionChunkDelta,
      type _ChatCompletionChunkError as ChatCompletionChunkError,
      type _ChatCompletionChunkToolCallDelta as ChatCompletionChunkToolCallDelta,
      type _ChatCompletionContentPart as ChatCompletionContentPart,
      type _ChatCompletionContentPartFile as ChatCompletionContentPartFile,
      type _ChatCompletionContentPartImage as ChatCompletionContentPartImage,
      type _ChatCompletionContentPartInputAudio as ChatCompletionContentPartInputAudio,
      type _ChatCompletionContentPartRefusal as ChatCompletionContentPartRefusal,
      type _ChatCompletionContentPartText as ChatCompletionContentPartText,
      type _ChatCompletionCreateParams as ChatCompletionCreateParams,
      type _ChatCompletionCreateParamsBase as ChatCompletionCreateParamsBase,
      type _ChatCompletionCreateParamsNonStreaming as ChatCompletionCreateParamsNonStreaming,
      type _ChatCompletionCreateParamsStreaming as ChatCompletionCreateParamsStreaming,
      type _ChatCompletionCustomTool as ChatCompletionCustomTool, type _ChatCompletionDeleted as ChatCompletionDeleted,
      type _ChatCompletionDeveloperMessageParam as ChatCompletionDeveloperMessageParam,
      type _ChatCompletionFunctionCall as ChatCompletionFunctionCall,
      type _ChatCompletionFunctionCallOption as ChatCompletionFunctionCallOption,
      type _ChatCompletionFunctionMessageParam as ChatCompletionFunctionMessageParam,
      type _ChatCompletionFunctionTool as ChatCompletionFunctionTool, type _ChatCompletionImage as ChatCompletionImage,
      type _ChatCompletionListParams as ChatCompletionListParams,
      type _ChatCompletionLogprobs as ChatCompletionLogprobs, type _ChatCompletionMessage as ChatCompletionMessage,
      type _ChatCompletionMessageCustomToolCall as ChatCompletionMessageCustomToolCall,
      type _ChatCompletionMessageFunctionToolCall as ChatCompletionMessageFunctionToolCall,
      type _ChatCompletionMessageParam as ChatCompletionMessageParam,
      type _ChatCompletionMessageToolCall as ChatCompletionMessageToolCall,
      type _ChatCompletionMessageToolCallParam as ChatCompletionMessageToolCallParam,
      type _ChatCompletionModality as ChatCompletionModality,
      type _ChatCompletionNamedToolChoice as ChatCompletionNamedToolChoice,
      type _ChatCompletionNamedToolChoiceCustom as ChatCompletionNamedToolChoiceCustom,
      type _ChatCompletionParseParams as ChatCompletionParseParams,
      type _ChatCompletionPredictionContent as ChatCompletionPredictionContent,
      type _ChatCompletionReasoningDetail as ChatCompletionReasoningDetail,
      type _ChatCompletionReasoningEffort as ChatCompletionReasoningEffort,
      type _ChatCompletionResponseContentPart as ChatCompletionResponseContentPart,
      type _ChatCompletionRole as ChatCompletionRole, type _ChatCompletionStoreMessage as ChatCompletionStoreMessage,
      type _ChatCompletionStoreMessagesPage as ChatCompletionStoreMessagesPage,
      type _ChatCompletionStreamOptions as ChatCompletionStreamOptions,
      type _ChatCompletionSystemMessageParam as ChatCompletionSystemMessageParam,
      type _ChatCompletionTokenLogprob as ChatCompletionTokenLogprob, type _ChatCompletionTool as ChatCompletionTool,
      type _ChatCompletionToolChoiceOption as ChatCompletionToolChoiceOption,
      type _ChatCompletionToolMessageParam as ChatCompletionToolMessageParam,
      type _ChatCompletionUpdateParams as ChatCompletionUpdateParams,
      type _ChatCompletionUserMessageParam as ChatCompletionUserMessageParam,
      type _ChatCompletionVideo as ChatCompletionVideo, type _ChatCompletionsPage as ChatCompletionsPage,
      type _ChatModel as ChatModel, type _ChatRequestOptions as ChatRequestOptions,
      type _CompletionUsage as CompletionUsage, type _CursorPage as CursorPage,
      type _CursorPageParams as CursorPageParams, type _DeepPartial as DeepPartial, type _FinishReason as FinishReason,
      type _FunctionDefinition as FunctionDefinition, type _GatewayInfo as GatewayInfo,
      type _MessageListParams as MessageListParams, type _Messages as Messages, type _ParseOptions as ParseOptions,
      type _ParseResponseFormat as ParseResponseFormat, type _ParsedChatCompletion as ParsedChatCompletion,
      type _ParsedChatCompletionMessage as ParsedChatCompletionMessage, type _ParsedChoice as ParsedChoice,
      type _ParsedFunctionToolCall as ParsedFunctionToolCall, type _ParsedInput as ParsedInput,
      type _ParsedOutput as ParsedOutput, type _ParsedToolCall as ParsedToolCall,
      type _ParsedToolCallOf as ParsedToolCallOf, type _ReasoningConfig as ReasoningConfig,
      type _ResponseFormat as ResponseFormat, type _RouteFilters as RouteFilters,
      type _StructuredOutputMode as StructuredOutputMode, type _StructuredStream as StructuredStream,
    };
    /** The same chat types again, as `ModelGate.Chat.Completions.X` (openai's older paths). */
    export namespace Completions {
      export {
        type _ChatCompletion as ChatCompletion,
        type _ChatCompletionAllowedToolChoice as ChatCompletionAllowedToolChoice,
        type _ChatCompletionAllowedTools as ChatCompletionAllowedTools,
        type _ChatCompletionAnnotation as ChatCompletionAnnotation,
        type _ChatCompletionAssistantMessageParam as ChatCompletionAssistantMessageParam,
        type _ChatCompletionAudio as ChatCompletionAudio, type _ChatCompletionAudioDelta as ChatCompletionAudioDelta,
        type _ChatCompletionAudioParam as ChatCompletionAudioParam, type _ChatCompletionChoice as ChatCompletionChoice,
        type _ChatCompletionChunk as ChatCompletionChunk, type _ChatCompletionChunkChoice as ChatCompletionChunkChoice,
        type _ChatCompletionChunkDelta as ChatCompletionChunkDelta,
        type _ChatCompletionChunkError as ChatCompletionChunkError,
        type _ChatCompletionChunkToolCallDelta as ChatCompletionChunkToolCallDelta,
        type _ChatCompletionContentPart as ChatCompletionContentPart,
        type _ChatCompletionContentPartFile as ChatCompletionContentPartFile,
        type _ChatCompletionContentPartImage as ChatCompletionContentPartImage,
        type _ChatCompletionContentPartInputAudio as ChatCompletionContentPartInputAudio,
        type _ChatCompletionContentPartRefusal as ChatCompletionContentPartRefusal,
        type _ChatCompletionContentPartText as ChatCompletionContentPartText,
        type _ChatCompletionCreateParams as ChatCompletionCreateParams,
        type _ChatCompletionCreateParamsBase as ChatCompletionCreateParamsBase,
        type _ChatCompletionCreateParamsNonStreaming as ChatCompletionCreateParamsNonStreaming,
        type _ChatCompletionCreateParamsStreaming as ChatCompletionCreateParamsStreaming,
        type _ChatCompletionCustomTool as ChatCompletionCustomTool,
        type _ChatCompletionDeleted as ChatCompletionDeleted,
        type _ChatCompletionDeveloperMessageParam as ChatCompletionDeveloperMessageParam,
        type _ChatCompletionFunctionCall as ChatCompletionFunctionCall,
        type _ChatCompletionFunctionCallOption as ChatCompletionFunctionCallOption,
        type _ChatCompletionFunctionMessageParam as ChatCompletionFunctionMessageParam,
        type _ChatCompletionFunctionTool as ChatCompletionFunctionTool,
        type _ChatCompletionImage as ChatCompletionImage, type _ChatCompletionListParams as ChatCompletionListParams,
        type _ChatCompletionLogprobs as ChatCompletionLogprobs, type _ChatCompletionMessage as ChatCompletionMessage,
        type _ChatCompletionMessageCustomToolCall as ChatCompletionMessageCustomToolCall,
        type _ChatCompletionMessageFunctionToolCall as ChatCompletionMessageFunctionToolCall,
        type _ChatCompletionMessageParam as ChatCompletionMessageParam,
        type _ChatCompletionMessageToolCall as ChatCompletionMessageToolCall,
        type _ChatCompletionMessageToolCallParam as ChatCompletionMessageToolCallParam,
        type _ChatCompletionModality as ChatCompletionModality,
        type _ChatCompletionNamedToolChoice as ChatCompletionNamedToolChoice,
        type _ChatCompletionNamedToolChoiceCustom as ChatCompletionNamedToolChoiceCustom,
        type _ChatCompletionParseParams as ChatCompletionParseParams,
        type _ChatCompletionPredictionContent as ChatCompletionPredictionContent,
        type _ChatCompletionReasoningDetail as ChatCompletionReasoningDetail,
        type _ChatCompletionReasoningEffort as ChatCompletionReasoningEffort,
        type _ChatCompletionResponseContentPart as ChatCompletionResponseContentPart,
        type _ChatCompletionRole as ChatCompletionRole, type _ChatCompletionStoreMessage as ChatCompletionStoreMessage,
        type _ChatCompletionStoreMessagesPage as ChatCompletionStoreMessagesPage,
        type _ChatCompletionStreamOptions as ChatCompletionStreamOptions,
        type _ChatCompletionSystemMessageParam as ChatCompletionSystemMessageParam,
        type _ChatCompletionTokenLogprob as ChatCompletionTokenLogprob, type _ChatCompletionTool as ChatCompletionTool,
        type _ChatCompletionToolChoiceOption as ChatCompletionToolChoiceOption,
        type _ChatCompletionToolMessageParam as ChatCompletionToolMessageParam,
        type _ChatCompletionUpdateParams as ChatCompletionUpdateParams,
        type _ChatCompletionUserMessageParam as ChatCompletionUserMessageParam,
        type _ChatCompletionVideo as ChatCompletionVideo, type _ChatCompletionsPage as ChatCompletionsPage,
        type _ChatModel as ChatModel, type _ChatRequestOptions as ChatRequestOptions,
        type _CompletionUsage as CompletionUsage, type _CursorPage as CursorPage,
        type _CursorPageParams as CursorPageParams, type _DeepPartial as DeepPartial,
        type _FinishReason as FinishReason, type _FunctionDefinition as FunctionDefinition,
        type _GatewayInfo as GatewayInfo, type _MessageListParams as MessageListParams, type _Messages as Messages,
        type _ParseOptions as ParseOptions, type _ParseResponseFormat as ParseResponseFormat,
        type _ParsedChatCompletion as ParsedChatCompletion,
        type _ParsedChatCompletionMessage as ParsedChatCompletionMessage, type _ParsedChoice as ParsedChoice,
        type _ParsedFunctionToolCall as ParsedFunctionToolCall, type _ParsedInput as ParsedInput,
        type _ParsedOutput as ParsedOutput, type _ParsedToolCall as ParsedToolCall,
        type _ParsedToolCallOf as ParsedToolCallOf, type _ReasoningConfig as ReasoningConfig,
        type _ResponseFormat as ResponseFormat, type _RouteFilters as RouteFilters,
        type _StructuredOutputMode as StructuredOutputMode, type _StructuredStream as StructuredStream,
      };
    }
  }
  export {
    type _APIErrorInit as APIErrorInit, type _APIKeyFunction as APIKeyFunction, type _APIPromise as APIPromise,
    type _Audio as Audio, type BodyRequestOptions, type _ChatCompletion as ChatCompletion,
    type _ChatCompletionAllowedToolChoice as ChatCompletionAllowedToolChoice,
    type _ChatCompletionAllowedTools as ChatCompletionAllowedTools,
    type _ChatCompletionAnnotation as ChatCompletionAnnotation,
    type _ChatCompletionAssistantMessageParam as ChatCompletionAssistantMessageParam,
    type _ChatCompletionAudio as ChatCompletionAudio, type _ChatCompletionAudioDelta as ChatCompletionAudioDelta,
    type _ChatCompletionAudioParam as ChatCompletionAudioParam, type _ChatCompletionChoice as ChatCompletionChoice,
    type _ChatCompletionChunk as ChatCompletionChunk, type _ChatCompletionChunkChoice as ChatCompletionChunkChoice,
    type _ChatCompletionChunkDelta as ChatCompletionChunkDelta,
    type _ChatCompletionChunkError as ChatCompletionChunkError,
    type _ChatCompletionChunkToolCallDelta as ChatCompletionChunkToolCallDelta,
    type _ChatCompletionContentPart as ChatCompletionContentPart,
    type _ChatCompletionContentPartFile as ChatCompletionContentPartFile,
    type _ChatCompletionContentPartImage as ChatCompletionContentPartImage,
    type _ChatCompletionContentPartInputAudio as ChatCompletionContentPartInputAudio,
    type _ChatCompletionContentPartRefusal as ChatCompletionContentPartRefusal,
    type _ChatCompletionContentPartText as ChatCompletionContentPartText,
    type _ChatCompletionCreateParams as ChatCompletionCreateParams,
    type _ChatCompletionCreateParamsBase as ChatCompletionCreateParamsBase,
    type _ChatCompletionCreateParamsNonStreaming as ChatCompletionCreateParamsNonStreaming,
    type _ChatCompletionCreateParamsStreaming as ChatCompletionCreateParamsStreaming,
    type _ChatCompletionCustomTool as ChatCompletionCustomTool, type _ChatCompletionDeleted as ChatCompletionDeleted,
    type _ChatCompletionDeltaEvents as ChatCompletionDeltaEvents,
    type _ChatCompletionDeveloperMessageParam as ChatCompletionDeveloperMessageParam,
    type _ChatCompletionFunctionCall as ChatCompletionFunctionCall,
    type _ChatCompletionFunctionCallOption as ChatCompletionFunctionCallOption,
    type _ChatCompletionFunctionMessageParam as ChatCompletionFunctionMessageParam,
    type _ChatCompletionFunctionTool as ChatCompletionFunctionTool, type _ChatCompletionImage as ChatCompletionImage,
    type _ChatCompletionListParams as ChatCompletionListParams, type _ChatCompletionLogprobs as ChatCompletionLogprobs,
    type _ChatCompletionMessage as ChatCompletionMessage,
    type _ChatCompletionMessageCustomToolCall as ChatCompletionMessageCustomToolCall,
    type _ChatCompletionMessageFunctionToolCall as ChatCompletionMessageFunctionToolCall,
    type _ChatCompletionMessageParam as ChatCompletionMessageParam,
    type _ChatCompletionMessageToolCall as ChatCompletionMessageToolCall,
    type _ChatCompletionMessageToolCallParam as ChatCompletionMessageToolCallParam,
    type _ChatCompletionModality as ChatCompletionModality,
    type _ChatCompletionNamedToolChoice as ChatCompletionNamedToolChoice,
    type _ChatCompletionNamedToolChoiceCustom as ChatCompletionNamedToolChoiceCustom,
    type _ChatCompletionParseParams as ChatCompletionParseParams,
    type _ChatCompletionPredictionContent as ChatCompletionPredictionContent,
    type _ChatCompletionReasoningDetail as ChatCompletionReasoningDetail,
    type _ChatCompletionReasoningEffort as ChatCompletionReasoningEffort,
    type _ChatCompletionResponseContentPart as ChatCompletionResponseContentPart,
    type _ChatCompletionRole as ChatCompletionRole, type _ChatCompletionRunnerEvents as ChatCompletionRunnerEvents,
    type _ChatCompletionSnapshot as ChatCompletionSnapshot,
    type _ChatCompletionSnapshotChoice as ChatCompletionSnapshotChoice,
    type _ChatCompletionStoreMessage as ChatCompletionStoreMessage,
    type _ChatCompletionStoreMessagesPage as ChatCompletionStoreMessagesPage,
    type _ChatCompletionStream as ChatCompletionStream, type _ChatCompletionStreamEvents as ChatCompletionStreamEvents,
    type _ChatCompletionStreamOptions as ChatCompletionStreamOptions,
    type _ChatCompletionSystemMessageParam as ChatCompletionSystemMessageParam,
    type _ChatCompletionTokenLogprob as ChatCompletionTokenLogprob, type _ChatCompletionTool as ChatCompletionTool,
    type _ChatCompletionToolChoiceOption as ChatCompletionToolChoiceOption,
    type _ChatCompletionToolMessageParam as ChatCompletionToolMessageParam,
    type _ChatCompletionUpdateParams as ChatCompletionUpdateParams,
    type _ChatCompletionUserMessageParam as ChatCompletionUserMessageParam,
    type _ChatCompletionVideo as ChatCompletionVideo, type _ChatCompletionsPage as ChatCompletionsPage,
    type _ChatModel as ChatModel, type _ChatRequestOptions as ChatRequestOptions, type _ClientOptions as ClientOptions,
    type _CompletionUsage as CompletionUsage, type _Completions as Completions,
    type _ContentDeltaEvent as ContentDeltaEvent, type _ContentDoneEvent as ContentDoneEvent,
    type _CreateEmbeddingResponse as CreateEmbeddingResponse, type _CursorPage as CursorPage,
    type _CursorPageParams as CursorPageParams, type _CursorPagePromise as CursorPagePromise,
    type _DecodedDataURL as DecodedDataURL, type _DeepPartial as DeepPartial, type _Embedding as Embedding,
    type _EmbeddingCreateParams as EmbeddingCreateParams, type _Embeddings as Embeddings,
    type _EmittedValue as EmittedValue, type _EventParameters as EventParameters, type _Fetch as Fetch,
    type _FinishReason as FinishReason, type _FunctionDefinition as FunctionDefinition,
    type _FunctionToolCall as FunctionToolCall,
    type _FunctionToolCallArgumentsDeltaEvent as FunctionToolCallArgumentsDeltaEvent,
    type _FunctionToolCallArgumentsDoneEvent as FunctionToolCallArgumentsDoneEvent, type _GatewayInfo as GatewayInfo,
    type _HTTPMethod as HTTPMethod, type _HeadersInput as HeadersInput, type _HelperEventEmitter as HelperEventEmitter,
    type _HelperFinalValues as HelperFinalValues, type _Image as Image,
    type _ImageEditCompletedEvent as ImageEditCompletedEvent, type _ImageEditParams as ImageEditParams,
    type _ImageEditParamsNonStreaming as ImageEditParamsNonStreaming,
    type _ImageEditParamsStreaming as ImageEditParamsStreaming,
    type _ImageEditPartialImageEvent as ImageEditPartialImageEvent, type _ImageEditStreamEvent as ImageEditStreamEvent,
    type _ImageGenCompletedEvent as ImageGenCompletedEvent,
    type _ImageGenPartialImageEvent as ImageGenPartialImageEvent, type _ImageGenStreamEvent as ImageGenStreamEvent,
    type _ImageGenerateParams as ImageGenerateParams,
    type _ImageGenerateParamsNonStreaming as ImageGenerateParamsNonStreaming,
    type _ImageGenerateParamsStreaming as ImageGenerateParamsStreaming, type _Images as Images,
    type _ImagesResponse as ImagesResponse, type _ImagesUsage as ImagesUsage,
    type _JSONSchemaFormat as JSONSchemaFormat, type _JSONSchemaOptions as JSONSchemaOptions,
    type _LogLevel as LogLevel, type _LogProbsContentDeltaEvent as LogProbsContentDeltaEvent,
    type _LogProbsContentDoneEvent as LogProbsContentDoneEvent,
    type _LogProbsRefusalDeltaEvent as LogProbsRefusalDeltaEvent,
    type _LogProbsRefusalDoneEvent as LogProbsRefusalDoneEvent, type _Logger as Logger,
    type _MessageListParams as MessageListParams, type _Messages as Messages, type _Middleware as Middleware,
    type _MiddlewareContext as MiddlewareContext, type _MiddlewareNext as MiddlewareNext, type _Model as Model,
    type _ModelCapability as ModelCapability, type _ModelList as ModelList, type _ModelListPromise as ModelListPromise,
    type _Models as Models, type _OpenAIParseableTool as OpenAIParseableTool, type _ParseOptions as ParseOptions,
    type _ParseResponseFormat as ParseResponseFormat, type _ParsedChatCompletion as ParsedChatCompletion,
    type _ParsedChatCompletionMessage as ParsedChatCompletionMessage, type _ParsedChoice as ParsedChoice,
    type _ParsedFunctionToolCall as ParsedFunctionToolCall, type _ParsedInput as ParsedInput,
    type _ParsedOutput as ParsedOutput, type _ParsedToolCall as ParsedToolCall,
    type _ParsedToolCallOf as ParsedToolCallOf, type _QueryInput as QueryInput,
    type _ReasoningConfig as ReasoningConfig, type _RefusalDeltaEvent as RefusalDeltaEvent,
    type _RefusalDoneEvent as RefusalDoneEvent, type _RequestOptions as RequestOptions,
    type _ResponseFormat as ResponseFormat, type _ResponseLike as ResponseLike, type _RouteFilters as RouteFilters,
    type _RunnableFunction as RunnableFunction, type _RunnableFunctionWithParse as RunnableFunctionWithParse,
    type _RunnableFunctionWithoutParse as RunnableFunctionWithoutParse, type _RunnableTool as RunnableTool,
    type _RunnableToolFunction as RunnableToolFunction,
    type _RunnableToolFunctionWithContext as RunnableToolFunctionWithContext,
    type _RunnableToolFunctionWithParse as RunnableToolFunctionWithParse,
    type _RunnableToolFunctionWithoutParse as RunnableToolFunctionWithoutParse, type _SchemaIssue as SchemaIssue,
    type _SchemaOutput as SchemaOutput, type _SpeechCreateParams as SpeechCreateParams,
    type _StandardJSONSchemaConverter as StandardJSONSchemaConverter, type _StandardSchemaIssue as StandardSchemaIssue,
    type _StandardSchemaResult as StandardSchemaResult, type _StandardSchemaV1 as StandardSchemaV1,
    type _Stream as Stream, type _StructuredOutputMode as StructuredOutputMode,
    type _StructuredSchema as StructuredSchema, type _StructuredStream as StructuredStream,
    type _ToFileInput as ToFileInput, type _ToFileOptions as ToFileOptions, type _Tool as Tool,
    type _ToolDefinition as ToolDefinition, type _ToolRun as ToolRun, type _ToolRunCall as ToolRunCall,
    type _ToolRunContext as ToolRunContext, type _ToolRunEvent as ToolRunEvent, type _ToolRunOptions as ToolRunOptions,
    type _ToolRunParams as ToolRunParams, type _ToolRunResult as ToolRunResult, type _ToolRunStep as ToolRunStep,
    type _ToolRunStopReason as ToolRunStopReason, type _ToolRunTool as ToolRunTool,
    type _ToolRunnerEvents as ToolRunnerEvents, type _Transcription as Transcription,
    type _TranscriptionCreateParams as TranscriptionCreateParams, type _Translation as Translation,
    type _TranslationCreateParams as TranslationCreateParams, type _Uploadable as Uploadable,
    type _WithResponse as WithResponse,
  };
}
