/**
 * The base of every error the SDK throws, so one `instanceof ModelGateError` check catches them
 * all: HTTP errors, connection problems, timeouts, aborts, malformed streams and bad options.
 */
export class ModelGateError extends Error {
  override name = "ModelGateError";
}
