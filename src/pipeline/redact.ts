import type { APIError } from "../errors/index.ts";

const REDACTED = "[redacted]";

/**
 * Some providers echo the key they rejected ("Incorrect API key provided: sk-...") in their
 * error message; errors get logged and reported, so the key is cut out of everything the error
 * carries before it is thrown.
 */
export function redactKey<E extends APIError>(error: E, apiKey: string): E {
  if (apiKey.length < 4) return error;
  if (error.message.includes(apiKey)) error.message = error.message.replaceAll(apiKey, REDACTED);
  const body = error.error;
  if (body !== undefined) {
    const serialised = JSON.stringify(body);
    if (serialised?.includes(apiKey)) {
      (error as { error: unknown }).error = JSON.parse(serialised.replaceAll(apiKey, REDACTED));
    }
  }
  return error;
}
