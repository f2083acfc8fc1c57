/** Any function with the Fetch API's signature: the global `fetch`, a proxy-aware one, a mock. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A function every HTTP attempt goes through (client option and call option `middleware`):
 * it gets the `Request` about to be sent (API key, idempotency key and every header set) and
 * resolves to the `Response` the SDK then reads as if the network had sent it: a stream stays
 * a stream, an error status is read and retried like any other. It may change the request,
 * call `next` zero or more times, or answer without it.
 *
 * ```ts
 * const timing: Middleware = async (request, next, { attempt }) => {
 *   const started = Date.now();
 *   const response = await next(request);
 *   console.log(`${request.method} ${new URL(request.url).pathname} #${attempt}: ${response.status} in ${Date.now() - started} ms`);
 *   return response;
 * };
 * ```
 *
 * It runs once per attempt, inside the retry loop (a retry, a repeat after a key refresh and a
 * `shrinkToAffordable` retry each run it again), and its time counts against the attempt's
 * `timeout`. A thrown `APIError` is kept as it is (and retried as its class and status are);
 * rethrowing what `next` rejected with is that fetch failure (a connection error is retried,
 * an abort stays an abort); anything else rejects the call with a `ModelGateError` whose
 * `cause` is the thrown value, with the API key cut out.
 */
export type Middleware = (request: Request, next: MiddlewareNext, context: MiddlewareContext) => Promise<Response>;

/**
 * Sends a request with the client's `fetch` (or the next middleware, inside this one). Each
 * call sends a clone, so it may be called again with the same `Request`; the attempt's signal
 * ends it even when the `Request` was built without it. Rejects as `fetch` does.
 */
export type MiddlewareNext = (request: Request) => Promise<Response>;

/** What a middleware knows about the attempt beside its `Request`. */
export interface MiddlewareContext {
  /** The HTTP method, as the request has it. */
  method: string;
  /** The path below the service root, as sent: `"/v1/chat/completions"`. */
  path: string;
  /** Which attempt of the call this is, from 1 (retries and re-sends after a key refresh or a shrink count). */
  attempt: number;
  /** Whether the answer is read as a stream of events (`stream: true`). */
  stream: boolean;
  /** The attempt's own signal: aborted by the caller's signal or the attempt's `timeout`. */
  signal: AbortSignal;
  /** The `Idempotency-Key` the request carries; `undefined` when it has none (a GET). */
  idempotencyKey: string | undefined;
  /** The call's options, the client's `timeout`, `maxRetries`, `shrinkToAffordable` and `fetchOptions` applied. */
  options: RequestOptions;
}

/**
 * Headers to merge into a request: a `Headers`, `[name, value]` pairs, or a record. In a record
 * `null` removes a header set by an earlier layer (SDK defaults → client `defaultHeaders` →
 * per-request `headers`) and `undefined` leaves it as it is.
 */
export type HeadersInput = HeadersInit | Record<string, string | null | undefined>;

/**
 * Query parameters, merged by name over those of earlier layers (a query string in `baseURL`
 * → client `defaultQuery` → per-request `query`): a value replaces the earlier one, `null`
 * removes it, `undefined` leaves it as it is.
 */
export type QueryInput = Record<string, string | number | boolean | null | undefined>;

/** The last argument of every method: overrides for one call. */
export interface RequestOptions {
  /** Aborts the call (and a stream it returned): the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal | null | undefined;
  /**
   * Overrides the client's `timeout` for this call: milliseconds per attempt, until the whole
   * body of a plain call or the first byte of a stream's body.
   */
  timeout?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
  /** Extra headers for this call; in a record, `null` removes one. */
  headers?: HeadersInput | undefined;
  /** Extra query parameters for this call, replacing earlier values of the same name. */
  query?: QueryInput | undefined;
  /**
   * The `Idempotency-Key` sent with a non-GET request, the same on every retry of the call.
   * @default a random UUID per call
   */
  idempotencyKey?: string | undefined;
  /** Extra `RequestInit` fields for this call, merged over the client's `fetchOptions`. */
  fetchOptions?: RequestInit | undefined;
  /**
   * Overrides the client's `shrinkToAffordable` for this call: after a 402 that says how many
   * tokens the account can afford, retry once with `max_tokens` lowered to that.
   */
  shrinkToAffordable?: boolean | undefined;
  /**
   * Middleware for this call's attempts, run inside the client's `middleware`, in array order
   * (the first is the outermost). See `Middleware`.
   */
  middleware?: Middleware[] | undefined;
}
