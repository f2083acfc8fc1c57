import type { ChatCompletionCreateParamsBase } from "../types/index.ts";
import type { MockModel } from "./catalogue.ts";

/**
 * What `tokens` cost at `pricing` (USD per million tokens), in USD: the gateway's
 * `usage.cost`. Written as one expression, `(prompt × price + completion × price) / 1e6`, so
 * a test that computes the same formula gets the same number to the last bit.
 */
export function tokenCost(pricing: MockModel["pricing"], promptTokens: number, completionTokens: number): number {
  return (promptTokens * pricing.prompt + completionTokens * pricing.completion) / 1e6;
}
