import { abortError } from "../errors/connection-errors.ts";
import { APIConnectionTimeoutError, ModelGateError } from "../errors/index.ts";
import { withoutKey } from "../errors/fetch-failure.ts";
import type { Redact } from "../internal/redact.ts";
import { assertAPIKey, type APIKeyFunction } from "./auth.ts";
import { limits } from "./limits.ts";
import { unlessAborted } from "./unless-aborted.ts";

/**
 * The key for the next attempt from the `apiKey` function (a fixed key is used as it is, see
 * `runRequest`), asked within the call's signal and timeout. Every key it gives is remembered
 * as a secret, so errors built later redact it too.
 */
export async function keyFrom(
  source: APIKeyFunction,
  remember: (secret: string) => void,
  redact: Redact,
  signal: AbortSignal | null | undefined,
  timeoutMs: number,
): Promise<string> {
  // Asking for the key is part of the attempt: the caller's signal and the attempt's timeout
  // bound it, so a key function that hangs cannot hang the call.
  const { controller, release } = limits(signal, timeoutMs, () => new APIConnectionTimeoutError(`The \`apiKey\` function gave no key within ${timeoutMs} ms (timeout).`));
  let key: unknown;
  try {
    key = await unlessAborted(Promise.resolve().then(source), controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw abortError(controller.signal);
    // What it threw may quote a key it gave before (a failed refresh) or hold a request: it
    // is kept only where provably free of every key, else as a redacted copy.
    const cause = withoutKey(error, redact);
    throw new ModelGateError("The `apiKey` function threw, so no request was sent; see `cause`.", { cause });
  } finally {
    release();
  }
  const assertKey: typeof assertAPIKey = assertAPIKey;
  assertKey(key, "the key returned by the `apiKey` function");
  remember(key);
  return key;
}
