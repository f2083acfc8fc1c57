/** A result together with the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** The `x-request-id` response header: quote it when reporting a problem. */
  requestID: string | null;
}

/**
 * What every SDK method returns: a Promise of the parsed result that can also give the raw
 * HTTP response (`.asResponse()`) or both (`.withResponse()`).
 */
export interface APIPromise<T> extends Promise<T> {
  /**
   * Resolves to `{ data, response, requestID }`, `response` being the object `asResponse()`
   * gives. For a plain call it is rebuilt from the text the SDK read, so its body can be read
   * again; for a stream its body is read through the `Stream`'s reader (read it or the
   * `Stream`, not both; `stream.response` is the live response, its body taken by that reader).
   */
  withResponse(): Promise<WithResponse<T>>;
  /**
   * Resolves to the raw `Response`, its body readable (for a stream, the live body: read it or
   * the `Stream`, not both). The call's timeout and signal keep applying to that body.
   */
  asResponse(): Promise<Response>;
}

/** What the pipeline produces for one call. */
export interface Outcome<T> {
  /**
   * The result; a promise when it is worked out after the response (parse() validating an
   * answer), so that a failure there does not keep `asResponse()` from the raw response.
   */
  data: T | Promise<T>;
  /** The response for `withResponse()`. */
  response(): Response;
  /** Its `x-request-id` header, the key cut out (`requestIDOf`), for `withResponse()`. */
  requestID: string | null;
  /** The response for `asResponse()`, its body readable (loaded on first use for a stream). */
  asResponse(): Response | Promise<Response>;
  /**
   * For a whole answer sent in place of a stream: the events the `Stream` was made from, as a
   * body (the trace reads a stream's chunks from its body; `asResponse()` keeps the body as it came).
   */
  events?: () => Response;
}

/** Wraps the pipeline's outcome in the promise every method returns. */
export function createAPIPromise<T>(outcome: Promise<Outcome<T>>): APIPromise<T> {
  const promise = outcome.then((result) => result.data) as APIPromise<T>;
  // A caller who uses only .withResponse() never awaits `promise` itself; without a handler
  // its rejection would surface as an unhandled rejection and crash Node.
  promise.catch(() => {});
  promise.withResponse = () =>
    outcome.then(async (result) => {
      // The data first: a call whose answer failed (one that does not validate) rejects with
      // that failure, whatever became of the response's body.
      const data = await result.data;
      const response = result.response();
      return { data, response, requestID: result.requestID };
    });
  promise.asResponse = () => outcome.then((result) => result.asResponse());
  return promise;
}
