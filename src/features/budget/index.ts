// Budgets, loaded on demand (see src/pipeline/loader.ts) by a call with `maxCost` or a 402 to shrink,
// and with the tool runner, which keeps `maxCost` over its steps by the same rules.
export { withinBudget, fitToBudget } from "./within-budget.ts";
export { withMaxTokens } from "./shrink.ts";
export { RunBudget, type BudgetedStep } from "./run-budget.ts";
export { assertMaxCost } from "./max-cost.ts";
export { catalogueOf, CATALOGUE_MAX_AGE_MS, type Catalogue } from "./catalogue.ts";
export { isNoModelFitsError, noModelFits, routeMaxCost, withRouteMaxCost } from "./route.ts";
export { appliedLimit, appliedLimitField, withReplyLimit, type LimitField } from "./reply-limit.ts";
export { choicesOf, costOf, pricingOf, replyCeiling, replyRoom, usd, worstCaseCost, type Pricing, type ReplyRoom } from "./worst-case.ts";
export { FILE_TOKENS, IMAGE_TOKENS, MESSAGE_TOKENS, predictedTokensAtMost, promptTokensAtMost, promptTokensOn, TOOL_USE_TOKENS } from "./prompt-tokens.ts";
