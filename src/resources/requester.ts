import type { APIPromise } from "../pipeline/api-promise.ts";
import type { RequestSpec } from "../pipeline/request.ts";
import type { Redact } from "../internal/redact.ts";
import type { Logger } from "../logging/logger.ts";

/** What a resource needs from the client: the one request pipeline, and its redaction. */
export interface Requester {
  request<T>(spec: RequestSpec): APIPromise<T>;
  /** Cuts the client's API key out of text that goes into an error (for errors built outside the pipeline). */
  redact: Redact;
  /** The client's `timeout`, in milliseconds: what bounds a wait a call's own `timeout` does not set. */
  timeout: number;
  /** The client's logger, at its `logLevel`: for what has no call left to fail with it (a helper's listener that throws at its end). */
  log: Logger;
  /**
   * What caches kept per client (the model catalogue) are kept under: the client's own, or the
   * one of the client `withOptions` made it from while they ask the same gateway the same way.
   */
  cache: object;
}
