import type { LogLevel, Logger } from "../logging/logger.ts";
import type { APIKeyFunction } from "../pipeline/auth.ts";
import type { Fetch, HeadersInput, Middleware, QueryInput } from "../pipeline/options.ts";

export type { Fetch, HeadersInput, Middleware, MiddlewareContext, MiddlewareNext, QueryInput, RequestOptions } from "../pipeline/options.ts";

/**
 * Options of `new ModelGate(options)`. One given as `undefined` or `null` takes its default; a
 * value of the wrong kind (and `maxCost`, a per-call option) throws a `ModelGateError` naming it.
 */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`; or a function that gives it
   * (`() => string | Promise<string>`, for rotating or short-lived keys). A function is never
   * called at construction: it is asked before each attempt, and once more after a 401 (a
   * changed key then repeats the attempt once, not counted against `maxRetries`). If it
   * throws, the call rejects with a `ModelGateError` whose `cause` is what it threw.
   * @default process.env.MODELGATE_API_KEY (or Deno.env) — a `ModelGateError` at construction when neither is set.
   */
  apiKey?: string | APIKeyFunction | undefined;
  /**
   * The service root, e.g. `https://gateway.example.com`. Given with or without a trailing
   * `/v1`, requests go to `{root}/v1/...` (the prefix is never doubled).
   * @default process.env.MODELGATE_BASE_URL (or Deno.env) — a `ModelGateError` at construction when neither is set or it is not an http(s) URL.
   */
  baseURL?: string | undefined;
  /**
   * Milliseconds one attempt may take: until the whole body of a non-streamed reply, or until
   * the first byte of a stream's body (response headers alone do not stop it, so a gateway
   * that answers 200 and then stays silent fails within `timeout`). Past it the attempt fails
   * with `APIConnectionTimeoutError` (retried while the stream has not been returned yet).
   * @default 600000 (10 minutes)
   */
  timeout?: number | undefined;
  /**
   * The longest wait, in milliseconds, between two events of a stream. Keep-alive comments
   * (`: PROCESSING`) do not reset it, so a gateway that only sends keep-alives cannot hang the
   * caller. Past it the stream throws `APIConnectionTimeoutError`. The clock runs only while
   * the SDK waits on the network for the next event: time your code spends with a chunk (a
   * slow loop body, a slow browser reading `toReadableStream()`) never counts.
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
   * Functions every HTTP attempt of every request goes through, in array order (the first is
   * the outermost), outside a call's own `middleware`: `(request, next, context) =>
   * Promise<Response>`. See `Middleware`.
   */
  middleware?: Middleware[] | undefined;
  /**
   * Extra `RequestInit` fields for every fetch call, e.g. `{ dispatcher }` for a proxy agent
   * on Node or `{ credentials: "omit" }` in a browser. `method`, `headers`, `body` and
   * `signal` are the SDK's own and cannot be set here (use `headers` options and `signal`).
   */
  fetchOptions?: RequestInit | undefined;
  /**
   * Headers sent with every request: a `Headers`, `[name, value]` pairs or a record, where
   * `null` removes a header the SDK would send.
   */
  defaultHeaders?: HeadersInput | undefined;
  /** Query parameters added to every request (replacing those of the same name in `baseURL`). */
  defaultQuery?: QueryInput | undefined;
  /**
   * The longest line (and event) a stream may send, in characters, before the stream fails
   * instead of buffering without bound.
   * @default 16777216 (16 Mi)
   */
  maxSSELineLength?: number | undefined;
  /**
   * After a 402 whose body says how many tokens the account can afford
   * (`error.metadata.affordable_tokens`, also `PaymentRequiredError.affordableTokens`), retry
   * the call once with `max_tokens` (or `max_completion_tokens`, whichever was sent; both
   * when both were) lowered to that number. Never more than once per call; not counted
   * against `maxRetries`. The reply is then shorter than asked for: check `finish_reason`.
   * @default false
   */
  shrinkToAffordable?: boolean | undefined;
  /**
   * How much to log. `"debug"` logs every request, response and retry, with credentials
   * redacted; `"warn"` only warns (e.g. about sending the key over plain http).
   * @default process.env.MODELGATE_LOG (or Deno.env), else "warn"
   */
  logLevel?: LogLevel | undefined;
  /**
   * Put the messages sent and received on the `modelgate:request` tracing channel (and so on
   * `modelgate/otel` spans), as `gen_ai.input.messages` and `gen_ai.output.messages` JSON
   * strings. Off by default: prompts and replies often hold what should not leave the process.
   * @default false
   */
  traceContent?: boolean | undefined;
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
