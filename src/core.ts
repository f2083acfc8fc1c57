// The SDK as the features see it. Code in a feature folder (structured/, tools/, budget/,
// resources/endpoints/, key-function/, debug-lines/, tracing/) imports the rest of the SDK through this
// one module and nowhere else: its public surface (everything src/index.ts exports) and the few
// internals features share.
//
// Why one door: a bundler that splits code puts a module into one file per set of entry
// points that reach it. Every feature loaded on demand (see loader.ts) reaches the whole
// first load through here, so the first load stays one file of the SDK's, instead of one per
// combination of features (measured with esbuild on the streamed chat app: 6 files and
// 17,254 B gzip when features imported core modules one by one; see bench/README.md). Only
// the core is exported here, never a feature.
export * from "./index.ts";
export { abortError } from "./errors/connection-errors.ts";
export { errorFromBody, errorFromStreamEvent } from "./errors/from-body.ts";
export { argumentError, describeValue, invalidArgument } from "./errors/invalid-argument.ts";
export { redactValue, type Redact } from "./internal/redact.ts";
export type { Logger } from "./internal/logger.ts";
export { excerpt, isRecord, MAX_TIMER_MS } from "./internal/values.ts";
export { untilAborted } from "./internal/until-aborted.ts";
// Reached only from here (see the note on closeSchema below): the wait of the code loaded on demand.
export { unlessAborted } from "./pipeline/unless-aborted.ts";
// Reached only from here: the features derive a call's options from the caller's with it.
export { callOptionsWith } from "./pipeline/call-options.ts";
export { gatewayInfo, learnFrom } from "./gateway/info.ts";
export { limits } from "./pipeline/limits.ts";
export { assertCallOptions } from "./pipeline/request.ts";
export { loadKeyFunction } from "./loader.ts";
export { createAPIPromise, type Outcome } from "./pipeline/api-promise.ts";
export { finalData, outcomeOf } from "./pipeline/outcome-of.ts";
export { assertAPIKey } from "./pipeline/auth.ts";
export { assertChatParams } from "./resources/chat/validate.ts";
export type { EndRules } from "./streaming/chunk-events.ts";
export type { Requester } from "./resources/requester.ts";
export { ChatCompletionAccumulator } from "./streaming/accumulate.ts";
export { CHAINED_CALLS, LATER_CALLS, type ShellCall } from "./resources/chat/helper-shell.ts";
export type { BodyReader } from "./streaming/body-reader.ts";
export { SSEDecoder } from "./streaming/sse-decoder.ts";
export type { SSEChunkOptions } from "./streaming/sse-chunks.ts";
export type { ToolInternals } from "./schemas/tool.ts";
export { resolveSchema, type ResolvedSchema, type Validation } from "./schemas/schema-source.ts";
// Reached only from here: reading a schema's verdict loads with the code that checks replies.
export { describeIssue, readValidation, SchemaResultError, schemaIssues, toSchemaIssue } from "./schemas/validation.ts";
export { JSON_SCHEMA_VENDOR, NAME_PATTERN } from "./schemas/tool-internals.ts";
// Reached only from here, so it loads with the code that uses it (parse(), runTools()), not with the first load.
export { closeSchema, sendableTools } from "./schemas/strict-mode.ts";
// Reached only from here: one reading of a tool call's arguments, for parse(), stream() and runTools().
export { argumentsText, argumentsValue } from "./schemas/tool-arguments.ts";
export { keptOrRedacted, redactThrown } from "./internal/redact-thrown.ts";
export { SEND_BUDGET, type SendBudget } from "./internal/send-budget.ts";
export { TOOL_INTERNALS, toolInternals } from "./schemas/tool-internals.ts";
