// The worst case of a chat request under a budget, shared by `maxCost` and the tool runner:
// the prompt (estimated from above) plus the longest reply, at catalogue prices, on every
// model that may serve it (the `models` fallbacks too), for every choice (`n`).
import { BudgetExceededError } from "../core.ts";
import type { Model } from "../types/index.ts";
import { estimatePromptTokens } from "./estimate.ts";

/** How long a reply may be, and how long the budget allows, in tokens per choice. */
export interface ReplyRoom {
  /** The most reply tokens per choice the budget pays for on every candidate model. */
  affordable: number;
  /** What the request lets a reply run to: its `max_tokens`/`max_completion_tokens`, else the models' own limit. */
  asked: number;
  /** The limit fields the request sets. */
  limits: string[];
}

/**
 * @throws BudgetExceededError when a candidate model has no price (a budget that cannot be
 *   checked is not kept), or when even the prompt and one token of reply may pass `budget`.
 */
export function replyRoom(params: Record<string, unknown>, budget: number, models: Map<string, Model>): ReplyRoom {
  const promptTokens = estimatePromptTokens(params);
  const choices = Number.isInteger(params.n) && (params.n as number) > 1 ? (params.n as number) : 1;
  const candidates = [params.model, ...(Array.isArray(params.models) ? params.models : [])].filter((id): id is string => typeof id === "string");
  let affordable = Infinity;
  let longest = 0;
  for (const id of candidates) {
    const model = models.get(id);
    const pricing = model?.pricing;
    if (!(typeof pricing?.prompt === "number" && typeof pricing.completion === "number" && pricing.prompt >= 0 && pricing.completion >= 0)) {
      throw new BudgetExceededError(`maxCost: the catalogue has no price for "${id}", so a budget of ${usd(budget)} cannot be checked. Nothing was sent.`, {
        maxCost: budget,
        model: id,
        worstCase: null,
      });
    }
    const promptCost = (promptTokens * pricing.prompt) / 1e6;
    // Every choice is a reply of its own.
    const tokenCost = (pricing.completion * choices) / 1e6;
    // A tiny allowance for floating point: a worst case that fits exactly must fit.
    const tokens = promptCost > budget * (1 + 1e-9) ? 0 : tokenCost > 0 ? Math.floor((budget - promptCost) / tokenCost + 1e-6) : Infinity;
    if (tokens < 1) {
      const worstCase = promptCost + tokenCost;
      throw new BudgetExceededError(
        `maxCost: the prompt (at most ${promptTokens} tokens) and one token of reply may cost ${usd(worstCase)} on "${id}", more than the budget of ${usd(budget)}. Nothing was sent.`,
        { maxCost: budget, model: id, worstCase },
      );
    }
    affordable = Math.min(affordable, tokens);
    const modelLimit = model?.max_output_tokens ?? (model?.context_length ? model.context_length - promptTokens : Infinity);
    longest = Math.max(longest, modelLimit);
  }
  const limits = ["max_tokens", "max_completion_tokens"].filter((name) => typeof params[name] === "number");
  const asked = limits.length > 0 ? Math.min(...limits.map((name) => params[name] as number)) : longest;
  return { affordable, asked, limits };
}

export function usd(amount: number): string {
  return `$${Number(amount.toPrecision(3))}`;
}
