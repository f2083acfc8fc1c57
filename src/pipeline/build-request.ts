// Building a call's request from what a resource described (its `RequestSpec`) and the
// client's configuration: the URL, the headers under a key, the body, the idempotency key, the
// fetch each attempt goes through, and the per-call state its retries and re-sends count on.
// Running it is run-request.ts.
import { argumentError, invalidArgument } from "../errors/invalid-argument.ts";
import { CREDENTIAL_HEADERS } from "../internal/redact.ts";
import type { ResponseKind } from "./attempt.ts";
import type { APIKeyFunction } from "./auth.ts";
import { assertOptions } from "./call-options.ts";
import { mergeHeaders } from "./headers.ts";
import { keyFrom } from "./key-function.ts";
import { throughMiddleware } from "./middleware.ts";
import { followingRedirects } from "./redirects.ts";
import type { CallState } from "./next-step.ts";
import type { Fetch, RequestOptions } from "./options.ts";
import type { PipelineConfig, Progress, RequestSpec } from "./request.ts";
import { buildURL } from "./url.ts";

/** One call's request, as every attempt of it sends it. */
export interface BuiltRequest {
  /** The call's options as given (`{}` when none). */
  options: RequestOptions;
  kind: ResponseKind;
  /** The call's `timeout`, else the client's: per attempt, and for each wait beside one. */
  timeoutMs: number;
  url: string;
  /** JSON text, a `FormData` or a caller's `ReadableStream` sent as it is, or none. */
  body: string | FormData | ReadableStream | undefined;
  /** `duplex: "half"` for a stream body (which fetch requires then), else nothing. */
  duplex: { duplex?: "half" };
  /** What each attempt fetches with: the client's `fetch`, or the middleware runner around it. */
  fetch: Fetch;
  /** What the call's retries and re-sends have used so far. */
  state: CallState;
  /** The headers sent under `key`; built anew when the key changes. */
  headersFor(key: string): Headers;
  /** Asks the `apiKey` function (call it only when `apiKey` is one), within the call's signal and timeout. */
  askForKey(): Promise<string>;
  /**
   * Sends `smaller` from now on (`shrinkToAffordable`): another request, so it gets its own
   * idempotency key, in `headers` and in every set of headers built later.
   */
  shrinkTo(smaller: unknown, headers: Headers): void;
}

/**
 * Checks the call (its options, the resource's `validate`, the path) and builds its request.
 * @throws ModelGateError naming the option, argument or body that cannot be sent
 */
export function buildRequest(config: PipelineConfig, spec: RequestSpec, progress: Progress): BuiltRequest {
  // Most calls have no options: nothing to check (a `null` is checked, and refused).
  if (spec.options !== undefined) assertOptions(spec.options, config.redact);
  const options: RequestOptions = spec.options ?? {};
  spec.validate?.();
  if (typeof spec.path !== "string") throw invalidArgument("path", 'a string such as "/v1/models"', spec.path);
  // A budget is kept by the chat calls only (they give the request its `sendBudget`): anywhere
  // else it would be accepted and ignored, and the request sent and paid for uncapped.
  if ((options as { maxCost?: unknown }).maxCost != null && !spec.sendBudget) {
    throw argumentError("maxCost", `is kept by chat calls only (create(), parse(), stream(), runTools()); ${spec.method} ${config.redact(spec.path)} would be sent without it`);
  }
  const kind = spec.response ?? "json";
  const timeoutMs = options.timeout ?? config.timeout;
  const form = spec.body instanceof FormData;
  // A caller's stream (`client.post(path, { body: stream })`) goes out as it is, as openai
  // sends one. It can be read once only: no retry, new key or smaller request sends it again.
  const streamed = typeof ReadableStream === "function" && spec.body instanceof ReadableStream;
  const body = form || streamed ? (spec.body as FormData | ReadableStream) : spec.body === undefined ? undefined : toJSON(spec.body);
  const sdkHeaders = {
    accept: kind === "sse" ? "text/event-stream" : "application/json",
    "content-type": body === undefined || form || streamed ? undefined : "application/json",
    // The same key on every retry lets the gateway recognise a repeat of a request that
    // already reached it (e.g. the connection died after it was processed).
    "idempotency-key": spec.method === "GET" ? undefined : (options.idempotencyKey ?? newIdempotencyKey()),
  };
  const url = buildURL(config.root, spec.path, config.search, ...config.query, options.query);
  const middleware = config.middleware.concat(options.middleware ?? []);
  const built: BuiltRequest = {
    options,
    kind,
    timeoutMs,
    url,
    body,
    duplex: streamed ? { duplex: "half" } : {},
    // Most calls have neither: then fetch is called as is. Under `maxCost` the runner (with or
    // without middleware) checks every send against the budget.
    fetch: middleware[0] || spec.sendBudget ? throughMiddleware(middleware, config, spec, options, progress) : followingRedirects(config.fetch, config.redact),
    state: {
      retries: 0,
      maxRetries: streamed ? 0 : (options.maxRetries ?? config.maxRetries),
      mayAskForNewKey: !streamed && typeof config.apiKey !== "string",
      mayShrink: !streamed && (options.shrinkToAffordable ?? config.shrinkToAffordable),
    },
    headersFor: (key) => {
      // Authorization comes first, so `defaultHeaders` or the call's `headers` may replace or remove it.
      const headers = mergeHeaders(config.redact, { authorization: `Bearer ${key}`, ...sdkHeaders }, ...config.headers, options.headers);
      if (!config.credentialsKept || options.headers) rememberCredentials(config, headers, !config.credentialsKept);
      return headers;
    },
    askForKey: () => keyFrom(config.apiKey as APIKeyFunction, config.rememberSecret, config.redact, options.signal, timeoutMs),
    shrinkTo: (smaller, headers) => {
      built.body = toJSON(smaller);
      // Under a new idempotency key too, so an idempotent gateway does not answer it with the
      // 402 it stored for the first. None when the caller removed it (`headers: { "idempotency-key": null }`).
      const sentKey = headers.get("idempotency-key");
      if (sentKey) headers.set("idempotency-key", (sdkHeaders["idempotency-key"] = `${sentKey}-shrunk`));
    },
  };
  return built;
}

/**
 * A credential sent in a header (a proxy's `Authorization`, an `x-api-key` in `defaultHeaders`
 * or in a call's own `headers`) is cut out of errors as the key is. The client's own, read on
 * its first request (with that call's own headers, as they are merged in), for good; a later
 * call's own headers each time they are given, among the last 1,024 secrets remembered, as a key
 * function's keys are: a per-tenant header may change on every call.
 */
function rememberCredentials(config: PipelineConfig, headers: Headers, forGood: boolean): void {
  config.credentialsKept = true;
  for (const name of CREDENTIAL_HEADERS) config.rememberSecret(headers.get(name)?.replace(/^\w+ /, "") ?? "", forGood);
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
