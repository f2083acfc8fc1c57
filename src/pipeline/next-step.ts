import { APIConnectionError, APIError, PaymentRequiredError } from "../errors/index.ts";
import { isRetryableStatus, MAX_RETRY_AFTER_MS, refusedWaitNote, retryDelayMs } from "./retry-policy.ts";

/** How an attempt ended: with a successful response, or with the error it came to. */
export type AttemptOutcome = { ok: true } | { ok: false; error: unknown };

/** What the call has done so far, as far as deciding the next step needs it. */
export interface CallState {
  /** Retries made so far; a re-send with a change is not one. */
  retries: number;
  maxRetries: number;
  /** The key comes from a function, which has not yet been asked again after a 401. */
  mayAskForNewKey: boolean;
  /** `shrinkToAffordable` is on and has not been used by this call. */
  mayShrink: boolean;
}

/**
 * What to do after an attempt:
 * - `return` the answer;
 * - `throw` the error (with `note` added to its message, when given);
 * - `retry` the same request after `afterMs` (one of the `maxRetries`);
 * - `new-key`: ask the key function again, and re-send now if the key changed;
 * - `shrink`: re-send now with the reply limit lowered to `tokens` (a budget rule, see
 *   `withMaxTokens`), if that changes the request.
 *
 * The last two are re-sends with a change, not retries: they do not count against
 * `maxRetries`, and each is made at most once per call. When the change turns out to change
 * nothing, the caller clears its flag in `CallState` and asks again.
 */
export type NextStep =
  | { do: "return" }
  | { do: "throw"; note?: string }
  | { do: "retry"; afterMs: number }
  | { do: "new-key" }
  | { do: "shrink"; tokens: number };

const RETURN: NextStep = { do: "return" };
const THROW: NextStep = { do: "throw" };

/**
 * The one decision of the request loop (`runRequest` in run-request.ts), pure but for the jitter of
 * the backoff: retries follow the retry policy (connection errors and retryable statuses, up to
 * `maxRetries`, after the wait the server asked for or the backoff); a 401 gets one new key from
 * a key function; a 402 that names what the account can afford gets one smaller request. A
 * wait longer than the SDK accepts is not made: the error is thrown with a note saying why.
 */
export function nextStep(outcome: AttemptOutcome, state: CallState, now = Date.now()): NextStep {
  if (outcome.ok) return RETURN;
  const { error } = outcome;
  if (!(error instanceof APIError)) return THROW;
  const { status, headers } = error;
  // Without a response, a connection error or a timeout is retried; the caller's abort never is.
  const retryable = state.retries < state.maxRetries && (status === undefined ? error instanceof APIConnectionError : isRetryableStatus(status, headers));
  if (status === 401 && state.mayAskForNewKey) return { do: "new-key" };
  const delay = retryable ? retryDelayMs(state.retries, headers, now) : null;
  if (delay !== null) return { do: "retry", afterMs: delay };
  const tokens = state.mayShrink && error instanceof PaymentRequiredError && error.affordableTokens;
  if (tokens) return { do: "shrink", tokens };
  return retryable && headers ? { do: "throw", note: refusedWaitNote(headers, MAX_RETRY_AFTER_MS) } : THROW;
}
