// `maxCost`: keeps a chat call within a budget before anything is sent. Loaded lazily, with
// the stream helpers (`loadHelpers()`), by a call that sets the option.
import { assertChatParams, invalidArgument, isRecord, outcomeOf, type APIPromise, type Outcome, type Requester } from "../core.ts";
import { catalogueOf } from "./catalogue.ts";
import { replyRoom } from "./worst-case.ts";

/** Sends a chat request the way `send` does, after fitting it to `options.maxCost`. */
export async function withinBudget(
  client: Requester,
  params: unknown,
  options: Record<string, unknown>,
  send: (params: unknown, options: Record<string, unknown>) => APIPromise<unknown>,
): Promise<Outcome<unknown>> {
  const { maxCost, ...rest } = options;
  const fitted = await fitToBudget(client, params, maxCost, rest.signal as AbortSignal | undefined, rest.timeout as number | undefined);
  return outcomeOf(send(fitted, rest), isRecord(params) && params.stream === true);
}

/**
 * `params` with a worst case within `maxCost` USD. With `model: "auto"` the gateway is told
 * (`route.max_cost`) and picks a model that fits. With a model id (and its `models`
 * fallbacks), their catalogue prices give the worst case (the estimated prompt plus
 * `max_tokens` — or the model's `max_output_tokens` when none is asked for); `max_tokens` is
 * lowered until it fits.
 * @throws BudgetExceededError when even the prompt and one token of reply may cost more, or
 *   when the catalogue has no price for a model (a budget that cannot be checked is not kept).
 */
export async function fitToBudget(client: Requester, params: unknown, maxCost: unknown, signal?: AbortSignal | null, timeoutMs?: number): Promise<unknown> {
  if (!(typeof maxCost === "number" && maxCost > 0 && Number.isFinite(maxCost))) {
    throw invalidArgument("maxCost", "a positive number of US dollars", maxCost);
  }
  // Not an object, or no model: create() names the mistake.
  if (!isRecord(params) || typeof params.model !== "string") return params;
  if (params.route != null && !isRecord(params.route)) throw invalidArgument("route", "an object of routing filters", params.route);
  if (params.model === "auto") {
    const route = isRecord(params.route) ? params.route : {};
    // A tighter max_cost the caller wrote stays.
    const given = typeof route.max_cost === "number" ? route.max_cost : Infinity;
    return { ...params, route: { ...route, max_cost: Math.min(given, maxCost) } };
  }
  // The caller's own mistakes are named before the network is asked for anything.
  assertChatParams(params);
  const { models } = await catalogueOf(client, signal, timeoutMs);
  const { affordable, asked, limits } = replyRoom(params, maxCost, models);
  if (asked <= affordable) return params;
  return { ...params, ...Object.fromEntries((limits.length > 0 ? limits : ["max_tokens"]).map((name) => [name, affordable])) };
}
