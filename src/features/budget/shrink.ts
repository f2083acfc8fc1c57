// `shrinkToAffordable`: the request a 402 that names what the account can afford is retried
// with. A budget rule, loaded on demand with the budget code (see src/pipeline/loader.ts).
import { isRecord } from "../../internal/values.ts";
import { withReplyLimit } from "./reply-limit.ts";

/**
 * A chat `body` asking for at most `tokens` per choice: the limit the gateway applies
 * (`max_completion_tokens` when sent, else `max_tokens`, which is set when neither was)
 * lowered to `tokens`, and no limit above it left in the body; a limit already below stays.
 * `undefined` when that changes nothing, when `tokens` is not a whole number from 1 up to
 * `Number.MAX_SAFE_INTEGER`, or when the body is not a chat request: a retry would only meet
 * the same 402 (or a 400).
 */
export function withMaxTokens(body: unknown, tokens: number): Record<string, unknown> | undefined {
  // Only a whole number the gateway reads as such: 1e21 would go out as `1e+21` (no gateway's
  // integer), and past 2^53 it is not the number that was said.
  if (!(Number.isSafeInteger(tokens) && tokens >= 1)) return undefined;
  if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
  const lowered = withReplyLimit(body, tokens);
  const changed = ["max_completion_tokens", "max_tokens"].some((field) => lowered[field] !== body[field]);
  return changed ? lowered : undefined;
}
