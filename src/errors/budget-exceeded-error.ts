import { ModelGateError } from "./modelgate-error.ts";

/**
 * A call the `maxCost` budget cannot cover. With a model id it is stopped before anything is
 * sent: even the prompt (or the prompt and one token of reply) may cost more than the budget,
 * or the catalogue has no price for the model, so the budget could not be checked. With
 * `model: "auto"` the gateway found no model whose worst case fits; its 400 is the `cause`.
 */
export class BudgetExceededError extends ModelGateError {
  /** `"BudgetExceededError"`: the class name, as `err.name` and stack traces show it. */
  override name = "BudgetExceededError";
  /** The budget, in USD. */
  declare readonly maxCost: number;
  /** The model the budget was checked against (`"auto"` when the gateway found none that fits). */
  declare readonly model: string;
  /** The worst case of the smallest call that could be made (the prompt and one token), in USD; `null` when it is not known (no price, or `model: "auto"`). */
  declare readonly worstCase: number | null;

  /** A call `maxCost` refused (nothing sent); `details` become the fields above. */
  constructor(message: string, details: { maxCost: number; model: string; worstCase: number | null; cause?: unknown }) {
    // Error reads only `cause` from its options, and only when the key is there.
    super(message, details);
    this.maxCost = details.maxCost;
    this.model = details.model;
    this.worstCase = details.worstCase;
  }
}
