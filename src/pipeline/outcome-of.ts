import type { APIPromise, Outcome } from "./api-promise.ts";

// Used by lazily loaded code (parse(), budgets) that makes its call through a method such as
// `create()` and hands the result on as its own: it imports nothing at run time.

/**
 * The outcome of an inner call, its `data` passed through `transform`. For a plain call the
 * response is cloned per use, so that each `withResponse()` can read the body; a stream's is
 * the live one its `Stream` reads.
 */
export async function outcomeOf<T>(call: APIPromise<T>, streamed: boolean, transform: (data: T) => unknown = (data) => data): Promise<Outcome<unknown>> {
  // `data` stays a promise: a transform that fails (an answer that does not validate) rejects
  // the call's own promise, while `asResponse()` still gives the raw response.
  const { data, response } = await call.withResponse();
  return {
    data: Promise.resolve(data).then(transform),
    response: () => (streamed ? response : response.clone()),
    asResponse: () => call.asResponse(),
  };
}
