import { APIError, errorFromBody, isErrorDocument, parseBody, unexpectedBodyError, type ErrorContext, type Redact } from "../errors/index.ts";
import { gatewayInfo, type GatewayInfo } from "../gateway/info.ts";
import { logDebug, type DebugLine } from "../logging/debug-lines.ts";
import type { Logger } from "../logging/logger.ts";
import { argumentError, invalidArgument } from "../errors/invalid-argument.ts";
import { loadBudget, loadTracing } from "../loader.ts";
import { keyFrom } from "./key-function.ts";
import { throughMiddleware } from "./middleware.ts";
import { CREDENTIAL_HEADERS } from "../internal/redact.ts";
import { rawResponse } from "../streaming/raw-response.ts";
import { isRecord } from "../internal/values.ts";
import type { BodyReader } from "../streaming/body-reader.ts";
import type { EndRules } from "../streaming/chunk-events.ts";
import type { SSEChunkOptions } from "../streaming/sse-chunks.ts";
import { Stream } from "../streaming/stream.ts";
import { attempt, isDocument, type Exchange, type ResponseKind } from "./attempt.ts";
import type { APIKeyFunction, APIKeySource } from "./auth.ts";
import { createAPIPromise, type APIPromise, type Outcome } from "./api-promise.ts";
import { mergeHeaders } from "./headers.ts";
import { waitBeforeRetry } from "./limits.ts";
import { nextStep, type AttemptOutcome, type CallState } from "./next-step.ts";
import type { Fetch, HeadersInput, Middleware, QueryInput, RequestOptions } from "./options.ts";
import { buildURL } from "./url.ts";
import { subscribedChannel } from "./trace-channel.ts";

/** Everything about the client that a request needs; built once by the client. */
export interface PipelineConfig {
  /** The API key, or the function asked for it before each attempt. */
  apiKey: APIKeySource;
  /** Makes errors built later redact a key a function gave. */
  rememberSecret: (secret: string, forGood?: boolean) => void;
  /** Set once the credentials of the client's header layers are remembered (see `send`). */
  credentialsKept?: boolean;
  root: string;
  /** The query string `baseURL` carried, kept on every request. */
  search: string;
  fetch: Fetch;
  /** The client's `middleware`, outside each call's own. */
  middleware: Middleware[];
  timeout: number;
  streamIdleTimeout: number;
  maxRetries: number;
  /** See `ClientOptions.shrinkToAffordable`. */
  shrinkToAffordable: boolean;
  maxSSELineLength: number;
  /** SDK identification headers, then the client's `defaultHeaders` (layers, as `query`). */
  headers: (HeadersInput | undefined)[];
  /** The client's `defaultQuery`, as layers (a client `withOptions` made adds its own over the original's). */
  query: (QueryInput | undefined)[];
  fetchOptions: RequestInit | undefined;
  /** Cuts the API key out of every error built from what a server sent. */
  redact: Redact;
  log: Logger;
  /** Whether debug lines are wanted at all: building them is skipped otherwise. */
  debug: boolean;
  /** See `ClientOptions.traceContent`. */
  traceContent: boolean;
}

/** The HTTP methods the generic `client.get/post/put/patch/delete` helpers send. */
export type HTTPMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One call, as a resource describes it. */
export interface RequestSpec {
  method: HTTPMethod;
  /** Path under the service root, e.g. `/v1/chat/completions`. */
  path: string;
  /** Serialised as JSON; a `FormData` is sent as it is (multipart, with its own content type). */
  body?: unknown;
  /**
   * How a successful answer is read: `"json"` (the default) parsed; `"text"` the whole body as
   * text; `"sse"` a `Stream` of its Server-Sent Events; `"raw"` the `Response` itself (its body
   * unread). See `ResponseKind`.
   */
  response?: ResponseKind | undefined;
  /** For `"sse"`: what a stream must have shown before a close without `[DONE]` counts as its end. */
  streamRules?: EndRules | undefined;
  /**
   * For `"sse"`: makes the `Stream` of events other than chat chunks (image events), from the
   * body's reader; by default `Stream.fromSSEResponse`, which reads chat chunks.
   */
  stream?: ((response: Response, reader: BodyReader, controller: AbortController, gateway: GatewayInfo, options: SSEChunkOptions) => Stream<unknown>) | undefined;
  /**
   * For `"json"`: shapes the parsed answer before the caller gets it, given what the gateway
   * did (a resource's own reading of its answers, e.g. chat's).
   */
  decode?: ((data: unknown, gateway: GatewayInfo) => unknown) | undefined;
  options?: RequestOptions | undefined;
  /**
   * Checks the caller's arguments before anything is sent. Run inside the call, so a mistake
   * rejects the returned promise instead of throwing from the call itself.
   */
  validate?: (() => void) | undefined;
  /** Not published on the tracing channel: a request made for other calls (the catalogue behind `maxCost`). */
  untraced?: boolean | undefined;
}

/**
 * The one path every request takes: build → send → retry → decode errors. Resources only
 * describe their endpoint; auth, timeouts, retries and error classes all live here.
 */
export function request<T>(config: PipelineConfig, spec: RequestSpec): APIPromise<T> {
  const channel = subscribedChannel();
  const call = (progress: Progress) =>
    send<T>(config, spec, progress).catch((error) => {
      // Every APIError says what was known when the call failed (errors a stream throws later
      // get theirs from the stream, see `iterateSSEChunks`).
      if (error instanceof APIError) (error as { gateway: GatewayInfo }).gateway = gatewayInfo(spec.body, error.headers, progress.attempts, config.redact);
      throw error;
    });
  // Published on the `modelgate:request` tracing channel while anyone listens (code loaded then).
  // The trace is given the call's promise: a layer over it (parse()) may say what it finally gave.
  const promise: APIPromise<T> = createAPIPromise(channel ? loadTracing().then(({ traceCall }) => traceCall(channel, config, spec, call, promise)) : call({ attempts: 0 }));
  return promise;
}

/** What a call has done so far, for the `GatewayInfo` of its result or of its error, and its trace. */
export interface Progress {
  /** HTTP attempts made, retries of every kind included (and a middleware's extra sends). */
  attempts: number;
  /** Sends made through a middleware's `next` (counted by the middleware runner). */
  sends?: number;
  /** Of `attempts`, the sends a middleware made beyond the first of an attempt. */
  resends?: number;
  /** The first attempt's key, when the trace asked an `apiKey` function for it already. */
  key?: string | undefined;
}

/** Sends the request until `nextStep` says to return or to throw, and carries out each step. */
async function send<T>(config: PipelineConfig, spec: RequestSpec, progress: Progress): Promise<Outcome<T>> {
  // Most calls have no options: nothing to check (a `null` is checked, and refused).
  if (spec.options !== undefined) assertCallOptions(spec.options, config.redact);
  const options: RequestOptions = spec.options ?? {};
  spec.validate?.();
  if (typeof spec.path !== "string") throw invalidArgument("path", 'a string such as "/v1/models"', spec.path);
  const kind = spec.response ?? "json";
  const timeoutMs = options.timeout ?? config.timeout;
  const form = spec.body instanceof FormData;
  let body: string | FormData | undefined = form ? (spec.body as FormData) : spec.body === undefined ? undefined : toJSON(spec.body);
  const sdkHeaders = {
    accept: kind === "sse" ? "text/event-stream" : "application/json",
    "content-type": body === undefined || form ? undefined : "application/json",
    // The same key on every retry lets the gateway recognise a repeat of a request that
    // already reached it (e.g. the connection died after it was processed).
    "idempotency-key": spec.method === "GET" ? undefined : (options.idempotencyKey ?? newIdempotencyKey()),
  };
  // Authorization comes first, so `defaultHeaders` or the call's `headers` may replace or remove it.
  const headersFor = (key: string) => mergeHeaders(config.redact, { authorization: `Bearer ${key}`, ...sdkHeaders }, ...config.headers, options.headers);
  const url = buildURL(config.root, spec.path, config.search, ...config.query, options.query);
  const middleware = config.middleware.concat(options.middleware ?? []);
  const keySource = config.apiKey;
  /** Asks the key function; only called when `apiKey` is one. */
  const askForKey = () => keyFrom(keySource as APIKeyFunction, config.rememberSecret, config.redact, options.signal, timeoutMs);
  const state: CallState = {
    retries: 0,
    maxRetries: options.maxRetries ?? config.maxRetries,
    mayAskForNewKey: typeof keySource !== "string",
    mayShrink: options.shrinkToAffordable ?? config.shrinkToAffordable,
  };
  let key: string | undefined;
  let headers: Headers | undefined;
  /** The key already asked for after a 401, for the attempt that follows it. */
  let newKey: string | undefined = progress.key;

  for (;;) {
    const nextKey = typeof keySource === "string" ? keySource : (newKey ?? (await askForKey()));
    newKey = undefined;
    if (!headers || nextKey !== key) headers = headersFor((key = nextKey));
    if (!config.credentialsKept) {
      // Once per client, on its first request: a credential sent in a header the caller set (a
      // proxy's `Authorization`, an `x-api-key` in `defaultHeaders`; the first call's own
      // `headers` too, as they are merged in) is cut out of errors as the key is, for good.
      // Later calls' own `headers` are not read: a credential that changed per call would have
      // to be remembered per call, each time rebuilding what the redactor looks for.
      config.credentialsKept = true;
      for (const name of CREDENTIAL_HEADERS) config.rememberSecret(headers.get(name)?.replace(/^\w+ /, "") ?? "", true);
    }
    if (state.retries > 0) headers.set("x-modelgate-retry-count", String(state.retries));
    if (config.debug) debugLine(config, ["request", spec.method, url, state.retries + 1, headers]);
    progress.attempts++;
    let exchange: Exchange | undefined;
    let outcome: AttemptOutcome;
    try {
      exchange = await attempt({
        // Most clients have none: then nothing of it is loaded, and fetch is called as is. Under
        // `maxCost` the runner (with or without middleware) checks every send against the budget.
        fetch: middleware[0] || (options as { maxCost?: unknown }).maxCost ? throughMiddleware(middleware, config, spec, options, progress) : config.fetch,
        url,
        init: { ...config.fetchOptions, ...options.fetchOptions, method: spec.method, headers, body: body ?? null },
        timeoutMs,
        signal: options.signal,
        kind,
        idleTimeoutMs: config.streamIdleTimeout,
        redact: config.redact,
      });
      const { response } = exchange;
      if (config.debug) debugLine(config, ["response", spec.method, url, response]);
      outcome = response.ok ? OK : { ok: false, error: errorFromBody(response.status, parseBody(exchange.text), context(response, config)) };
    } catch (error) {
      outcome = { ok: false, error };
    }

    let step = nextStep(outcome, state);
    if (step.do === "return") return decodeSuccess<T>(exchange as Exchange, config, spec, progress.attempts, kind);
    // A re-send with a change is made only if the change changes the request; else the
    // decision is asked again without it.
    if (step.do === "new-key") {
      state.mayAskForNewKey = false;
      if ((newKey = await askForKey()) !== key) continue;
      step = nextStep(outcome, state);
    } else if (step.do === "shrink") {
      state.mayShrink = false;
      const smaller = (await loadBudget()).withMaxTokens(spec.body, step.tokens);
      if (smaller) {
        body = toJSON(smaller);
        // A smaller request is another request: it gets its own key (under a new API key
        // too), so an idempotent gateway does not answer it with the 402 it stored for the first.
        // None when the caller removed it (`headers: { "idempotency-key": null }`).
        const sentKey = headers.get("idempotency-key");
        if (sentKey) headers.set("idempotency-key", (sdkHeaders["idempotency-key"] = `${sentKey}-shrunk`));
        if (config.debug) debugLine(config, ["shrink", step.tokens]);
        continue;
      }
      step = nextStep(outcome, state);
    }
    const error = (outcome as { error: Error }).error;
    if (step.do === "retry") {
      if (config.debug) debugLine(config, ["retry", step.afterMs, error.message]);
      await waitBeforeRetry(step.afterMs, options.signal);
      state.retries++;
      continue;
    }
    // Built again with the note, which goes through the same redaction as the server's words.
    throw step.do === "throw" && step.note && exchange ? errorFromBody(exchange.response.status, parseBody(exchange.text), { ...context(exchange.response, config), note: step.note }) : error;
  }
}

const OK: AttemptOutcome = { ok: true };

/** Logs a debug line (`logLevel: "debug"`). */
function debugLine(config: PipelineConfig, line: DebugLine): void {
  logDebug(config.log, line, config.redact);
}

function isFunction(value: unknown): boolean {
  return typeof value === "function";
}

/** `true` or `false`. */
export const isBoolean = (value: unknown): boolean => typeof value === "boolean";
/** A number of 0 or more (`Infinity` included: no limit). */
export const isNonNegative = (value: unknown): boolean => typeof value === "number" && value >= 0;

/** An option that is checked: its name, its test, and what a value must be. */
export type OptionCheck = [name: string, isValid: (value: unknown) => boolean, expected: string];

/** The per-call options that are checked. */
export const CALL_OPTIONS: OptionCheck[] = [
  ["shrinkToAffordable", isBoolean, "true or false"],
  ["signal", (value) => typeof (value as AbortSignal).addEventListener === "function", "an AbortSignal"],
  ["headers", (value) => typeof value === "object", "a Headers, [name, value] pairs or a record"],
  ["query", isRecord, "a record of parameters"],
  ["timeout", isNonNegative, "a non-negative number of milliseconds"],
  ["maxRetries", (value) => Number.isInteger(value) && (value as number) >= 0, "a whole number from 0"],
  ["middleware", (value) => Array.isArray(value) && value.every(isFunction), "an array of middleware functions"],
  ["fetchOptions", isRecord, "an object"],
  // A client option only: a `fetch` that is no function would fail every call as a connection error, retried.
  ["fetch", isFunction, "a fetch function"],
];

/**
 * Per-call overrides come from plain JavaScript too: a bad one is named before anything is
 * sent. `undefined` or `null` leaves the client's value. The client's options are checked here
 * too, against its own list (`checks`: these and the client's), where `null` leaves the default.
 */
export function assertCallOptions(options: unknown, redact: Redact = String, checks = CALL_OPTIONS): asserts options is RequestOptions {
  // What the caller passed is quoted (a string's start): with the key cut out.
  if (!isRecord(options)) throw invalidArgument("options", "an object", options, undefined, redact);
  for (const [name, isValid, expected] of checks) {
    if (options[name] != null && !isValid(options[name])) throw invalidArgument(name, expected, options[name], undefined, redact);
  }
}

/** What an error built from a response is built with. */
function context(response: Response, config: PipelineConfig): ErrorContext {
  return { headers: response.headers, redact: config.redact };
}

/** The result of a successful exchange, read as the request's `response` kind says. */
function decodeSuccess<T>(exchange: Exchange, config: PipelineConfig, spec: RequestSpec, attempts: number, kind: ResponseKind): Outcome<T> {
  const { response, text = "", reader } = exchange;
  const gateway = () => gatewayInfo(spec.body, response.headers, attempts, config.redact);
  if (reader) {
    if (kind === "raw") {
      const raw = rawResponse(response, reader);
      return { data: raw as T, response: () => raw, asResponse: () => raw };
    }
    const options = { ...spec.streamRules, maxLineLength: config.maxSSELineLength, errorContext: { redact: config.redact } };
    return {
      data: (spec.stream ?? Stream.fromSSEResponse)(response, reader, exchange.controller, gateway(), options) as T,
      response: () => response,
      asResponse: () => rawResponse(response, reader),
    };
  }
  const readable = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  let data: unknown = text;
  if (kind === "json") {
    try {
      data = text === "" ? undefined : JSON.parse(text);
    } catch {
      // "whole": JSON that does not parse under a JSON content type was most likely cut short.
      throw unexpectedBodyError(response, text, "whole JSON", config.redact);
    }
    if (isErrorDocument(data)) throw errorFromBody(undefined, data, context(response, config));
    // A resource's own reading of its answer (chat's keeps what the gateway did beside it).
    if (spec.decode) data = spec.decode(data, gateway());
  } else if (kind !== "text" || isDocument(response) || isErrorDocument(parseBody(text))) {
    // A stream, audio or text answered with a whole document (JSON, a page): not what was asked for.
    throw unexpectedBodyError(response, text, kind === "sse" ? "an event stream" : kind === "raw" ? "binary data" : "text", config.redact);
  }
  return { data: data as T, response: readable, asResponse: readable };
}

function toJSON(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw argumentError("body", `cannot be sent as JSON: ${(error as Error).message}`);
  }
}

function newIdempotencyKey(): string {
  // `randomUUID` is missing only from pages served over plain http, where this serves.
  const crypto = globalThis.crypto as Partial<Crypto> | undefined;
  return `modelgate-${crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;
}
