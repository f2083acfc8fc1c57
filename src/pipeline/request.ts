import { APIConnectionError, APIError, APIUserAbortError, ModelGateError, PaymentRequiredError, errorFromBody, isErrorDocument, notAStreamError, parseBody, type Redact } from "../errors/index.ts";
import { gatewayInfo, learnFrom, type GatewayInfo } from "../gateway/info.ts";
import { logDebug, type DebugLine } from "../internal/debug-lines.ts";
import type { Logger } from "../internal/logger.ts";
import { invalidArgument } from "../errors/invalid-argument.ts";
import { loadBudget, loadKeyFunction } from "../loader.ts";
import { rawResponse } from "../streaming/raw-response.ts";
import { isRecord } from "../internal/values.ts";
import { BodyReader } from "../streaming/body-reader.ts";
import { Stream } from "../streaming/stream.ts";
import { attempt, type Exchange } from "./attempt.ts";
import type { APIKeyFunction, APIKeySource } from "./auth.ts";
import { createAPIPromise, type APIPromise, type Outcome } from "./api-promise.ts";
import { mergeHeaders } from "./headers.ts";
import type { Fetch, HeadersInput, QueryInput, RequestOptions } from "./options.ts";
import { isRetryableResponse, MAX_RETRY_AFTER_MS, refusedWaitNote, retryDelayMs } from "./retry-policy.ts";
import { sleep } from "./sleep.ts";
import { buildURL } from "./url.ts";

/** Everything about the client that a request needs; built once by the client. */
export interface PipelineConfig {
  /** The API key, or the function asked for it before each attempt. */
  apiKey: APIKeySource;
  /** Makes errors built later redact a key a function gave. */
  rememberSecret: (secret: string) => void;
  root: string;
  /** The query string `baseURL` carried, kept on every request. */
  search: string;
  fetch: Fetch;
  timeout: number;
  streamIdleTimeout: number;
  maxRetries: number;
  /** See `ClientOptions.shrinkToAffordable`. */
  shrinkToAffordable: boolean;
  maxSSELineLength: number;
  /** SDK identification headers, then the client's `defaultHeaders`. */
  headers: (HeadersInput | undefined)[];
  defaultQuery: QueryInput | undefined;
  fetchOptions: RequestInit | undefined;
  /** Cuts the API key out of every error built from what a server sent. */
  redact: Redact;
  log: Logger;
  /** Whether debug lines are wanted at all: building them is skipped otherwise. */
  debug: boolean;
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
  /** Resolve to a `Stream` of the response's Server-Sent Events instead of parsed JSON. */
  stream?: boolean | undefined;
  options?: RequestOptions | undefined;
  /**
   * Checks the caller's arguments before anything is sent. Run inside the call, so a mistake
   * rejects the returned promise instead of throwing from the call itself.
   */
  validate?: (() => void) | undefined;
}

/**
 * The one path every request takes: build → send → retry → decode errors. Resources only
 * describe their endpoint; auth, timeouts, retries and error classes all live here.
 */
export function request<T>(config: PipelineConfig, spec: RequestSpec): APIPromise<T> {
  return createAPIPromise(run<T>(config, spec));
}

/** What a call has done so far, for the `GatewayInfo` of its result or of its error. */
interface Progress {
  attempts: number;
}

async function run<T>(config: PipelineConfig, spec: RequestSpec): Promise<Outcome<T>> {
  const progress: Progress = { attempts: 0 };
  try {
    return await send<T>(config, spec, progress);
  } catch (error) {
    // Every APIError says what was known when the call failed (errors a stream throws later
    // get theirs from the stream, see `iterateSSEChunks`).
    if (error instanceof APIError) (error as { gateway: GatewayInfo }).gateway = gatewayInfo(spec.body, error.headers, progress.attempts);
    throw error;
  }
}

async function send<T>(config: PipelineConfig, spec: RequestSpec, progress: Progress): Promise<Outcome<T>> {
  const options: unknown = spec.options === undefined ? {} : spec.options;
  assertCallOptions(options);
  spec.validate?.();
  if (typeof spec.path !== "string") throw invalidArgument("path", 'a string such as "/v1/models"', spec.path);
  const stream = spec.stream === true;
  const maxRetries = options.maxRetries ?? config.maxRetries;
  const timeoutMs = options.timeout ?? config.timeout;
  const form = spec.body instanceof FormData;
  let body: string | FormData | undefined = form ? (spec.body as FormData) : spec.body === undefined ? undefined : toJSON(spec.body);
  /** A 402 that names what the account can afford is retried once with that many tokens. */
  let shrink = options.shrinkToAffordable ?? config.shrinkToAffordable;
  const sdkHeaders = {
    accept: stream ? "text/event-stream" : "application/json",
    "content-type": body === undefined || form ? undefined : "application/json",
    // The same key on every retry lets the gateway recognise a repeat of a request that
    // already reached it (e.g. the connection died after it was processed).
    "idempotency-key": spec.method === "GET" ? undefined : (options.idempotencyKey ?? newIdempotencyKey()),
  };
  // Authorization comes first, so `defaultHeaders` or the call's `headers` may replace or remove it.
  const headersFor = (key: string) => mergeHeaders({ authorization: `Bearer ${key}`, ...sdkHeaders }, ...config.headers, options.headers);
  const url = buildURL(config.root, spec.path, config.search, config.defaultQuery, options.query);
  const keySource = config.apiKey;
  let key: string | undefined;
  let headers = new Headers();
  /** The key already asked for after a 401, for the attempt that follows it. */
  let keyForNextAttempt: string | undefined;
  /** Asks the key function; only called when `apiKey` is one. */
  const askForKey = async () => (await loadKeyFunction()).keyFrom(keySource as APIKeyFunction, config.rememberSecret, options.signal, timeoutMs);
  /** A key function is asked again once after a 401; a changed key repeats the attempt once. */
  let askedAgainAfter401 = false;

  for (let retryIndex = 0; ; retryIndex++) {
    const nextKey = typeof keySource === "string" ? keySource : (keyForNextAttempt ?? (await askForKey()));
    keyForNextAttempt = undefined;
    if (nextKey !== key) headers = headersFor((key = nextKey));
    if (retryIndex > 0) headers.set("x-modelgate-retry-count", String(retryIndex));
    if (config.debug) debugLine(config, ["request", spec.method, url, retryIndex + 1, headers]);
    let exchange: Exchange;
    progress.attempts++;
    try {
      exchange = await attempt({
        fetch: config.fetch,
        url,
        init: { ...config.fetchOptions, ...options.fetchOptions, method: spec.method, headers, body: body ?? null },
        timeoutMs,
        signal: options.signal,
        stream,
        redact: config.redact,
      });
    } catch (error) {
      const retryable = error instanceof APIConnectionError && retryIndex < maxRetries;
      if (!retryable) throw error;
      const delay = retryDelayMs(retryIndex, undefined) ?? 0;
      if (config.debug) debugLine(config, ["retry", delay, (error as Error).message]);
      await waitBeforeRetry(delay, options.signal);
      continue;
    }

    const { response } = exchange;
    if (config.debug) debugLine(config, ["response", spec.method, url, response]);
    if (response.ok) return await decodeSuccess<T>(exchange, config, spec, progress.attempts);
    if (response.status === 401 && typeof keySource !== "string" && !askedAgainAfter401) {
      askedAgainAfter401 = true;
      keyForNextAttempt = await askForKey();
      if (keyForNextAttempt !== key) {
        retryIndex--; // a repeat with a new key is not one of the maxRetries
        continue;
      }
    }

    const retryable = retryIndex < maxRetries && isRetryableResponse(response);
    const delay = retryable ? retryDelayMs(retryIndex, response.headers) : null;
    if (delay === null) {
      const note = retryable ? refusedWaitNote(response.headers, MAX_RETRY_AFTER_MS) : undefined;
      const error = errorFromBody(response.status, parseBody(exchange.text), { headers: response.headers, redact: config.redact, note });
      const affordable = shrink && error instanceof PaymentRequiredError ? error.affordableTokens : null;
      const smaller = affordable && (await loadBudget()).withMaxTokens(spec.body, affordable);
      if (smaller) {
        shrink = false;
        body = toJSON(smaller);
        // A smaller request is another request: it gets its own key, so an idempotent
        // gateway does not answer it with the 402 it stored for the first.
        headers.set("idempotency-key", `${headers.get("idempotency-key")}-shrunk`);
        if (config.debug) debugLine(config, ["shrink", affordable]);
        retryIndex--; // not one of the maxRetries
        continue;
      }
      throw error;
    }
    if (config.debug) debugLine(config, ["retry", delay, `status ${response.status}`]);
    await waitBeforeRetry(delay, options.signal);
  }
}

/** Logs a debug line (`logLevel: "debug"`). */
function debugLine(config: PipelineConfig, line: DebugLine): void {
  logDebug(config.log, line, config.redact);
}

/** Per-call overrides come from plain JavaScript too: a bad one is named before anything is sent. */
function assertCallOptions(options: unknown): asserts options is RequestOptions {
  if (!isRecord(options)) throw invalidArgument("options", "an object such as { signal, timeout }", options);
  const { timeout, maxRetries, signal, headers, query, shrinkToAffordable } = options;
  if (shrinkToAffordable !== undefined && typeof shrinkToAffordable !== "boolean") throw invalidArgument("shrinkToAffordable", "true or false", shrinkToAffordable);
  if (signal != null && typeof (signal as AbortSignal).addEventListener !== "function") throw invalidArgument("signal", "an AbortSignal", signal);
  if (headers != null && typeof headers !== "object") throw invalidArgument("headers", "a Headers, [name, value] pairs or a record", headers);
  if (query != null && !isRecord(query)) throw invalidArgument("query", "a record of parameters", query);
  if (timeout !== undefined && !(typeof timeout === "number" && timeout >= 0)) {
    throw invalidArgument("timeout", "a non-negative number of milliseconds", timeout);
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && (maxRetries as number) >= 0)) {
    throw invalidArgument("maxRetries", "a whole number from 0", maxRetries);
  }
}

async function waitBeforeRetry(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  if (!(await sleep(ms, signal))) throw new APIUserAbortError(undefined, { cause: signal?.reason });
}

async function decodeSuccess<T>(exchange: Exchange, config: PipelineConfig, spec: RequestSpec, attempts: number): Promise<Outcome<T>> {
  const { response, text } = exchange;
  const errorContext = { headers: response.headers, redact: config.redact };
  const gateway = gatewayInfo(spec.body, response.headers, attempts, config.redact);
  if (text === undefined) return streamOutcome<T>(exchange, config, spec, gateway);
  if (spec.stream === true) throw notAStreamError(response, text, config.redact);
  let data: unknown;
  try {
    data = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw errorFromBody(response.status, text, errorContext);
  }
  if (isErrorDocument(data)) throw errorFromBody(undefined, data, errorContext);
  const readable = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A model's answer says which model and provider served it and what it cost: kept beside
  // the data, not in it, so the data serialises as it was sent.
  if (isRecord(data)) {
    // Some providers spell it `reasoning_content`: read as `reasoning`, which wins when both come.
    if (Array.isArray(data.choices)) {
      for (const choice of data.choices) {
        const message: unknown = isRecord(choice) ? choice.message : undefined;
        if (isRecord(message) && message.reasoning == null && typeof message.reasoning_content === "string") message.reasoning = message.reasoning_content;
      }
    }
    if (gateway.requestedModel !== null && !("gateway" in data)) {
      learnFrom(gateway, data);
      Object.defineProperty(data, "gateway", { value: gateway, configurable: true });
    }
  }
  return { data: data as T, response: readable, asResponse: readable };
}

function streamOutcome<T>(exchange: Exchange, config: PipelineConfig, spec: RequestSpec, gateway: GatewayInfo): Outcome<T> {
  const { response, controller, stopTimeout, release } = exchange;
  // One reader for the body, started now: its first read ends the timeout when the first byte
  // arrives, and an abort cancels the body, whether the caller reads the Stream, reads the
  // raw body from asResponse(), or neither.
  const reader = new BodyReader(response.body ?? new ReadableStream(), {
    controller,
    idleTimeoutMs: config.streamIdleTimeout,
    onFirstRead: stopTimeout,
    onEnd: release,
  });
  const stream = Stream.fromSSEResponse(response, reader, controller, gateway, {
    maxLineLength: config.maxSSELineLength,
    requireUsage: asksForUsage(spec.body),
    audioFormat: isRecord(spec.body) && isRecord(spec.body.audio) && typeof spec.body.audio.format === "string" ? spec.body.audio.format : undefined,
    choiceCount: isRecord(spec.body) && typeof spec.body.n === "number" ? spec.body.n : undefined,
    errorContext: { redact: config.redact },
  });
  return {
    data: stream as T,
    response: () => response,
    asResponse: () => rawResponse(response, reader),
  };
}

function asksForUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

function toJSON(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ModelGateError(`The request body cannot be sent as JSON: ${(error as Error).message}`, { cause: error });
  }
}

function newIdempotencyKey(): string {
  const cryptoObject = globalThis.crypto as Crypto | undefined;
  const random =
    typeof cryptoObject?.randomUUID === "function"
      ? cryptoObject.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  return `modelgate-${random}`;
}
