// `maxCost` in `runTools()`: the same rules as on `create()` (worst case, route, prices), kept
// over many steps. A step runs only when its worst case fits what is left, and counts for
// what the gateway reported it cost (or its usage at catalogue prices, when that says more),
// else for its worst case, so the budget is never passed because nothing (or too little) was
// reported, nor because the model that answered goes by a name the catalogue does not price.
import { BudgetExceededError } from "../../errors/budget-exceeded-error.ts";
import { assertOptions } from "../../pipeline/call-options.ts";
import type { Requester } from "../../resources/requester.ts";
import type { CompletionUsage, Model } from "../../types/index.ts";
import { catalogueOf } from "./catalogue.ts";
import { assertRoute, isNoModelFitsError, routeMaxCost, withRouteMaxCost } from "./route.ts";
import { assertFallbacks, candidateModels, costOf, dearest, pricingOf, replyRoom, worstCaseCost, type Pricing } from "./worst-case.ts";

/** A step as the budget lets it go. */
export interface BudgetedStep {
  /** The body to send: with `model: "auto"`, `route.max_cost` is what is left. */
  body: Record<string, unknown>;
  /** The most the step may cost, in USD. */
  worstCase: number;
  /** What was left of the budget when the step started: its own `maxCost`, bounding every send it makes. */
  left: number;
  /** Whether the gateway picks the model within `route.max_cost`. */
  routed: boolean;
  models: Map<string, Model>;
  /** The priced models the step may be served by: `model` and its fallbacks, or under "auto" the catalogue's that could serve it. */
  reachable: string[];
}

/** The budget of one tool run. */
export class RunBudget {
  readonly #client: Requester;
  readonly #maxCost: number;
  readonly #signal: AbortSignal | undefined;
  readonly #timeoutMs: number | undefined;
  /** Reported costs (or usage at catalogue prices, when more), and the worst case of the steps whose cost was not reported. */
  #spent = 0;

  /**
   * @throws ModelGateError naming `maxCost` unless it is a positive number of USD,
   *   `route.max_cost` when `params` sets one that is not (it would take the budget's place),
   *   or `models` when it is set and not an array of model ids (it would be sent unpriced).
   */
  constructor(client: Requester, maxCost: unknown, params: Record<string, unknown>, signal?: AbortSignal, timeoutMs?: number) {
    // The call's option rule (callBounds ran it before the load), on the value as read now.
    assertOptions({ maxCost });
    assertRoute(params);
    assertFallbacks(params);
    this.#client = client;
    this.#maxCost = maxCost as number;
    this.#signal = signal;
    this.#timeoutMs = timeoutMs;
  }

  /** Whether what the run has spent (as far as the budget knows) reached `maxCost`. */
  get exhausted(): boolean {
    return this.#spent >= this.#maxCost;
  }

  /**
   * The next step within what is left of the budget, or `undefined` when its worst case would
   * pass it. With a model id, the worst case at catalogue prices must fit (a model without a
   * price throws `BudgetExceededError`). With `model: "auto"` the gateway is told what is left
   * (`route.max_cost`, or the caller's own when tighter), after checking that a model of the
   * catalogue that could serve the step (priced, with `tools`, able to write a reply) fits;
   * a catalogue without any cannot tell, and the gateway decides.
   */
  async step(body: Record<string, unknown>): Promise<BudgetedStep | undefined> {
    const left = this.#maxCost - this.#spent;
    if (left <= 0) return undefined;
    const { models } = await catalogueOf(this.#client, this.#signal, this.#timeoutMs);
    if (body.model === "auto") {
      const servers = [...models.values()].filter(
        (model) => pricingOf(model) && (model.capabilities?.includes("tools") ?? true) && !model.capabilities?.includes("embeddings") && model.max_output_tokens !== 0,
      );
      if (servers.length > 0 && !servers.some((model) => fits({ ...body, model: model.id, models: undefined }, left, models, true))) return undefined;
      const routed = withRouteMaxCost(body, left);
      const reachable = servers.map((model) => model.id);
      return { body: routed, worstCase: routeMaxCost(routed) ?? left, left, routed: true, models, reachable };
    }
    if (!fits(body, left, models, false)) return undefined;
    return { body, worstCase: worstCaseCost(body, models, left), left, routed: false, models, reachable: candidateModels(body) };
  }

  /**
   * Counts a step done: the cost the gateway reported, else the step's worst case (on the
   * model that answered, when the gateway picked one the catalogue prices); and in either
   * case its usage at catalogue prices when that says more (a report of 0 for a long reply,
   * a catalogue out of date), so what is counted stays an upper bound of what was billed.
   * The usage is priced as the model that answered when the step could reach it, else (a
   * dated snapshot's name, no name at all) at the dearest prices the step could reach (see
   * `usagePricing`). Only a finite cost from 0 that comes with a usage counting the reply's
   * tokens counts as reported: a negative one would give the run budget, and one without such
   * a usage cannot be checked.
   */
  count(step: BudgetedStep, cost: number | null, usage: CompletionUsage | undefined, model: string | undefined, attempts = 1): void {
    // A step that took more than one send may have been billed for the others too (a lost
    // answer, a middleware's extra send): each counts at the step's worst case.
    if (attempts > 1) this.#spent += (attempts - 1) * step.worstCase;
    const served = model === undefined ? undefined : step.models.get(model);
    const pricing = usagePricing(step, served);
    const used = usage && pricing ? costOf(pricing, tokens(usage.prompt_tokens), tokens(usage.completion_tokens)) : 0;
    const reported = cost !== null && cost >= 0 && Number.isFinite(cost) ? cost : 0;
    // A report comes with a usage only where that counts the reply's tokens: `usage: { cost: 0 }`
    // alone, or counts that are no numbers, are a cost reported without a usage (see below).
    const counted = tokens(usage?.completion_tokens) === usage?.completion_tokens;
    if (counted && cost === reported) {
      this.#spent += Math.max(cost, used);
      return;
    }
    let bound = step.worstCase;
    if (step.routed && served && pricingOf(served)) {
      try {
        bound = worstCaseCost({ ...step.body, model: served.id, models: undefined }, step.models, this.#maxCost);
      } catch {
        // Not countable on that model after all: the route's max_cost stays the bound.
      }
    }
    this.#spent += Math.max(bound, used, reported);
  }

  /**
   * Whether `error`, from sending `step`, says the budget is spent: the gateway's 400 saying no
   * model fits what was left, or a send of the step refused because it might pass what was
   * left (see the step's own `maxCost`). The run then ends with `"max_cost"`.
   */
  endsRun(step: BudgetedStep, error: unknown): boolean {
    return error instanceof BudgetExceededError || (step.routed && isNoModelFitsError(error));
  }
}

/** Whether `body`'s worst case fits in `left`; a model without a price is an error, or (`lenient`) does not fit. */
function fits(body: Record<string, unknown>, left: number, models: Map<string, Model>, lenient: boolean): boolean {
  try {
    const { affordable, asked } = replyRoom(body, left, models);
    return asked <= affordable;
  } catch (error) {
    // The prompt alone does not fit: the budget is spent. No price: it cannot be kept.
    if (error instanceof BudgetExceededError && (error.worstCase !== null || lenient)) return false;
    throw error;
  }
}

/**
 * The prices a step's usage is counted at: those of the model that answered when the step
 * could reach it; else the dearest of what it could reach and of the name that answered (a
 * dated snapshot of the model asked for, a name the catalogue prices differently, no name),
 * so a name the catalogue does not know never makes a reported cost of 0 believed.
 */
function usagePricing(step: BudgetedStep, served: Model | undefined): Pricing | undefined {
  if (served && step.reachable.includes(served.id)) return pricingOf(served);
  return dearest([pricingOf(served), ...step.reachable.map((id) => pricingOf(step.models.get(id)))]);
}

/** A token count from a usage report, 0 when it is not one. */
function tokens(count: unknown): number {
  return typeof count === "number" && count >= 0 && Number.isFinite(count) ? count : 0;
}
