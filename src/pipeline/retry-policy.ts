/** First retry waits about this long; each later one twice as long. */
const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff never grows beyond this. */
const MAX_BACKOFF_MS = 8_000;
/**
 * A server-requested wait (`retry-after`) longer than this is not honoured by waiting: the
 * error is thrown at once, so a hostile or mistaken `retry-after: 999999` cannot park the
 * caller for days. The error's `headers` still carry the server's value.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Whether a non-2xx answer may be retried: its `x-should-retry` header decides, else its status. */
export function isRetryableStatus(status: number, headers: Headers | undefined): boolean {
  const shouldRetry = headers?.get("x-should-retry");
  if (shouldRetry === "true") return true;
  if (shouldRetry === "false") return false;
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

/**
 * Milliseconds to wait before retry number `retryIndex` (0 for the first retry), or `null`
 * when the server asked for a wait longer than `MAX_RETRY_AFTER_MS`.
 * Honours `retry-after-ms`, then `retry-after` in seconds or as an HTTP date; otherwise
 * exponential backoff with jitter (up to 25% shorter) so that clients failing together do not
 * retry in lock step.
 */
export function retryDelayMs(retryIndex: number, headers: Headers | undefined, now = Date.now()): number | null {
  const requested = requestedDelayMs(headers, now);
  if (requested !== undefined) return requested > MAX_RETRY_AFTER_MS ? null : requested;
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retryIndex, MAX_BACKOFF_MS);
  return backoff * (1 - Math.random() * 0.25);
}

function requestedDelayMs(headers: Headers | undefined, now: number): number | undefined {
  const milliseconds = headers?.get("retry-after-ms");
  if (isAmount(milliseconds)) return Number(milliseconds);
  const retryAfter = headers?.get("retry-after");
  if (isAmount(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter ?? "");
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A finite non-negative number, written as one (not blank). */
function isAmount(value: string | null | undefined): value is string {
  const number = Number(value);
  return !!value?.trim() && number >= 0 && number < Infinity;
}

/** Why a retryable error was thrown at once: the server asked for a wait past the cap. */
export function refusedWaitNote(headers: Headers, capMs: number): string {
  const milliseconds = headers.get("retry-after-ms");
  const asked = milliseconds ? `${milliseconds} ms` : `"${headers.get("retry-after")}"`;
  return `(Not retried: the server asked to wait ${asked} (retry-after), longer than the ${capMs / 1000} s the SDK waits.)`;
}
