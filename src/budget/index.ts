// Budgets, loaded on demand (see src/loader.ts) by a call with `maxCost` or a 402 to shrink.
export { withinBudget, fitToBudget } from "./within-budget.ts";
export { withMaxTokens } from "./shrink.ts";
