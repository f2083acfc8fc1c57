// What the pipeline does after a refused attempt that is rare enough to load on first use
// (with the stream helpers): explain a retry it did not make, and shrink a request to what
// the account can afford.

/** Why a retryable error was thrown at once: the server asked for a wait past the cap. */
export function refusedWaitNote(headers: Headers, capMs: number): string {
  const asked = headers.get("retry-after-ms") ? `${headers.get("retry-after-ms")} ms` : `"${headers.get("retry-after")}"`;
  return `(Not retried: the server asked to wait ${asked} (retry-after), longer than the ${capMs / 1000} s the SDK waits.)`;
}

/** `body` asking for at most `tokens`: in `max_tokens` or `max_completion_tokens`, whichever it used (both when both; `max_tokens` when neither). */
export function withMaxTokens(body: Record<string, unknown>, tokens: number): Record<string, unknown> {
  const named = ["max_tokens", "max_completion_tokens"].filter((name) => body[name] != null);
  return { ...body, ...Object.fromEntries((named.length ? named : ["max_tokens"]).map((name) => [name, tokens])) };
}
