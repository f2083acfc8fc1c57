import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";

/**
 * What the tokens cost at `pricing` (USD per million tokens), in USD: the gateway's
 * `usage.cost`. Written as one expression, `(prompt × price + completion × price) / 1e6`, so
 * a test that computes the same formula gets the same number to the last bit.
 */
export function tokenCost(pricing: MockModel["pricing"], promptTokens: number, completionTokens: number): number {
  return (promptTokens * pricing.prompt + completionTokens * pricing.completion) / 1e6;
}

/** The reply limit a request sets, and the field it was set in (`undefined` when it set none). */
export interface CompletionLimit {
  /** Tokens per choice: the field's value, else the model's `max_output_tokens`. */
  tokens: number;
  field: LimitField | undefined;
}

type LimitField = "max_completion_tokens" | "max_tokens";

/** The field that limits the reply: `max_completion_tokens` before `max_tokens`, the order OpenAI reads them in. */
export function limitField(params: ChatCompletionCreateParamsBase): LimitField | undefined {
  if (params.max_completion_tokens != null) return "max_completion_tokens";
  return params.max_tokens != null ? "max_tokens" : undefined;
}

/** The most tokens each choice of the reply may hold: the request's limit, else all the model can write. */
export function completionLimit(params: ChatCompletionCreateParamsBase, model: MockModel): CompletionLimit {
  const field = limitField(params);
  return { tokens: field ? params[field]! : model.max_output_tokens, field };
}

/**
 * The most the request can cost on `model`, in USD: the prompt plus the longest reply it
 * allows, for each of its `n` choices (the gateway has to hold credit for all of them). The
 * prompt is the mock's own estimate (see `mockPromptTokens`), as a gateway estimates it
 * before the provider counts.
 */
export function worstCaseCost(params: ChatCompletionCreateParamsBase, model: MockModel, promptTokens: number): number {
  return tokenCost(model.pricing, promptTokens, completionLimit(params, model).tokens * (params.n ?? 1));
}

/**
 * The largest reply limit (per choice) whose worst case fits `budget` USD, or 0 when not
 * even one token of reply does (the prompt alone may not). Rounding of the division is
 * corrected against `tokenCost` itself, so the number given always fits.
 */
export function affordableTokens(pricing: MockModel["pricing"], promptTokens: number, choices: number, budget: number): number {
  const left = budget * 1e6 - promptTokens * pricing.prompt;
  if (left < 0) return 0;
  // Free completions: once the prompt fits, any reply does.
  if (pricing.completion <= 0) return Number.MAX_SAFE_INTEGER;
  let tokens = Math.floor(left / pricing.completion / choices);
  while (tokens > 0 && tokenCost(pricing, promptTokens, tokens * choices) > budget) tokens--;
  return tokens;
}
