/** How much the SDK logs: each level includes the ones before it. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where log lines go; `console` fits. */
export interface Logger {
  /** A failure the SDK could not report by rejecting a call (a listener of `error` that threw, say). */
  error(message: string, ...details: unknown[]): void;
  /** Something the caller should know and may fix (a plain-http base URL, untraced calls). */
  warn(message: string, ...details: unknown[]): void;
  /** Not written by the SDK today; part of the interface so that `console` and common loggers fit. */
  info(message: string, ...details: unknown[]): void;
  /** With `logLevel: "debug"`: each request, response and retry, credentials redacted. */
  debug(message: string, ...details: unknown[]): void;
}

/** The levels that log, most important first: each level logs its own lines and those of the levels before it; also a `Logger`'s methods. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;

/** A logger that drops what is below `level`. */
export function levelledLogger(level: LogLevel, logger: Logger): Logger {
  // -1 for "off" (and for a level that is none of these): every line is dropped.
  const rank = LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
  const noop = () => {};
  // Looked up on each line, not bound once, so a logger whose methods change later is followed.
  const entries = LOG_LEVELS.map((name, index) => [name, index <= rank ? (message: string, ...details: unknown[]) => logger[name](message, ...details) : noop]);
  return Object.fromEntries(entries) as Logger;
}

/** Whether `value` names a log level (for the `MODELGATE_LOG` environment variable). */
export function isLogLevel(value: unknown): value is LogLevel {
  return value === "off" || LOG_LEVELS.includes(value as (typeof LOG_LEVELS)[number]);
}
