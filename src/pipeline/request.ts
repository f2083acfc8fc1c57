import { APIConnectionError, APIUserAbortError, ModelGateError, describeBody, errorFromBody, type APIError } from "../errors/index.ts";
import { headersForLog, type Logger } from "../client/logger.ts";
import type { Fetch, HeadersInput, QueryInput, RequestOptions } from "../client/options.ts";
import { Stream } from "../streaming/stream.ts";
import { attempt, type Exchange } from "./attempt.ts";
import { createAPIPromise, type APIPromise, type Outcome } from "./api-promise.ts";
import { mergeHeaders } from "./headers.ts";
import { redactKey } from "./redact.ts";
import { isRetryableResponse, retryDelayMs } from "./retry-policy.ts";
import { sleep } from "./sleep.ts";
import { buildURL } from "./url.ts";

/** Everything about the client that a request needs; built once by the client. */
export interface PipelineConfig {
  root: string;
  apiKey: string;
  fetch: Fetch;
  timeout: number;
  streamIdleTimeout: number;
  maxRetries: number;
  maxSSELineLength: number;
  /** SDK headers (auth, identification) merged with the client's `defaultHeaders`. */
  headers: HeadersInput;
  defaultQuery: QueryInput | undefined;
  fetchOptions: RequestInit | undefined;
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
  /** Serialised as JSON. */
  body?: unknown;
  /** Resolve to a `Stream` of the response's Server-Sent Events instead of parsed JSON. */
  stream?: boolean | undefined;
  options?: RequestOptions | undefined;
}

/**
 * The one path every request takes: build → send → retry → decode errors. Resources only
 * describe their endpoint; auth, timeouts, retries and error classes all live here.
 */
export function request<T>(config: PipelineConfig, spec: RequestSpec): APIPromise<T> {
  return createAPIPromise(run<T>(config, spec));
}

async function run<T>(config: PipelineConfig, spec: RequestSpec): Promise<Outcome<T>> {
  const options = spec.options ?? {};
  assertCallOptions(options);
  const stream = spec.stream === true;
  const maxRetries = options.maxRetries ?? config.maxRetries;
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const headers = mergeHeaders(
    {
      accept: stream ? "text/event-stream" : "application/json",
      "content-type": body === undefined ? undefined : "application/json",
      // The same key on every retry lets the gateway recognise a repeat of a request that
      // already reached it (e.g. the connection died after it was processed).
      "idempotency-key": spec.method === "GET" ? undefined : (options.idempotencyKey ?? newIdempotencyKey()),
    },
    config.headers,
    options.headers,
  );
  const url = buildURL(config.root, spec.path, config.defaultQuery, options.query);

  for (let retryIndex = 0; ; retryIndex++) {
    if (retryIndex > 0) headers.set("x-modelgate-retry-count", String(retryIndex));
    if (config.debug) config.log.debug(`modelgate: ${spec.method} ${url}`, { attempt: retryIndex + 1, headers: headersForLog(headers) });
    let exchange: Exchange;
    try {
      exchange = await attempt({
        fetch: config.fetch,
        url,
        init: { ...config.fetchOptions, ...options.fetchOptions, method: spec.method, headers, body: body ?? null },
        timeoutMs: options.timeout ?? config.timeout,
        signal: options.signal,
        stream,
      });
    } catch (error) {
      const retryable = error instanceof APIConnectionError && retryIndex < maxRetries;
      if (!retryable) throw error;
      const delay = retryDelayMs(retryIndex, undefined) ?? 0;
      if (config.debug) config.log.debug(`modelgate: retrying in ${Math.round(delay)} ms after: ${(error as Error).message}`);
      await waitBeforeRetry(delay, options.signal);
      continue;
    }

    const { response } = exchange;
    if (config.debug) {
      config.log.debug(`modelgate: ${response.status} from ${spec.method} ${url}`, { requestID: response.headers.get("x-request-id") });
    }
    if (response.ok) return decodeSuccess<T>(exchange, config, stream);

    const error = redactKey(errorFromBody(response.status, parseBody(exchange.text), response.headers), config.apiKey);
    const delay = retryIndex < maxRetries && isRetryableResponse(response) ? retryDelayMs(retryIndex, response.headers) : null;
    if (delay === null) throw error;
    if (config.debug) config.log.debug(`modelgate: retrying in ${Math.round(delay)} ms after status ${response.status}`);
    await waitBeforeRetry(delay, options.signal);
  }
}

/** Per-call overrides come from plain JavaScript too: a bad one is named before anything is sent. */
function assertCallOptions({ timeout, maxRetries }: RequestOptions): void {
  if (timeout !== undefined && !(typeof timeout === "number" && timeout >= 0)) {
    throw new ModelGateError(`The \`timeout\` option must be a non-negative number of milliseconds; got ${String(timeout)}.`);
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new ModelGateError(`The \`maxRetries\` option must be a whole number from 0; got ${String(maxRetries)}.`);
  }
}

async function waitBeforeRetry(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  if (!(await sleep(ms, signal))) throw new APIUserAbortError();
}

function decodeSuccess<T>(exchange: Exchange, config: PipelineConfig, stream: boolean): Outcome<T> {
  const { response, text } = exchange;
  if (stream && text !== undefined) throw redactKey(notAStream(response, text), config.apiKey);
  if (text === undefined) {
    const stream = Stream.fromSSEResponse(response, exchange.controller, {
      idleTimeoutMs: config.streamIdleTimeout,
      maxLineLength: config.maxSSELineLength,
      onEnd: exchange.release,
    });
    return { data: stream as T, response, readableResponse: () => response };
  }
  let data: unknown;
  try {
    data = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw redactKey(errorFromBody(response.status, text, response.headers), config.apiKey);
  }
  return {
    data: data as T,
    response,
    readableResponse: () =>
      new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }),
  };
}

/**
 * A stream request answered with a whole document (see `attempt`): an error object sent with
 * status 200, or a page from a proxy, reported with its own words.
 */
function notAStream(response: Response, text: string): APIError {
  const body = parseBody(text);
  if (typeof body === "object" && body !== null && "error" in body) return errorFromBody(response.status, body, response.headers);
  const received = response.headers.get("content-type") ?? "no content type";
  return errorFromBody(response.status, { message: `Expected an event stream but got ${received}: ${describeBody(text)}` }, response.headers);
}

/** Error bodies are JSON when the gateway answered, anything at all when a proxy did. */
function parseBody(text: string | undefined): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
