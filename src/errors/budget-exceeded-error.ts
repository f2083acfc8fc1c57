import { ModelGateError } from "./modelgate-error.ts";

/**
 * A call the `maxCost` budget cannot cover, stopped before anything was sent: even the prompt
 * (or the prompt and one token of reply) may cost more than the budget, or the catalogue has
 * no price for the model, so the budget could not be checked.
 */
export class BudgetExceededError extends ModelGateError {
  override name = "BudgetExceededError";
  /** The budget, in USD. */
  readonly maxCost: number;
  /** The model the budget was checked against. */
  readonly model: string;
  /** The worst case of the smallest call that could be made (the prompt and one token), in USD; `null` when the model has no price. */
  readonly worstCase: number | null;

  constructor(message: string, details: { maxCost: number; model: string; worstCase: number | null }) {
    super(message);
    this.maxCost = details.maxCost;
    this.model = details.model;
    this.worstCase = details.worstCase;
  }
}
