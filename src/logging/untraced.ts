// The warning a client logs when a call finds the `modelgate:request` channel subscribed but
// tracing's code is not there to publish it. API.md: such a call goes on untraced, with one
// warning line, and never fails because of tracing.
import type { Redact } from "../internal/redact.ts";
import type { Logger } from "./logger.ts";

/** Why the call went on untraced: the wait for the code outlasted its timeout, or the load failed. */
export type UntracedBecause = { timeoutMs: number } | { failure: unknown };

/** Writes the warning; `redact` cuts the key out of what the loader's error says. */
export function warnUntraced(log: Logger, because: UntracedBecause, redact: Redact): void {
  const what =
    "timeoutMs" in because
      ? `did not load within the call's timeout (${because.timeoutMs} ms)`
      : `could not load (${redact(describeFailure(because.failure))})`;
  log.warn(
    `modelgate: tracing's code ${what}, so calls go on untraced until it loads: they are not published on the modelgate:request channel (no spans). They are not failed because of it.`,
  );
}

/**
 * What the load failed with: the import's own error, which the loader's keeps as `cause`, and
 * the reason that one keeps in its own `cause` (a bundler's or test runner's wrapper).
 */
function describeFailure(failure: unknown): string {
  try {
    const error = (failure as { cause?: unknown } | null)?.cause ?? failure;
    if (!(error instanceof Error)) return String(error);
    return error.cause instanceof Error ? `${error.name}: ${error.message} (${error.cause.message})` : `${error.name}: ${error.message}`;
  } catch {
    // A getter that throws, reading it: its own error is not let out.
    return "an error that could not be read";
  }
}
