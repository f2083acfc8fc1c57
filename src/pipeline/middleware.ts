import type { Fetch, Middleware, MiddlewareContext, MiddlewareNext, RequestOptions } from "../client/options.ts";
import { APIConnectionError, APIError, ModelGateError } from "../errors/index.ts";
import { describeValue, invalidArgument } from "../errors/invalid-argument.ts";
import { describeCause } from "../errors/describe-cause.ts";
import { withoutKey } from "../errors/fetch-failure.ts";
import type { Redact } from "../internal/redact.ts";
import { callOptionsWith } from "./call-options.ts";
import { fetchedResponse } from "./fetched-response.ts";
import { followingRedirects } from "./redirects.ts";
import type { PipelineConfig, Progress, RequestSpec } from "./request.ts";

/**
 * The `fetch` of one attempt: `list` (the client's middleware, then the call's) composed around
 * the client's `fetch`, the first the outermost. The attempt calls it as it would call `fetch`,
 * with its own signal, under its own timeout, and reads what it resolves to as the network's
 * answer. What it rejects with:
 * - what `next` rejected with (a middleware let it through or rethrew it): the fetch failure
 *   it is, which the attempt reads as it reads any (a connection error, an abort; the
 *   attempt keeps it as `cause` only where it is free of the key);
 * - the `BudgetExceededError` `next` refused a send with: as it is;
 * - an `APIError` a middleware threw: its class, retried as its class and status are (a
 *   redacted copy of that class where any part of it shows the key);
 * - anything else a middleware threw: a `ModelGateError` whose `cause` is the thrown value
 *   where it is provably free of the key, else a redacted copy (see `keptOrRedacted`): a
 *   middleware holds the `Request`, whose `Authorization` header is the key.
 * A send `next` makes beyond the first of the attempt counts as an attempt of its own in
 * `progress` (and so in `gateway.attempts`), and under `maxCost` is made only while the
 * call's worst case stays within it.
 */
export function throughMiddleware(list: Middleware[], config: PipelineConfig, spec: RequestSpec, options: RequestOptions, progress: Progress): Fetch {
  // Under `maxCost`, the network fetch counts and checks every send of the call (see `RequestSpec.sendBudget`).
  // Redirects are followed there, below every middleware: a credential header a middleware
  // set is stripped on a hop to another origin, as the client's own are.
  const network = followingRedirects(spec.sendBudget?.(config.fetch) ?? config.fetch, config.redact);
  // No middleware (a call with `maxCost` comes here for the budget alone): fetch as is, with no Request built.
  if (!list[0]) return network;
  return async (url, init = {}) => {
    // The SDK's own fields are the Request's; the rest (a `dispatcher`, `credentials`) goes to
    // every fetch `next` makes, as it would go to a fetch without middleware.
    const { method: _method, headers: _headers, body: _body, signal, ...extras } = init;
    const attemptSignal = signal as AbortSignal;
    /** What `next` rejected with: a middleware that rethrows it has met that fetch failure. */
    const failures = new Set<unknown>();
    let sends = 0;
    const next: MiddlewareNext = async (request) => {
      if (typeof (request as Partial<Request> | undefined)?.clone !== "function") throw invalidArgument("next(request)", "a Request", request);
      // Every send may be answered and billed: one beyond the first of this attempt is an
      // attempt of its own.
      progress.sends = (progress.sends ?? 0) + 1;
      if (sends++ > 0) {
        progress.attempts++;
        progress.resends = (progress.resends ?? 0) + 1;
      }
      try {
        // A clone, so `next` may be called again with the same Request; and the attempt's
        // signal, so a Request a middleware built without it still ends with the attempt.
        const answer = await network(request.clone(), { ...extras, signal: bothSignals(request.signal, attemptSignal) });
        // Checked here too, so that what the `fetch` option resolved to is named as its own mistake.
        return fetchedResponse(answer, "The `fetch` option", config.redact);
      } catch (error) {
        // The budget's refusal is thrown as it is, as a fetch failure is.
        failures.add(error);
        throw error;
      }
    };
    const request = new Request(url, init);
    const context: MiddlewareContext = {
      method: spec.method,
      path: String(url).slice(config.root.length).split("?")[0] as string,
      // The SDK's attempts (first, retries, re-sends): a middleware's own extra sends are not among them.
      attempt: progress.attempts - (progress.resends ?? 0),
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
      if (failures.has(error)) throw error;
      // The copy's class, not the thrown value's: asking a Proxy for its class may throw.
      const cause = withoutKey(error, config.redact);
      if (cause instanceof APIError) throw cause;
      const what = cause instanceof Error ? `${cause.name}: ${describeCause(cause)}` : describeValue(cause);
      throw new ModelGateError(`A middleware threw (${what}), so the request failed; see \`cause\`.`, { cause });
    }
    // Read like fetch's answer: a middleware that forgot to return one, or returned one it
    // had read, is named here rather than failing as a connection error that is retried (and
    // paid for) again and again.
    return fetchedResponse(response, "A middleware", config.redact);
  };
}

/** The call's options as the attempt runs them: the client's value where the call gives none. */
function withClientDefaults(options: RequestOptions, config: PipelineConfig): RequestOptions {
  // Read, not spread: a spread keeps own fields only, and a `timeout` given by a prototype or a
  // getter (which the attempt runs with) would show as the client's.
  const own = callOptionsWith(options, {}) as RequestOptions;
  return {
    ...own,
    timeout: own.timeout ?? config.timeout,
    maxRetries: own.maxRetries ?? config.maxRetries,
    shrinkToAffordable: own.shrinkToAffordable ?? config.shrinkToAffordable,
    fetchOptions: { ...config.fetchOptions, ...own.fetchOptions },
  };
}

/** Aborted when either is; where `AbortSignal.any` is missing (older runtimes), the attempt's alone. */
function bothSignals(own: AbortSignal, attempt: AbortSignal): AbortSignal {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  return own === attempt || !any ? attempt : any([own, attempt]);
}
