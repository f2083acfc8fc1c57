/** How much the SDK logs: each level includes the ones before it. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where log lines go; `console` fits. */
export interface Logger {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  debug(message: string, ...details: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** A logger that drops what is below `level`. */
export function levelledLogger(level: LogLevel, logger: Logger): Logger {
  const rank = RANK[level];
  const noop = () => {};
  return {
    error: rank >= RANK.error ? (message, ...details) => logger.error(message, ...details) : noop,
    warn: rank >= RANK.warn ? (message, ...details) => logger.warn(message, ...details) : noop,
    info: rank >= RANK.info ? (message, ...details) => logger.info(message, ...details) : noop,
    debug: rank >= RANK.debug ? (message, ...details) => logger.debug(message, ...details) : noop,
  };
}

/** Whether `value` names a log level (for the `MODELGATE_LOG` environment variable). */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && value in RANK;
}
