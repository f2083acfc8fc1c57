// A budget under `model: "auto"`: the gateway is told (`route.max_cost`) and picks a model
// whose worst case fits, and its 400 when none does is recognised as the budget's refusal.
import { BudgetExceededError } from "../../errors/budget-exceeded-error.ts";
import { BadRequestError } from "../../errors/index.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import { usd } from "./worst-case.ts";

/**
 * Checks the `route` a budget builds on: an object (or not set), whose `max_cost`, when the
 * caller set one, is a positive finite number of USD. Anything else would not survive
 * `Math.min` with the budget (NaN goes out as `null`, and the gateway then applies no cost
 * limit at all), so it is named rather than guessed at. `null` counts as not set, as for the
 * reply limits; the budget then sets it.
 * @throws ModelGateError naming `route` or `route.max_cost`.
 */
export function assertRoute(params: Record<string, unknown>): void {
  const { route } = params;
  if (route == null) return;
  if (!isRecord(route)) throw invalidArgument("route", "an object of routing filters", route);
  const cost = route.max_cost;
  if (cost != null && !(typeof cost === "number" && cost > 0 && Number.isFinite(cost))) throw invalidArgument("route.max_cost", "a positive number of US dollars", cost);
}

/**
 * `params` with `route.max_cost` at most `budget` USD: a tighter one the caller wrote stays,
 * the other route filters too.
 * @throws ModelGateError when `route` is not an object, or its `max_cost` not a positive number.
 */
export function withRouteMaxCost(params: Record<string, unknown>, budget: number): Record<string, unknown> {
  assertRoute(params);
  const filters = (params.route ?? {}) as Record<string, unknown>;
  const given = typeof filters.max_cost === "number" ? filters.max_cost : Infinity;
  return { ...params, route: { ...filters, max_cost: Math.min(given, budget) } };
}

/** The `route.max_cost` a body sends, when it sends one. */
export function routeMaxCost(params: Record<string, unknown>): number | undefined {
  const cost = isRecord(params.route) ? params.route.max_cost : undefined;
  return typeof cost === "number" ? cost : undefined;
}

/**
 * Whether `error` is the gateway's 400 for "no model fits `route.max_cost`". Recognised by
 * what it names rather than by exact words, so a reworded message still counts: a 400 that
 * names `max_cost` (in its `code`, its `param` or its message) and says no model or route
 * was found (the code `no_route_available`, a code about `max_cost` or a budget, or "no
 * model"/"no route"/"no provider" in the message). ModelGate (and the mock) answer
 * `{ code: "no_route_available", param: "route", message: "No model satisfies the route
 * filters (excluded by: ..., max_cost 0.001 (...))" }`. A 400 about `max_cost` itself (an
 * unknown field, a bad value) is left as it is.
 */
export function isNoModelFitsError(error: unknown): error is BadRequestError {
  if (!(error instanceof BadRequestError)) return false;
  const code = typeof error.code === "string" ? error.code : "";
  const param = typeof error.param === "string" ? error.param : "";
  const inner = isRecord(error.error) && typeof error.error.message === "string" ? error.error.message : error.message;
  const namesMaxCost = /max_cost/i.test(`${code} ${param} ${inner}`);
  const noModel = code === "no_route_available" || /max_cost|budget/i.test(code) || /\bno (?:model|route|provider)s?\b/i.test(inner);
  return namesMaxCost && noModel;
}

/** The gateway's "no model fits" 400 as the `BudgetExceededError` a `maxCost` call throws, the 400 as its `cause`. */
export function noModelFits(error: BadRequestError, budget: number): BudgetExceededError {
  return new BudgetExceededError(`maxCost: no model the gateway could route to fits a budget of ${usd(budget)} (route.max_cost). The gateway said: ${error.message}`, {
    maxCost: budget,
    model: "auto",
    worstCase: null,
    cause: error,
  });
}
