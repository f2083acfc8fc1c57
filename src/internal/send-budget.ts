import type { Fetch } from "../pipeline/options.ts";

/**
 * Where a call's options carry the check for every send of a call with `maxCost`: set by the
 * budget code (one per call, so it counts the call's sends across attempts, retries, key
 * refreshes, shrink re-sends and a middleware's extra `next()`), it wraps the network `fetch`
 * of the call (the pipeline's, or the middleware runner's inside `next`). The wrapped fetch
 * refuses, with `BudgetExceededError`, a send that may take the call past its budget. A
 * symbol, so it is no option a caller can set or see by name; core and the on-demand modules
 * share it here.
 */
export const SEND_BUDGET: unique symbol = Symbol.for("modelgate.sendBudget");

/** The check `SEND_BUDGET` names: the network `fetch`, wrapped so that every send is counted and checked. */
export type SendBudget = (fetch: Fetch) => Fetch;
