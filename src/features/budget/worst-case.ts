// The worst case of a chat request, shared by `maxCost` and the tool runner: an upper bound of
// what any request the gateway may serve for it can cost. For every model it may reach (the
// `models` fallbacks too), `n` choices, each the prompt (bounded from above) plus the longest
// reply (the limit the gateway applies, else the model's own) and any `prediction` it may not
// repeat, at catalogue prices.
import { BudgetExceededError } from "../../errors/budget-exceeded-error.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import type { Model } from "../../types/index.ts";
import { predictedTokensAtMost, promptTokensAtMost, promptTokensOn } from "./prompt-tokens.ts";
import { appliedLimit } from "./reply-limit.ts";

/** Prices in USD per million tokens, as the catalogue gives them. */
export interface Pricing {
  prompt: number;
  completion: number;
}

/**
 * What `promptTokens` and `completionTokens` cost at `pricing`, in USD: the formula of the
 * gateway's `usage.cost`, `(prompt × price + completion × price) / 1e6`.
 */
export function costOf(pricing: Pricing, promptTokens: number, completionTokens: number): number {
  return (promptTokens * pricing.prompt + completionTokens * pricing.completion) / 1e6;
}

/** The model's prices when the catalogue gives both as non-negative numbers; else `undefined`. */
export function pricingOf(model: Model | undefined): Pricing | undefined {
  const pricing: unknown = model?.pricing;
  if (!isRecord(pricing)) return undefined;
  const { prompt, completion } = pricing;
  const valid = (price: unknown): price is number => typeof price === "number" && price >= 0 && Number.isFinite(price);
  return valid(prompt) && valid(completion) ? { prompt, completion } : undefined;
}

/**
 * The longest reply `model` may write when the request sets no limit: its `max_output_tokens`,
 * else its whole `context_length` (never reduced by the prompt estimate, which is an
 * overestimate and would make the room too small, even negative); `Infinity` when the
 * catalogue says neither.
 */
export function replyCeiling(model: Model | undefined): number {
  const positive = (tokens: unknown): tokens is number => typeof tokens === "number" && tokens > 0;
  if (positive(model?.max_output_tokens)) return model.max_output_tokens;
  return positive(model?.context_length) ? model.context_length : Infinity;
}

/** The choices a request asks for (`n`, 1 when not set). */
export function choicesOf(params: Record<string, unknown>): number {
  const { n } = params;
  if (n == null) return 1;
  if (!(Number.isSafeInteger(n) && (n as number) >= 1)) throw invalidArgument("n", "a whole number of choices from 1", n);
  return n as number;
}

/**
 * Checks the fields the worst case of `params` reads as numbers (`n`, the reply limits), so a
 * mistake is named before the catalogue is fetched.
 * @throws ModelGateError naming the field at fault.
 */
export function assertCountable(params: Record<string, unknown>): void {
  appliedLimit(params);
  choicesOf(params);
}

/**
 * Checks the `models` fallbacks a budget prices: not set (`undefined`, `null`), or an array
 * of model ids. Anything else (one id as a string, objects, nested arrays, an array-like
 * object) would be sent while only `model` is priced, so it is named instead.
 * @throws ModelGateError naming `models`.
 */
export function assertFallbacks(params: Record<string, unknown>): void {
  const { models } = params;
  // Array.from, not every(): every() skips the holes of a sparse array, which JSON sends as null.
  if (models != null && !(Array.isArray(models) && Array.from(models).every((id) => typeof id === "string" && id !== ""))) {
    throw invalidArgument("models", "an array of model ids (non-empty strings)", models);
  }
}

/**
 * The dearest of `pricings` for what a usage report can cost: the highest prompt and the
 * highest completion price (from one model or two), an upper bound of each; `undefined` when
 * none is given.
 */
export function dearest(pricings: readonly (Pricing | undefined)[]): Pricing | undefined {
  let worst: Pricing | undefined;
  for (const pricing of pricings) {
    if (pricing) worst = worst ? { prompt: Math.max(worst.prompt, pricing.prompt), completion: Math.max(worst.completion, pricing.completion) } : pricing;
  }
  return worst;
}

/** How long a reply may be, and how long the budget allows, in tokens per choice. */
export interface ReplyRoom {
  /** The most reply tokens per choice the budget pays for on every model the request may reach. */
  affordable: number;
  /** What the request lets a reply run to: the limit the gateway applies, else the longest of the models' own. */
  asked: number;
  /** Whether the request sets a limit (else `asked` is the models' own). */
  limited: boolean;
}

/**
 * How much reply `params` asks for, and how much of it `budget` USD pays for on every model
 * the request may reach, with `n` choices of the prompt and the reply each.
 * @throws BudgetExceededError when a model has no price (a budget that cannot be checked is
 *   not kept), or when even the prompt and one token of reply may pass `budget`.
 * @throws ModelGateError when `n` or a limit is not a whole number.
 */
export function replyRoom(params: Record<string, unknown>, budget: number, models: Map<string, Model>): ReplyRoom {
  const limit = appliedLimit(params);
  const choices = choicesOf(params);
  const promptTokens = promptTokensAtMost(params);
  const predicted = predictedTokensAtMost(params);
  let affordable = Infinity;
  let longest = 0;
  for (const id of candidateModels(params)) {
    const model = models.get(id);
    const pricing = priced(model, id, budget);
    const prompt = promptTokensOn(promptTokens, model?.context_length);
    const perChoice = budget / choices;
    // What each choice costs before its reply: the prompt, and a prediction it may not repeat.
    const promptCost = costOf(pricing, prompt, predicted);
    const tokenCost = costOf(pricing, 0, 1);
    // A tiny allowance for floating point: a worst case that fits exactly must fit.
    const tokens = promptCost > perChoice * (1 + 1e-9) ? 0 : tokenCost > 0 ? Math.floor((perChoice - promptCost) / tokenCost + 1e-6) : Infinity;
    if (tokens < 1) {
      const worstCase = choices * costOf(pricing, prompt, predicted + 1);
      const each = choices > 1 ? `, for each of ${choices} choices,` : "";
      throw new BudgetExceededError(
        `maxCost: the prompt (at most ${prompt} tokens) and one token of reply${predicted > 0 ? ` (beside a prediction of up to ${predicted} tokens)` : ""}${each} may cost ${usd(worstCase)} on "${id}", more than the budget of ${usd(budget)}. Nothing was sent.`,
        { maxCost: budget, model: id, worstCase },
      );
    }
    affordable = Math.min(affordable, tokens);
    longest = Math.max(longest, replyCeiling(model));
  }
  return { affordable, asked: limit ?? longest, limited: limit !== undefined };
}

/**
 * The most `params` may cost, in USD, as it will be sent: on the dearest model it may reach,
 * `n` times the prompt plus the longest reply it allows there (`Infinity` when a model sets no
 * limit and the request none).
 * @throws BudgetExceededError when a model has no price.
 */
export function worstCaseCost(params: Record<string, unknown>, models: Map<string, Model>, budget: number): number {
  const limit = appliedLimit(params);
  const choices = choicesOf(params);
  const promptTokens = promptTokensAtMost(params);
  const predicted = predictedTokensAtMost(params);
  let worst = 0;
  for (const id of candidateModels(params)) {
    const model = models.get(id);
    const pricing = priced(model, id, budget);
    const reply = limit ?? replyCeiling(model);
    worst = Math.max(worst, choices * costOf(pricing, promptTokensOn(promptTokens, model?.context_length), reply + predicted));
  }
  return worst;
}

/** An amount of USD as messages show it: three significant digits. */
export function usd(amount: number): string {
  return `$${Number(amount.toPrecision(3))}`;
}

/** `model` and its `models` fallbacks: every model the gateway may serve the request with. */
export function candidateModels(params: Record<string, unknown>): string[] {
  return [params.model, ...(Array.isArray(params.models) ? params.models : [])].filter((id): id is string => typeof id === "string");
}

function priced(model: Model | undefined, id: string, budget: number): Pricing {
  const pricing = pricingOf(model);
  if (pricing) return pricing;
  throw new BudgetExceededError(`maxCost: the catalogue has no price for "${id}", so a budget of ${usd(budget)} cannot be checked. Nothing was sent.`, {
    maxCost: budget,
    model: id,
    worstCase: null,
  });
}
