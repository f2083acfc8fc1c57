// Running a call's middleware, loaded on demand (see src/loader.ts) by the first attempt that
// has any: a client without middleware never loads this, and its attempts call `fetch` as is.
import {
  APIError,
  describeValue,
  invalidArgument,
  ModelGateError,
  redactThrown,
  type Fetch,
  type Middleware,
  type MiddlewareContext,
  type MiddlewareNext,
  type Redact,
  type RequestOptions,
} from "../core.ts";
import type { PipelineConfig, RequestSpec } from "../pipeline/request.ts";

/**
 * The `fetch` of one attempt: `list` (the client's middleware, then the call's) composed around
 * the client's `fetch`, the first the outermost. The attempt calls it as it would call `fetch`,
 * with its own signal, under its own timeout, and reads what it resolves to as the network's
 * answer. What it rejects with:
 * - what `next` rejected with (a middleware let it through or rethrew it): the fetch failure
 *   it is, which the attempt reads as it reads any (a connection error, an abort);
 * - an `APIError` a middleware threw: as it is, retried as its class and status are;
 * - anything else a middleware threw: a `ModelGateError` whose `cause` is a redacted copy of
 *   it (a middleware holds the `Request`, whose `Authorization` header is the key).
 */
export function throughMiddleware(list: Middleware[], config: PipelineConfig, spec: RequestSpec, options: RequestOptions, attempt: number): Fetch {
  return async (url, init = {}) => {
    // The SDK's own fields are the Request's; the rest (a `dispatcher`, `credentials`) goes to
    // every fetch `next` makes, as it would go to a fetch without middleware.
    const { method: _method, headers: _headers, body: _body, signal, ...extras } = init;
    const attemptSignal = signal as AbortSignal;
    /** What `next` rejected with: a middleware that rethrows it has met that fetch failure. */
    const failures = new Set<unknown>();
    const next: MiddlewareNext = async (request) => {
      if (typeof (request as Partial<Request> | undefined)?.clone !== "function") throw invalidArgument("next(request)", "a Request", request);
      try {
        // A clone, so `next` may be called again with the same Request; and the attempt's
        // signal, so a Request a middleware built without it still ends with the attempt.
        return await config.fetch(request.clone(), { ...extras, signal: bothSignals(request.signal, attemptSignal) });
      } catch (error) {
        failures.add(error);
        throw error;
      }
    };
    const request = new Request(url, init);
    const context: MiddlewareContext = {
      method: spec.method,
      path: String(url).slice(config.root.length).split("?")[0] as string,
      attempt,
      stream: spec.response === "sse",
      signal: attemptSignal,
      idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
      options: withClientDefaults(options, config),
    };
    // Each link async: a middleware that throws before its first `await` still rejects the
    // `next` of the one outside it, as a fetch would.
    const chain = list.reduceRight<MiddlewareNext>((inner, middleware) => async (sent) => middleware(sent, inner, context), next);
    let response: unknown;
    try {
      response = await chain(request);
    } catch (error) {
      if (failures.has(error) || error instanceof APIError) throw error;
      const cause = redacted(error, config.redact);
      const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : describeValue(cause);
      throw new ModelGateError(`A middleware threw (${what}), so the request failed; see \`cause\`.`, { cause });
    }
    // Read like fetch's answer below: a middleware that forgot to return one is named here.
    if (typeof (response as Partial<Response> | undefined)?.status !== "number") {
      throw new ModelGateError(`A middleware resolved to ${config.redact(describeValue(response))} instead of a Response.`);
    }
    return response as Response;
  };
}

/**
 * What a middleware threw, as the `cause` of the error it becomes: the value itself, unless
 * some text of it (message, stack, a field, a cause) shows a secret; then a redacted copy
 * (see `redactThrown`).
 */
function redacted(thrown: unknown, redact: Redact): unknown {
  let shows = false;
  const copy = redactThrown(thrown, (text) => {
    const cut = redact(text);
    shows ||= cut !== text;
    return cut;
  });
  return shows ? copy : thrown;
}

/** The call's options as the attempt runs them: the client's value where the call gives none. */
function withClientDefaults(options: RequestOptions, config: PipelineConfig): RequestOptions {
  return {
    ...options,
    timeout: options.timeout ?? config.timeout,
    maxRetries: options.maxRetries ?? config.maxRetries,
    shrinkToAffordable: options.shrinkToAffordable ?? config.shrinkToAffordable,
    fetchOptions: { ...config.fetchOptions, ...options.fetchOptions },
  };
}

/** Aborted when either is; where `AbortSignal.any` is missing (older runtimes), the attempt's alone. */
function bothSignals(own: AbortSignal, attempt: AbortSignal): AbortSignal {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  return own === attempt || !any ? attempt : any([own, attempt]);
}
