import { abortError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, redactValue, type Redact } from "../errors/index.ts";
import { untilAborted } from "../internal/until-aborted.ts";
import { MAX_TIMER_MS } from "../internal/values.ts";
import type { Fetch } from "./options.ts";

/** One HTTP exchange, as far as the pipeline needs to see it. */
export interface Exchange {
  response: Response;
  /**
   * The body, read within the attempt's timeout. `undefined` only for a successful stream,
   * whose body is left unread for the `Stream` to consume.
   */
  text: string | undefined;
  /**
   * Aborting it cancels the request and its body; a `Stream` exposes it as
   * `stream.controller`. Aborted by the SDK with the error to report as the reason.
   */
  controller: AbortController;
  /** Stops the attempt's timeout: a stream calls it once the first byte of its body is in. */
  stopTimeout: () => void;
  /** Stops the timeout and detaches the caller's signal. A stream calls it when it ends; otherwise already done. */
  release: () => void;
}

/** What one attempt needs: the request, its timeout and the caller's signal. */
export interface AttemptInit {
  fetch: Fetch;
  url: string;
  init: RequestInit;
  timeoutMs: number;
  signal: AbortSignal | null | undefined;
  /** Leave a successful body unread; the timeout keeps running until the stream's first byte. */
  stream: boolean;
  /**
   * Cuts the key out of a connection error: a custom fetch may quote the URL, whose query can
   * carry it (node-fetch: "request to https://…?key=… failed, reason: …").
   */
  redact: Redact;
}

/**
 * Makes one attempt. The per-attempt timeout and the caller's signal both abort one
 * AbortController (instead of `AbortSignal.any`, which older runtimes lack), each with the
 * error it means as the reason, so every await that sees the abort reports the same thing.
 * Throws `APIUserAbortError`, `APIConnectionTimeoutError` or `APIConnectionError`.
 */
export async function attempt({ fetch, url, init, timeoutMs, signal, stream, redact }: AttemptInit): Promise<Exchange> {
  if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
  const controller = new AbortController();
  // Past MAX_TIMER_MS (Infinity included) there is no timeout.
  let timer =
    timeoutMs < MAX_TIMER_MS
      ? setTimeout(() => {
          const waitingFor = stream ? "the first byte of the stream's body" : "the whole response";
          controller.abort(new APIConnectionTimeoutError(`Request timed out after ${timeoutMs} ms waiting for ${waitingFor} (timeout).`));
        }, timeoutMs)
      : undefined;
  const onCallerAbort = () => controller.abort(new APIUserAbortError(undefined, { cause: signal?.reason }));
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  const stopTimeout = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const release = () => {
    stopTimeout();
    signal?.removeEventListener("abort", onCallerAbort);
  };

  const explain = (error: unknown) => {
    release();
    if (controller.signal.aborted) return abortError(controller.signal);
    const text = `Connection error: ${describeCause(error)}`;
    const shown = redact(text);
    // What fetch threw is kept as it is unless it shows the key: then a redacted copy of its fields.
    return new APIConnectionError(shown, { cause: shown === text ? error : redactValue(error, redact) });
  };

  let response: Response;
  try {
    response = await untilAborted(fetch(url, { ...init, signal: controller.signal }), controller.signal);
  } catch (error) {
    throw explain(error);
  }
  if (stream && response.ok && !isDocument(response)) {
    return { response, text: undefined, controller, stopTimeout, release };
  }
  let text: string;
  try {
    text = await untilAborted(response.text(), controller.signal);
  } catch (error) {
    throw explain(error);
  }
  release();
  return { response, text, controller, stopTimeout, release };
}

/**
 * A JSON or HTML answer to a stream request is not a stream (a proxy's page, or an error
 * object with status 200): it is read whole, so the caller gets its text in an error.
 */
function isDocument(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return type.includes("json") || type.includes("html");
}

/** Runtimes hide the socket-level reason (ECONNREFUSED, ...) in `cause`; surface it. */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
