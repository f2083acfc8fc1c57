/**
 * modelgate: the TypeScript client for the ModelGate gateway.
 * @module
 */
import { ModelGate } from "./client/client.ts";

export { ModelGate };
export default ModelGate;

export type { BodyRequestOptions } from "./client/client.ts";
export type { LogLevel, Logger } from "./logging/logger.ts";
export type { ClientOptions, RequestOptions, Fetch, HeadersInput, Middleware, MiddlewareContext, MiddlewareNext, QueryInput } from "./client/options.ts";
export type { APIKeyFunction } from "./pipeline/auth.ts";
export type { APIPromise, WithResponse } from "./pipeline/api-promise.ts";
export type { HTTPMethod } from "./pipeline/request.ts";
export { Stream } from "./streaming/stream.ts";
export { Chat } from "./resources/chat/chat.ts";
export { Completions } from "./resources/chat/completions.ts";
export type { Messages } from "./resources/chat/messages.ts";
export type { CursorPagePromise } from "./resources/chat/stored.ts";
export { ChatCompletionStream } from "./resources/chat/chat-completion-stream.ts";
export { Models, type ModelListPromise } from "./resources/models.ts";
export type { Audio, Embeddings, Images } from "./resources/endpoint-resources.ts";
export type { APIErrorInit } from "./errors/index.ts";
export {
  ModelGateError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PaymentRequiredError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
} from "./errors/index.ts";
export { StructuredOutputError } from "./errors/structured-output-error.ts";
export { BudgetExceededError } from "./errors/budget-exceeded-error.ts";
export { jsonSchema, type JSONSchemaFormat, type JSONSchemaOptions } from "./schemas/json-schema.ts";
export type { SchemaIssue } from "./schemas/schema-source.ts";
export type { StandardSchemaV1, StandardSchemaIssue, StandardSchemaResult, StandardJSONSchemaConverter, StructuredSchema, SchemaOutput } from "./schemas/standard-schema.ts";
export { decodeDataURL, type DecodedDataURL } from "./media/data-url.ts";
export { toFile, type ResponseLike, type ToFileInput, type ToFileOptions, type Uploadable } from "./media/to-file.ts";
export { tool, type RunnableTool, type Tool, type ToolDefinition, type ToolRunContext } from "./schemas/tool.ts";
export type * from "./types/index.ts";
export { VERSION } from "./version.ts";
