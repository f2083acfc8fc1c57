// `shrinkToAffordable`: the request a 402 that names what the account can afford is retried
// with. A budget rule, loaded on demand with the budget code (see src/loader.ts).
import { isRecord } from "../core.ts";
import { withReplyLimit } from "./reply-limit.ts";

/**
 * A chat `body` asking for at most `tokens` per choice: the limit the gateway applies
 * (`max_completion_tokens` when sent, else `max_tokens`, which is set when neither was)
 * lowered to `tokens`, and no limit above it left in the body; a limit already below stays.
 * `undefined` when that changes nothing (or the body is not a chat request): a retry would
 * only meet the same 402.
 */
export function withMaxTokens(body: unknown, tokens: number): Record<string, unknown> | undefined {
  if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
  const lowered = withReplyLimit(body, tokens);
  const changed = ["max_completion_tokens", "max_tokens"].some((field) => lowered[field] !== body[field]);
  return changed ? lowered : undefined;
}
