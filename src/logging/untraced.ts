// The warning a client logs when a call finds the `modelgate:request` channel subscribed but
// tracing's code is not there to publish it. API.md: such a call goes on untraced, with one
// warning line, and never fails because of tracing.
import { describeCause } from "../errors/describe-cause.ts";
import type { Redact } from "../internal/redact.ts";
import type { Logger } from "./logger.ts";

/** Why the call went on untraced: the wait for the code outlasted its timeout, or the load failed. */
export type UntracedBecause = { timeoutMs: number } | { failure: unknown };

/** Writes the warning; `redact` cuts the key out of what the loader's error says. */
export function warnUntraced(log: Logger, because: UntracedBecause, redact: Redact): void {
  const what =
    "timeoutMs" in because
      ? `did not load within the call's timeout (${because.timeoutMs} ms)`
      : `could not load (${redact(describeCause(importError(because.failure)))})`;
  log.warn(
    `modelgate: tracing's code ${what}, so calls go on untraced until it loads: they are not published on the modelgate:request channel (no spans). They are not failed because of it.`,
  );
}

/** The import's own error, which the loader's error keeps as `cause` (itself when there is none). */
function importError(failure: unknown): unknown {
  try {
    return (failure as { cause?: unknown } | null)?.cause ?? failure;
  } catch {
    // A getter that throws, reading it: the loader's error is described instead.
    return failure;
  }
}
