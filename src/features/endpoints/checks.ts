import type { RequestOptions } from "../../client/options.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import { callOptionsWith } from "../../pipeline/call-options.ts";

/** A call's options as plain JavaScript may pass them: the pipeline checks them. */
export type CallOptions = RequestOptions | undefined;

/**
 * Checks that `params` is an object (`shape` shows one in the error) whose `fields` are
 * non-empty strings, naming the first that is not; each endpoint checks its other fields itself.
 */
export function assertParams(params: unknown, shape: string, fields: Record<string, string>): asserts params is Record<string, unknown> {
  if (!isRecord(params)) throw invalidArgument("params", `an object such as ${shape}`, params);
  for (const [name, expected] of Object.entries(fields)) {
    const value = params[name];
    if (!(typeof value === "string" && value !== "")) throw invalidArgument(name, expected, value);
  }
}

/**
 * The call's options read once, as chat reads them (`callOptionsWith`): each as the caller's
 * object answers it, a prototype's or a getter's included, where a spread would drop them (an
 * aborted `signal`, `middleware`, `query`, `idempotencyKey`, `timeout`). Anything but an
 * object is passed on as it is, for the pipeline to name the mistake.
 */
export function readOptions(options: CallOptions): CallOptions {
  return isRecord(options) ? (callOptionsWith(options, {}) as RequestOptions) : options;
}
