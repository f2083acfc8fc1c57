/**
 * The base of every error the SDK throws, so one `instanceof ModelGateError` check catches them
 * all: HTTP errors, connection problems, timeouts, aborts, malformed streams and bad options.
 */
export class ModelGateError extends Error {
  /** `"ModelGateError"`: the class name, as `err.name` and stack traces show it. */
  override name = "ModelGateError";
  /**
   * The parameter the error is about: for an argument the SDK refused before sending
   * anything, its name as the caller wrote it (`"timeout"`, `"messages[0].role"`); for an
   * `APIError`, the one the server named (`null` when it named none).
   */
  declare readonly param?: string | null;
}

/**
 * Whether `value` is one of the SDK's own errors. Their messages are the SDK's words, with the
 * key already cut out, so a thrown one is kept as its class wherever a thrown value is copied
 * without the key (`keptOrRedacted`).
 */
export function isModelGateError(value: unknown): value is ModelGateError {
  return value instanceof ModelGateError;
}
