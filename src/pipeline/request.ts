import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "../errors/index.ts";
import type { ErrorContext } from "../errors/from-body.ts";
import type { Redact } from "../internal/redact.ts";
import { gatewayInfo, type GatewayInfo } from "../gateway/info.ts";
import { callBounds } from "./call-options.ts";
import { loadTracing } from "./loader.ts";
import type { Logger } from "../logging/logger.ts";
import { warnUntraced } from "../logging/untraced.ts";
import type { BodyReader } from "../streaming/body-reader.ts";
import type { EndRules } from "../streaming/chunk-events.ts";
import type { SSEChunkOptions } from "../streaming/sse-chunks.ts";
import type { Stream } from "../streaming/stream.ts";
import { createAPIPromise, type APIPromise, type Outcome } from "./api-promise.ts";
import type { ResponseKind } from "./attempt.ts";
import type { APIKeySource } from "./auth.ts";
import type { Fetch, HeadersInput, Middleware, QueryInput, RequestOptions } from "./options.ts";
import { runRequest } from "./run-request.ts";
import { subscribedChannel, type RequestChannel } from "./trace-channel.ts";

/** Everything about the client that a request needs; built once by the client. */
export interface PipelineConfig {
  /** The API key, or the function asked for it before each attempt. */
  apiKey: APIKeySource;
  /** Makes errors built later redact a key a function gave. */
  rememberSecret: (secret: string, forGood?: boolean) => void;
  /** Set once the credentials of the client's header layers are remembered (see `buildRequest`). */
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
  /**
   * Set once a call of this client went on untraced because tracing's code did not load: its
   * warning is logged once, and later calls take tracing's code only if it has loaded since,
   * without waiting for it again (a stalled load would otherwise hold every call to its timeout).
   */
  tracingMissed?: boolean;
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
   * body's reader; by default `sseStream` (streaming/sse-chunks.ts), which reads chat chunks.
   */
  stream?: ((response: Response, reader: BodyReader, controller: AbortController, gateway: GatewayInfo, options: SSEChunkOptions) => Stream<unknown>) | undefined;
  /**
   * For `"sse"`: the events a whole answer (parsed JSON) sent in place of a stream stands for,
   * when the resource knows its kind (chat's: a completion is a stream of one chunk, see
   * `wholeCompletionEvents`); `undefined` for JSON it does not take for an answer.
   */
  wholeAnswer?: ((data: unknown) => string | undefined) | undefined;
  /**
   * For `"json"`: shapes the parsed answer before the caller gets it, given what the gateway
   * did (a resource's own reading of its answers, e.g. chat's), and what an error it finds in
   * the answer is built with.
   */
  decode?: ((data: unknown, gateway: GatewayInfo, context: ErrorContext) => unknown) | undefined;
  options?: RequestOptions | undefined;
  /**
   * Checks the caller's arguments before anything is sent. Run inside the call, so a mistake
   * rejects the returned promise instead of throwing from the call itself.
   */
  validate?: (() => void) | undefined;
  /** Not published on the tracing channel: a request made for other calls (the catalogue behind `maxCost`). */
  untraced?: boolean | undefined;
  /**
   * Under `maxCost`: the check of every send of the call, set by the budget code (one per
   * call, so it counts the call's sends across attempts, retries, key refreshes, shrink
   * re-sends and a middleware's extra `next()`). It wraps the network `fetch` (the pipeline's,
   * or the middleware runner's inside `next`), which then refuses, with
   * `BudgetExceededError`, a send that may take the call past its budget.
   */
  sendBudget?: SendBudget | undefined;
}

/** The check `RequestSpec.sendBudget` holds: the network `fetch`, wrapped so that every send is counted and checked. */
export type SendBudget = (fetch: Fetch) => Fetch;

/**
 * The one path every request takes: build → send → retry → decode errors (build-request.ts,
 * run-request.ts). Resources only describe their endpoint; auth, timeouts, retries and error
 * classes all live here.
 */
export function request<T>(config: PipelineConfig, spec: RequestSpec): APIPromise<T> {
  const channel = subscribedChannel();
  const call = (progress: Progress) =>
    runRequest<T>(config, spec, progress).catch((error) => {
      // Every APIError says what was known when the call failed (errors a stream throws later
      // get theirs from the stream, see `iterateSSEChunks`).
      if (error instanceof APIError) (error as { gateway: GatewayInfo }).gateway = gatewayInfo(spec.body, error.headers, progress.attempts, config.redact);
      throw error;
    });
  // Published on the `modelgate:request` tracing channel while anyone listens. The trace is
  // given the call's promise: a layer over it (parse()) may say what it finally gave.
  const promise: APIPromise<T> = createAPIPromise(channel ? traced(channel, config, spec, call, () => promise) : call({ attempts: 0 }));
  return promise;
}

/**
 * The call, published on `channel` by tracing's code, which the first call that finds the
 * channel subscribed requests. The wait for it is bounded by the call's signal and timeout
 * (API.md): the caller's abort ends the call; a load that fails or outlasts the timeout
 * leaves the call to go on untraced, with one warning line per client. Tracing never fails a
 * call.
 */
async function traced<T>(channel: RequestChannel, config: PipelineConfig, spec: RequestSpec, call: (progress: Progress) => Promise<Outcome<T>>, promise: () => object): Promise<Outcome<T>> {
  // After a miss, a call takes the code if it is there by now and waits for nothing.
  const bounds = config.tracingMissed ? { ...callBounds(spec.options, config.timeout), timeout: 0 } : callBounds(spec.options, config.timeout);
  let tracing: Awaited<ReturnType<typeof loadTracing>>;
  try {
    tracing = await loadTracing(bounds);
  } catch (error) {
    if (error instanceof APIUserAbortError) throw error;
    if (!config.tracingMissed) {
      config.tracingMissed = true;
      warnUntraced(config.log, error instanceof APIConnectionTimeoutError ? { timeoutMs: bounds.timeout } : { failure: error }, config.redact);
    }
    return call({ attempts: 0 });
  }
  return tracing.traceCall(channel, config, spec, call, promise());
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
