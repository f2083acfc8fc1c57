/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The start of `text`, cut at `length` characters with an ellipsis, for error messages. */
export function excerpt(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/**
 * The longest delay `setTimeout` honours: it treats anything larger (Infinity included) as
 * 1 ms, so longer timeouts are left unset instead.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
