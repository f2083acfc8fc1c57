// `shrinkToAffordable`: the request a 402 that names what the account can afford is retried
// with. A budget rule, loaded on demand with the budget code (see src/loader.ts).

/**
 * A chat `body` asking for at most `tokens`: in `max_tokens` or `max_completion_tokens`,
 * whichever it used (both when both; `max_tokens` when neither), never more than it asked.
 * `undefined` when that changes nothing (or the body is not a chat request): a retry would
 * only meet the same 402.
 */
export function withMaxTokens(body: unknown, tokens: number): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null || !Array.isArray((body as { messages?: unknown }).messages)) return undefined;
  const request = body as Record<string, unknown>;
  const named = ["max_tokens", "max_completion_tokens"].filter((name) => typeof request[name] === "number");
  const limits = named.length > 0 ? named : ["max_tokens"];
  const lowered = limits.filter((name) => !(typeof request[name] === "number" && (request[name] as number) <= tokens));
  if (lowered.length === 0) return undefined;
  return { ...request, ...Object.fromEntries(lowered.map((name) => [name, tokens])) };
}
