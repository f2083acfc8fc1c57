// The reply limit of a chat request, as the gateway reads it: `max_completion_tokens` when it
// is sent (it wins over `max_tokens` at the gateway, as at OpenAI), else `max_tokens`. A
// budget relies on that one; and since a provider behind the gateway may read the other,
// no limit larger than the one relied on is left in a body the SDK lowered.
import { invalidArgument } from "../../errors/invalid-argument.ts";

/** The two fields that limit a reply, in the order the gateway reads them. */
export type LimitField = "max_completion_tokens" | "max_tokens";
const LIMIT_FIELDS: readonly LimitField[] = ["max_completion_tokens", "max_tokens"];

/** The limit the gateway applies: `max_completion_tokens` when set, else `max_tokens` (`null` counts as not set). */
export function appliedLimitField(params: Record<string, unknown>): LimitField | undefined {
  return LIMIT_FIELDS.find((field) => params[field] != null);
}

/**
 * The reply limit the gateway applies to `params`, in tokens per choice; `undefined` when the
 * request sets none (the model's own limit applies).
 * @throws ModelGateError naming the field when a limit is not a whole number from 1: a
 *   budget cannot rely on a limit the gateway might read differently (a string it converts,
 *   a 0 it takes for "not set").
 */
export function appliedLimit(params: Record<string, unknown>): number | undefined {
  for (const field of LIMIT_FIELDS) {
    const value = params[field];
    // 0 too: a gateway that reads it as "not set" would let the reply run to the model's limit.
    if (value != null && !(Number.isSafeInteger(value) && (value as number) >= 1)) throw invalidArgument(field, "a whole number of tokens from 1", value);
  }
  const field = appliedLimitField(params);
  return field === undefined ? undefined : (params[field] as number);
}

/**
 * `params` asking for at most `tokens` per choice: the limit the gateway applies (or
 * `max_tokens` when none is set) is at most `tokens`, and so is every other limit in it
 * (one that is not a number is replaced). A limit already below stays as it is.
 */
export function withReplyLimit(params: Record<string, unknown>, tokens: number): Record<string, unknown> {
  const applied = appliedLimitField(params) ?? "max_tokens";
  const lowered: Record<string, unknown> = { ...params };
  for (const field of LIMIT_FIELDS) {
    const value = params[field];
    if (field !== applied && value == null) continue;
    if (!(typeof value === "number" && value <= tokens)) lowered[field] = tokens;
  }
  return lowered;
}
