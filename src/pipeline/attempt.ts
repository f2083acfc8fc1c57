import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
} from "../errors/index.ts";
import type { Fetch } from "../client/options.ts";
import { MAX_TIMER_MS } from "../internal/values.ts";

/** One HTTP exchange, as far as the pipeline needs to see it. */
export interface Exchange {
  response: Response;
  /**
   * The body, read within the attempt's timeout. `undefined` only for a successful stream,
   * whose body is left unread for the `Stream` to consume.
   */
  text: string | undefined;
  /** Aborting it cancels the request and its body; a `Stream` exposes it as `stream.controller`. */
  controller: AbortController;
  /** Detaches the caller's signal. A stream calls it when it ends; otherwise already done. */
  release: () => void;
}

/** What one attempt needs: the request, its timeout and the caller's signal. */
export interface AttemptInit {
  fetch: Fetch;
  url: string;
  init: RequestInit;
  timeoutMs: number;
  signal: AbortSignal | null | undefined;
  /** Leave a successful body unread and stop the timeout once the headers are in. */
  stream: boolean;
}

/**
 * Makes one attempt. The per-attempt timeout and the caller's signal both feed one
 * AbortController (instead of `AbortSignal.any`, which older runtimes lack); what aborted it
 * decides the error class, since the rejection the runtime throws looks the same for both.
 * Throws `APIUserAbortError`, `APIConnectionTimeoutError` or `APIConnectionError`.
 */
export async function attempt({ fetch, url, init, timeoutMs, signal, stream }: AttemptInit): Promise<Exchange> {
  if (signal?.aborted) throw new APIUserAbortError();
  const controller = new AbortController();
  let timedOut = false;
  // Past MAX_TIMER_MS (Infinity included) there is no timeout.
  const timer =
    timeoutMs < MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  const onCallerAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  const release = () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onCallerAbort);
  };

  const explain = (error: unknown) => {
    release();
    if (signal?.aborted) return new APIUserAbortError(undefined, { cause: error });
    if (timedOut) return new APIConnectionTimeoutError(`Request timed out after ${timeoutMs} ms.`, { cause: error });
    return new APIConnectionError(`Connection error: ${describeCause(error)}`, { cause: error });
  };

  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    throw explain(error);
  }
  if (stream && response.ok && !isDocument(response)) {
    clearTimeout(timer);
    return { response, text: undefined, controller, release };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw explain(error);
  }
  release();
  return { response, text, controller, release };
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
