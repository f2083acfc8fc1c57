import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";
import { affordableTokens, completionLimit, worstCaseCost } from "./costs.ts";
import { RequestRejected } from "../http/error-response.ts";

/**
 * The account behind the mock's key: a balance in USD that served calls draw down, and the
 * gateway's 402 for a call that could cost more than is left. A gateway checks the worst case
 * before it calls the provider, since the reply's length is only known afterwards.
 */
export class CreditAccount {
  #balance: number;

  /** `initial` USD; `Infinity` for an account without limit. */
  constructor(readonly initial: number) {
    if (!(initial >= 0)) throw new TypeError(`createMockGateway: \`credits\` must be a number of USD, 0 or more (or Infinity); got ${String(initial)}.`);
    this.#balance = initial;
  }

  /** What is left, in USD. */
  get balance(): number {
    return this.#balance;
  }

  /**
   * Throws the gateway's 402 when the request's worst case on `model` (see `worstCaseCost`)
   * is more than the balance. When a smaller reply limit would fit, `error.metadata` carries
   * `affordable_tokens` and the message says "can only afford N tokens", as ModelGate words
   * it; when not even the prompt (and one token of reply) fits, neither is there.
   */
  authorize(params: ChatCompletionCreateParamsBase, model: MockModel, promptTokens: number): void {
    const worstCase = worstCaseCost(params, model, promptTokens);
    if (worstCase <= this.#balance) return;
    const choices = params.n ?? 1;
    const limit = completionLimit(params, model);
    const affordable = affordableTokens(model.pricing, promptTokens, choices, this.#balance);
    if (affordable >= 1) {
      const field = limit.field ?? "max_tokens";
      const each = choices > 1 ? ` for each of ${choices} choices` : "";
      throw new RequestRejected(
        `This request requires more credits, or fewer ${field}. You requested up to ${limit.tokens} tokens${each}, but can only afford ${affordable} tokens.`,
        field,
        402,
        "insufficient_credits",
        { affordable_tokens: affordable },
      );
    }
    throw new RequestRejected(
      `This request requires more credits: the account has ${usd(this.#balance)} left, not enough for the prompt (about ${promptTokens} tokens) and one token of reply on ${model.id}.`,
      null,
      402,
      "insufficient_credits",
    );
  }

  /** Takes a served call's cost off the balance (an unlimited account stays unlimited). */
  charge(cost: number): void {
    this.#balance -= cost;
  }

  /** Back to the initial balance. */
  reset(): void {
    this.#balance = this.initial;
  }
}

/** Dollars to the millionth: the cost of one token of the cheapest models still shows. */
function usd(value: number): string {
  return `$${value.toFixed(6)}`;
}
