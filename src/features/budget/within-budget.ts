// `maxCost` on `create()` (and `parse()`, which calls it): keeps a chat call within a budget.
// Loaded on demand (see src/pipeline/loader.ts) by a call that sets the option.
import { BudgetExceededError } from "../../errors/budget-exceeded-error.ts";
import { isRecord } from "../../internal/values.ts";
import type { APIPromise, Outcome } from "../../pipeline/api-promise.ts";
import type { SendBudget } from "../../pipeline/request.ts";
import { assertOptions, callOptionsWith } from "../../pipeline/call-options.ts";
import { finalData, outcomeOf } from "../../pipeline/outcome-of.ts";
import { assertChatParams } from "../../resources/chat/validate.ts";
import type { Requester } from "../../resources/requester.ts";
import { catalogueOf } from "./catalogue.ts";
import { withReplyLimit } from "./reply-limit.ts";
import { assertRoute, isNoModelFitsError, noModelFits, routeMaxCost, withRouteMaxCost } from "./route.ts";
import { assertCountable, assertFallbacks, replyRoom, usd, worstCaseCost } from "./worst-case.ts";

/**
 * Sends a chat request the way `send` does, after fitting it to `options.maxCost`, with the
 * check of every send of the call (`sendBudget`, which `send` puts in the request's spec).
 * With `model: "auto"`, the gateway's 400 for "no model fits" is thrown as `BudgetExceededError`.
 */
export async function withinBudget(
  client: Requester,
  params: unknown,
  options: Record<string, unknown>,
  send: (params: unknown, options: Record<string, unknown>, sendBudget: SendBudget) => APIPromise<unknown>,
): Promise<Outcome<unknown>> {
  // Read, never copied with a spread (see callOptionsWith).
  const { maxCost } = options;
  const signal = options.signal as AbortSignal | undefined;
  const timeoutMs = options.timeout as number | undefined;
  let fitted: unknown;
  try {
    fitted = await fitToBudget(client, params, maxCost, signal, timeoutMs);
  } catch (error) {
    // Refused before anything is sent, it is still a call: it goes through the pipeline (which
    // sends nothing), so that a tracing subscriber sees it fail with the error the caller gets.
    const refuse = () => {
      throw error;
    };
    return outcomeOf(client.request({ method: "POST", path: "/v1/chat/completions", body: params, validate: refuse }));
  }
  // fitToBudget checked it: a positive number of USD.
  const budget = maxCost as number;
  const sendBudget = budgetedSends(client, fitted, budget, signal, timeoutMs);
  // The caller's options as a plain copy, every option read as their object answers it.
  const call = send(fitted, callOptionsWith(options, {}), sendBudget);
  const outcome = outcomeOf(call);
  const routed = isRecord(fitted) && fitted.model === "auto" ? routeMaxCost(fitted) : undefined;
  if (routed === undefined) return outcome;
  const converted = outcome.catch((error: unknown) => {
    throw isNoModelFitsError(error) ? noModelFits(error, routed) : error;
  });
  // The call's trace reports the error the caller gets (BudgetExceededError, not the gateway's 400).
  const final = converted.then((result) => result.data);
  final.catch(() => {});
  finalData.set(call, final);
  return converted;
}

/**
 * The check of every send of one call (`RequestSpec.sendBudget`): a send that may have been billed
 * (answered with a 2xx, or with no status at all: a connection error, a cut, a timeout after
 * sending) counts toward the call's worst case with its own worst case; one answered with an
 * error status was not served. Before each send, if the worst cases of the sends that may
 * have been billed plus this one's pass `budget`, it is refused with `BudgetExceededError`
 * and not made. Counted per call, so an SDK retry, a key-refresh repeat, a shrink re-send and
 * a middleware's extra `next()` are all checked alike, each priced as it is actually sent.
 */
function budgetedSends(client: Requester, fitted: unknown, budget: number, signal?: AbortSignal, timeoutMs?: number): SendBudget {
  /** The worst cases of the sends so far that may have been billed, summed. */
  let committed = 0;
  let billed = 0;
  let sends = 0;
  return (fetch) => async (input, init) => {
    sends++;
    // What is sent, as a middleware may have rewritten it (a larger `max_tokens`, another
    // `route`), else what was fitted.
    const sent = (await sentBody(input, init)) ?? fitted;
    const one = await sendWorstCase(client, sent, budget, signal, timeoutMs);
    const worstCase = committed + one;
    if (worstCase > budget * (1 + 1e-9)) {
      const what = Number.isFinite(one) ? `may take it to ${usd(worstCase)}` : "sends model auto without a route.max_cost to keep it within";
      throw new BudgetExceededError(
        `maxCost: send ${sends} of this call comes after ${billed} that may have been billed, which ${what}, more than the budget of ${usd(budget)}. That send was not made.`,
        { maxCost: budget, model: isRecord(fitted) ? String(fitted.model) : "", worstCase },
      );
    }
    // Counted from the moment it is made (sends in parallel each see the others), and
    // uncounted only once the gateway answers with an error status: it was not served. No
    // status (a connection error, a cut): it may have been served.
    committed += one;
    billed++;
    const response = await fetch(input, init);
    if (!response.ok) {
      committed -= one;
      billed--;
    }
    return response;
  };
}

/**
 * The most one send may cost: with a model id, its worst case at catalogue prices; with
 * "auto", the `route.max_cost` it carries (the gateway keeps the send within it), or no bound
 * at all when it carries none.
 */
async function sendWorstCase(client: Requester, sent: unknown, budget: number, signal?: AbortSignal, timeoutMs?: number): Promise<number> {
  if (!isRecord(sent)) return budget;
  if (sent.model !== "auto") return worstCaseCost(sent, (await catalogueOf(client, signal, timeoutMs)).models, budget);
  const cap = routeMaxCost(sent);
  return cap !== undefined && Number.isFinite(cap) && cap >= 0 ? cap : Number.POSITIVE_INFINITY;
}

/** The JSON body of a send, as `fetch` is given it (a `Request` through middleware); `undefined` when it cannot be read. */
async function sentBody(input: RequestInfo | URL, init?: RequestInit): Promise<unknown> {
  try {
    return JSON.parse(input instanceof Request ? await input.clone().text() : String(init?.body));
  } catch {
    return undefined;
  }
}

/**
 * `params` with a worst case within `maxCost` USD. With `model: "auto"` the gateway is told
 * (`route.max_cost`) and picks a model that fits. With a model id (and its `models`
 * fallbacks), their catalogue prices give the worst case (see `replyRoom`), and the reply
 * limit the gateway applies is lowered until it fits — sent explicitly when the request set
 * none, with no larger limit left beside it.
 * @throws BudgetExceededError when even the prompt and one token of reply may cost more, or
 *   when the catalogue has no price for a model (a budget that cannot be checked is not kept).
 * @throws ModelGateError naming `route.max_cost` when the caller set one that is not a
 *   positive number of USD, or `models` when it is set and not an array of model ids.
 */
export async function fitToBudget(client: Requester, params: unknown, maxCost: unknown, signal?: AbortSignal | null, timeoutMs?: number): Promise<unknown> {
  // The call's option rule (callBounds ran it before the load), on the value as read now.
  assertOptions({ maxCost });
  const cap = maxCost as number;
  // Not an object, or no model: create() names the mistake.
  if (!isRecord(params) || typeof params.model !== "string") return params;
  // A `route.max_cost` that is not a number of USD would take the budget's place (see
  // `assertRoute`); fallbacks that are not model ids would be sent unpriced.
  assertRoute(params);
  assertFallbacks(params);
  if (params.model === "auto") return withRouteMaxCost(params, cap);
  // The caller's own mistakes are named before the network is asked for anything.
  assertChatParams(params);
  assertCountable(params);
  const { models } = await catalogueOf(client, signal, timeoutMs);
  const { affordable, asked, limited } = replyRoom(params, cap, models);
  if (!limited && asked <= affordable) return params;
  return withReplyLimit(params, Math.min(asked, affordable));
}
