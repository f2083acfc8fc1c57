import type { RequestOptions } from "../../pipeline/options.ts";
import { sdk } from "../../streaming/lazy/shared.ts";

/** A call's options as plain JavaScript may pass them: the pipeline checks them. */
export type CallOptions = RequestOptions | undefined;

/** Checks that `params` is an object whose `fields` are non-empty strings (or, for `input`, given), naming the first that is not. */
export function assertParams(params: unknown, fields: Record<string, string>): void {
  if (!sdk.isRecord(params)) throw sdk.invalidArgument("params", `an object such as { ${Object.keys(fields).join(", ")} }`, params);
  for (const [name, expected] of Object.entries(fields)) {
    const value = params[name];
    if (name === "input" || name === "file" ? value === undefined || value === null : !(typeof value === "string" && value !== "")) {
      throw sdk.invalidArgument(name, expected, value);
    }
  }
}
