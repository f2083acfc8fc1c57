// The `maxCost` option, checked the same way by `create()`/`parse()` and `runTools()`.
import { invalidArgument } from "../../errors/invalid-argument.ts";

/** @throws ModelGateError naming `maxCost` unless it is a positive, finite number of US dollars. */
export function assertMaxCost(maxCost: unknown): asserts maxCost is number {
  if (!(typeof maxCost === "number" && maxCost > 0 && Number.isFinite(maxCost))) throw invalidArgument("maxCost", "a positive number of US dollars", maxCost);
}
