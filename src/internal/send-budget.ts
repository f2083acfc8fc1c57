/**
 * Where a call's options carry the check for a send a middleware makes beyond the first of
 * its attempt (a `next()` called twice), set by the budget code for a call with `maxCost`
 * and called by the middleware runner: `(sends) => Promise<void>`, rejecting with
 * `BudgetExceededError` when that many sends may cost more than the budget. A symbol, so it
 * is no option a caller can set or see by name; the two on-demand modules share it here.
 */
export const SEND_BUDGET: unique symbol = Symbol.for("modelgate.sendBudget");

/** The check `SEND_BUDGET` names: `sends` is every send of the call so far, this one included. */
export type SendBudget = (sends: number) => Promise<void>;
