import type { LogLevel, Logger } from "./logger.ts";

/** Any function with the Fetch API's signature: the global `fetch`, a proxy-aware one, a mock. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Header values to merge into a request. `null` removes a header set by an earlier layer
 * (SDK defaults → client `defaultHeaders` → per-request `headers`); `undefined` leaves it as is.
 */
export type HeadersInput = Record<string, string | null | undefined>;

/** Query parameters; `undefined` and `null` values are left out. */
export type QueryInput = Record<string, string | number | boolean | null | undefined>;

/** Options of `new ModelGate(options)`. */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`.
   * @default process.env.MODELGATE_API_KEY (or Deno.env) — a `ModelGateError` at construction when neither is set.
   */
  apiKey?: string | undefined;
  /**
   * The service root, e.g. `https://gateway.example.com`. Given with or without a trailing
   * `/v1`, requests go to `{root}/v1/...` (the prefix is never doubled).
   * @default process.env.MODELGATE_BASE_URL (or Deno.env) — a `ModelGateError` at construction when neither is set or it is not an http(s) URL.
   */
  baseURL?: string | undefined;
  /**
   * Milliseconds one attempt may take: until the whole body of a non-streamed reply, or until
   * the response headers of a stream. Past it the attempt fails with
   * `APIConnectionTimeoutError` (and is retried).
   * @default 600000 (10 minutes)
   */
  timeout?: number | undefined;
  /**
   * The longest wait, in milliseconds, between two events of a stream. Keep-alive comments
   * (`: PROCESSING`) do not reset it, so a gateway that only sends keep-alives cannot hang the
   * caller. Past it the stream throws `APIConnectionTimeoutError`.
   * @default 300000 (5 minutes)
   */
  streamIdleTimeout?: number | undefined;
  /**
   * How many times a failed attempt is retried (connection errors, timeouts, 408, 409, 429,
   * 5xx), with exponential backoff. `0` means exactly one attempt.
   * @default 2
   */
  maxRetries?: number | undefined;
  /** The fetch implementation to use. @default globalThis.fetch */
  fetch?: Fetch | undefined;
  /**
   * Extra `RequestInit` fields for every fetch call, e.g. `{ dispatcher }` for a proxy agent
   * on Node or `{ credentials: "omit" }` in a browser. `method`, `headers`, `body` and
   * `signal` are the SDK's own and cannot be set here (use `headers` options and `signal`).
   */
  fetchOptions?: RequestInit | undefined;
  /** Headers sent with every request; `null` removes a header the SDK would send. */
  defaultHeaders?: HeadersInput | undefined;
  /** Query parameters added to every request. */
  defaultQuery?: QueryInput | undefined;
  /**
   * The longest line (and event) a stream may send, in characters, before the stream fails
   * instead of buffering without bound.
   * @default 16777216 (16 Mi)
   */
  maxSSELineLength?: number | undefined;
  /**
   * How much to log. `"debug"` logs every request, response and retry, with credentials
   * redacted; `"warn"` only warns (e.g. about sending the key over plain http).
   * @default process.env.MODELGATE_LOG (or Deno.env), else "warn"
   */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. @default console */
  logger?: Logger | undefined;
  /**
   * In a browser the constructor throws unless this is `true`, because the API key would be
   * readable by anyone who opens the page. Set it only when the key is the visitor's own or
   * a short-lived, tightly scoped one.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** The last argument of every method: overrides for one call. */
export interface RequestOptions {
  /** Aborts the call (and a stream it returned): the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal | null | undefined;
  /** Overrides the client's `timeout` for this call (milliseconds per attempt). */
  timeout?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
  /** Extra headers for this call; `null` removes one. */
  headers?: HeadersInput | undefined;
  /** Extra query parameters for this call. */
  query?: QueryInput | undefined;
  /**
   * The `Idempotency-Key` sent with a non-GET request, the same on every retry of the call.
   * @default a random UUID per call
   */
  idempotencyKey?: string | undefined;
  /** Extra `RequestInit` fields for this call, merged over the client's `fetchOptions`. */
  fetchOptions?: RequestInit | undefined;
}
