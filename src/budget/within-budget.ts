// `maxCost`: keeps a chat call within a budget before anything is sent. Loaded lazily, with
// the stream helpers (`loadHelpers()`), by a call that sets the option.
import type { APIPromise, Outcome } from "../pipeline/api-promise.ts";
import { outcomeOf } from "../pipeline/outcome-of.ts";
import type { Requester } from "../resources/requester.ts";
import { sdk } from "../streaming/lazy/shared.ts";
import { catalogueOf } from "./catalogue.ts";
import { estimatePromptTokens } from "./estimate.ts";

/** Sends a chat request the way `send` does, after fitting it to `options.maxCost`. */
export async function withinBudget(
  client: Requester,
  params: unknown,
  options: Record<string, unknown>,
  send: (params: unknown, options: Record<string, unknown>) => APIPromise<unknown>,
): Promise<Outcome<unknown>> {
  const { maxCost, ...rest } = options;
  const fitted = await fitToBudget(client, params, maxCost);
  return outcomeOf(send(fitted, rest), sdk.isRecord(params) && params.stream === true);
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
export async function fitToBudget(client: Requester, params: unknown, maxCost: unknown): Promise<unknown> {
  if (!(typeof maxCost === "number" && maxCost > 0 && Number.isFinite(maxCost))) {
    throw new sdk.ModelGateError(`\`maxCost\` must be a positive number of US dollars; got ${typeof maxCost === "string" ? JSON.stringify(maxCost) : String(maxCost)}.`);
  }
  // Not an object, or no model: create() names the mistake.
  if (!sdk.isRecord(params) || typeof params.model !== "string") return params;
  if (params.model === "auto") {
    const route = sdk.isRecord(params.route) ? params.route : {};
    return { ...params, route: { ...route, max_cost: maxCost } };
  }
  const { models } = await catalogueOf(client);
  const promptTokens = estimatePromptTokens(params);
  const candidates = [params.model, ...(Array.isArray(params.models) ? params.models.filter((id): id is string => typeof id === "string") : [])];
  let affordable = Infinity;
  let longestReply = 0;
  for (const id of candidates) {
    const model = models.get(id);
    const pricing = model?.pricing;
    if (!(typeof pricing?.prompt === "number" && typeof pricing.completion === "number")) {
      throw new sdk.BudgetExceededError(
        `maxCost: the catalogue has no price for "${id}", so a budget of ${usd(maxCost)} cannot be checked. Nothing was sent.`,
        { maxCost, model: id, worstCase: null },
      );
    }
    const promptCost = (promptTokens * pricing.prompt) / 1e6;
    const tokenCost = pricing.completion / 1e6;
    // A tiny allowance for floating point: a worst case that fits exactly must fit.
    const tokens = tokenCost > 0 ? Math.floor((maxCost - promptCost) / tokenCost + 1e-6) : Infinity;
    if (tokens < 1) {
      const worstCase = promptCost + tokenCost;
      throw new sdk.BudgetExceededError(
        `maxCost: the prompt (about ${promptTokens} tokens, estimated from above) and one token of reply may cost ${usd(worstCase)} on "${id}", more than the budget of ${usd(maxCost)}. Nothing was sent.`,
        { maxCost, model: id, worstCase },
      );
    }
    affordable = Math.min(affordable, tokens);
    longestReply = Math.max(longestReply, model?.max_output_tokens ?? Infinity);
  }
  // The reply may be as long as asked, or as the model allows when nothing is asked.
  const limits = ["max_tokens", "max_completion_tokens"].filter((name) => typeof params[name] === "number");
  const asked = limits.length > 0 ? Math.min(...limits.map((name) => params[name] as number)) : longestReply;
  if (asked <= affordable) return params;
  return { ...params, ...Object.fromEntries((limits.length > 0 ? limits : ["max_tokens"]).map((name) => [name, affordable])) };
}

function usd(amount: number): string {
  return `$${Number(amount.toPrecision(3))}`;
}
