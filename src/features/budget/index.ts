// Budgets, loaded on demand (see src/pipeline/loader.ts) by a call with `maxCost` or a 402 to shrink,
// and with the tool runner, which keeps `maxCost` over its steps by the same rules. What they use:
export { withinBudget } from "./within-budget.ts";
export { withMaxTokens } from "./shrink.ts";
export { RunBudget, type BudgetedStep } from "./run-budget.ts";
