// Options as the SDK reads and checks them: the one place that says what a call option and a
// client option must be (`assertOptions`), how a call's options are read into a copy
// (`callOptionsWith`), and what bounds a call's waits outside its attempts (`callBounds`: code
// loading, the catalogue, an upload's reading). Their types, with each option's documentation,
// are in options.ts (a call's) and client/options.ts (a client's).
import { invalidArgument } from "../errors/invalid-argument.ts";
import { redactNothing, type Redact } from "../internal/redact.ts";
import { isRecord } from "../internal/values.ts";
import { isLogLevel, LOG_LEVELS, type Logger } from "../logging/logger.ts";
import type { ParseOptions } from "../types/structured.ts";
import type { LoadBounds } from "./loader.ts";
import type { RequestOptions } from "./options.ts";

function isFunction(value: unknown): boolean {
  return typeof value === "function";
}

const isBoolean = (value: unknown): boolean => typeof value === "boolean";
/** A number of 0 or more (`Infinity` included: no limit). */
const isNonNegative = (value: unknown): boolean => typeof value === "number" && value >= 0;

/** An `AbortSignal`, told by what the SDK uses of one (a signal of another realm or a polyfill passes). */
export const isAbortSignal = (value: unknown): value is AbortSignal => {
  const signal = value as Partial<AbortSignal> | null | undefined;
  return typeof signal?.addEventListener === "function" && typeof signal.removeEventListener === "function" && typeof signal.aborted === "boolean";
};

/**
 * An option that is checked: its name, its test, and what a value must be; `null` is "not
 * given" (the client's value, or none) unless `nullIsAMistake`.
 */
type OptionCheck = [name: string, isValid: (value: unknown) => boolean, expected: string, nullIsAMistake?: true];

/** The per-call options that are checked. */
const CALL_OPTIONS: OptionCheck[] = [
  ["shrinkToAffordable", isBoolean, "true or false"],
  ["signal", isAbortSignal, "an AbortSignal"],
  ["headers", (value) => typeof value === "object", "a Headers, [name, value] pairs or a record"],
  ["query", isRecord, "a record of parameters"],
  ["timeout", isNonNegative, "a non-negative number of milliseconds"],
  ["maxRetries", (value) => Number.isInteger(value) && (value as number) >= 0, "a whole number from 0"],
  ["middleware", (value) => Array.isArray(value) && value.every(isFunction), "an array of middleware functions"],
  ["fetchOptions", isRecord, "an object"],
  ["idempotencyKey", (value) => typeof value === "string", "a string"],
  // A chat call's budget: a mistake here would leave a caller who believes spending is capped
  // uncapped, so a `null` (a budget computed to nothing) is refused too, not read as none.
  ["maxCost", (value) => typeof value === "number" && value > 0 && Number.isFinite(value), "a positive number of US dollars", true],
  // A client option only: a `fetch` that is no function would fail every call as a connection error, retried.
  ["fetch", isFunction, "a fetch function"],
];

/**
 * The client's options: those of calls, and its own. A mistake here would be ignored or fail
 * later, far from its cause (a string `defaultQuery` sent as `0=a&1=%3D…`, a logger without
 * methods), or, for `maxCost`, leave a caller who believes spending is capped uncapped.
 */
const CLIENT_OPTIONS: OptionCheck[] = [
  // Before the calls' check of it, which a number would pass.
  ["maxCost", () => false, "given per call, as create(params, { maxCost }) or runTools(params, { maxCost })"],
  ...CALL_OPTIONS,
  ["streamIdleTimeout", isNonNegative, "a non-negative number of milliseconds"],
  ["maxSSELineLength", isNonNegative, "a non-negative number of characters"],
  ["traceContent", isBoolean, "true or false"],
  ["defaultHeaders", (value) => typeof value === "object", "a Headers, [name, value] pairs or a record"],
  ["defaultQuery", isRecord, "a record of parameters"],
  ["logLevel", isLogLevel, `one of off, ${LOG_LEVELS.join(", ")}`],
  ["logger", (value) => LOG_LEVELS.every((name) => typeof (value as Logger)[name] === "function"), `an object with ${LOG_LEVELS.join(", ")} methods`],
];

/**
 * Options come from plain JavaScript too: a bad one is named before anything is sent (or, for
 * `"client"`, before the client is made). `undefined` or `null` leaves the client's value, or
 * for a client option its default. What the caller passed is quoted (a string's start) with
 * the key cut out.
 */
export function assertOptions(options: unknown, redact: Redact = redactNothing, of: "call" | "client" = "call"): asserts options is RequestOptions {
  if (!isRecord(options)) throw invalidArgument("options", "an object", options, undefined, redact);
  for (const [name, isValid, expected, nullIsAMistake] of of === "client" ? CLIENT_OPTIONS : CALL_OPTIONS) {
    const value = options[name];
    if (value === undefined || (value === null && !nullIsAMistake)) continue;
    if (!isValid(value)) throw invalidArgument(name, expected, value, undefined, redact);
  }
}

/** Every option a chat call reads: `RequestOptions`, `maxCost` and parse()'s `structuredOutput`. */
const CALL_OPTION_NAMES = [
  "signal",
  "timeout",
  "maxRetries",
  "headers",
  "query",
  "idempotencyKey",
  "fetchOptions",
  "shrinkToAffordable",
  "middleware",
  "maxCost",
  "structuredOutput",
] as const satisfies readonly (keyof ParseOptions)[];

// Fails to compile when ParseOptions (every chat call option) gains one the list above does not name.
type Unnamed = Exclude<keyof ParseOptions, (typeof CALL_OPTION_NAMES)[number]>;
const everyOptionNamed: [Unnamed] extends [never] ? true : Unnamed = true;
void everyOptionNamed;

/**
 * The caller's call options as a plain object, each read as the caller's object answers it
 * (its own field, a prototype's, a getter's, a Proxy's), with `overrides` laid over them. A
 * spread would keep own enumerable fields only: a `maxCost` or `headers` held any other way
 * would be dropped and the call sent without its budget or its tenant's key.
 */
export function callOptionsWith(options: unknown, overrides: object): Record<string | symbol, unknown> {
  const copy: Record<string | symbol, unknown> = {};
  if (typeof options === "object" && options !== null) {
    for (const name of CALL_OPTION_NAMES) {
      const value = (options as Record<string, unknown>)[name];
      if (value !== undefined) copy[name] = value;
    }
  }
  return Object.assign(copy, overrides);
}

/**
 * The bounds of a wait for code loaded on demand: the call's `signal` and `timeout`, else the
 * client's `timeout`. The call's options are checked first, as the request would check them:
 * a mistake in them is named before anything loads, not hidden behind a load that fails.
 * @throws ModelGateError naming an option of the wrong kind (callers reject with it)
 */
export function callBounds(options: unknown, clientTimeout: number): LoadBounds {
  if (options == null) return { timeout: clientTimeout };
  assertOptions(options);
  return { signal: options.signal ?? undefined, timeout: options.timeout ?? clientTimeout };
}
