import type { APIPromise, Outcome } from "./api-promise.ts";

// Used by the features that make their call through a method such as `create()` and hand the
// result on as their own (parse(), budgets, the endpoints), and read by tracing. None of them
// builds on another, so this is core code rather than one feature's; it imports nothing at run
// time.

/**
 * Per call (its `APIPromise`), what a layer over it finally gives the caller: a traced call
 * settles with that (parse() rejecting an answer that does not validate is the call's failure).
 */
export const finalData = new WeakMap<object, Promise<unknown>>();

/**
 * The outcome of an inner call, its `data` passed through `transform`. Its response is the
 * inner call's, the one object both `withResponse().response` and `asResponse()` give, as
 * openai gives one.
 */
export async function outcomeOf<T>(call: APIPromise<T>, transform?: (data: T) => unknown): Promise<Outcome<unknown>> {
  // What the caller finally gets, for the call's trace (see `finalData`); nobody may ask for it.
  let final: ((data: Promise<unknown>) => void) | undefined;
  if (transform) {
    const later = new Promise<unknown>((resolve) => (final = resolve));
    later.catch(() => {});
    finalData.set(call, later);
  }
  // `data` stays a promise: a transform that fails (an answer that does not validate) rejects
  // the call's own promise, while `asResponse()` still gives the raw response.
  const answered = call.withResponse();
  // A failed call fails as it is (the trace waits for `final` whichever way the call went).
  answered.catch((error: unknown) => final?.(Promise.reject(error)));
  const { data, response, requestID } = await answered;
  const transformed = Promise.resolve(data).then(transform);
  final?.(transformed);
  return {
    data: transformed,
    response: () => response,
    requestID,
    asResponse: () => call.asResponse(),
  };
}
