/** Any function with the Fetch API's signature: the global `fetch`, a proxy-aware one, a mock. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

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
}
