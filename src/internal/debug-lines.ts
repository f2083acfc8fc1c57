// The lines `logLevel: "debug"` writes: what the pipeline did, with credentials left out.
import type { Redact } from "../errors/redact.ts";
import type { Logger } from "./logger.ts";

/** What happened, as the pipeline reports it; the wording is made here. */
export type DebugLine =
  | [kind: "request", method: string, url: string, attempt: number, headers: Headers]
  | [kind: "response", method: string, url: string, response: Response]
  | [kind: "retry", delayMs: number, after: string]
  | [kind: "shrink", tokens: number];

/**
 * Header and query parameter names that carry a credential by their name (`authorization`,
 * `x-goog-api-key`, `api-key`, `?key=`, `access_token`, `x-amz-signature`, ...): their values
 * are never shown, whatever secret they hold. The idempotency key is an id, not a secret.
 */
const CREDENTIAL_NAME = /(^|[-_])(authorization|auth|cookie|key|apikey|token|secret|password|signature|sig)$/;

function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_NAME.test(lower) && !lower.startsWith("idempotency");
}

/**
 * Writes a debug line. Values named as credentials are masked; everything else (URLs, every
 * header value, what a server sent) goes through `redact`, which cuts out any part of a key the
 * client used, whatever header or query parameter carries it.
 */
export function logDebug(log: Logger, line: DebugLine, redact: Redact = (text) => text): void {
  switch (line[0]) {
    case "request":
      return log.debug(`modelgate: ${line[1]} ${urlForLog(line[2], redact)}`, { attempt: line[3], headers: headersForLog(line[4], redact) });
    case "response": {
      const requestID = line[3].headers.get("x-request-id");
      return log.debug(`modelgate: ${line[3].status} from ${line[1]} ${urlForLog(line[2], redact)}`, { requestID: requestID && redact(requestID) });
    }
    case "retry":
      return log.debug(`modelgate: retrying in ${Math.round(line[1])} ms after: ${redact(line[2])}`);
    case "shrink":
      return log.debug(`modelgate: retrying with max_tokens ${line[1]}, what the account can afford`);
  }
}

/** Headers as a plain object for a log line: credentials replaced by `[redacted]` (keeping an auth scheme), the rest redacted. */
export function headersForLog(headers: Headers, redact: Redact = (text) => text): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!isCredentialName(name)) shown[name] = redact(value);
    else shown[name] = name.endsWith("authorization") && /^\w+ /.test(value) ? `${value.slice(0, value.indexOf(" "))} [redacted]` : "[redacted]";
  });
  return shown;
}

/** The URL with the values of credential parameters masked (`?key=[redacted]`), then redacted. */
function urlForLog(url: string, redact: Redact): string {
  const query = url.indexOf("?");
  if (query === -1) return redact(url);
  const masked = url.slice(query).replace(/([?&])([^=&]*)=[^&]*/g, (pair, separator: string, name: string) => (isCredentialName(name) ? `${separator}${name}=[redacted]` : pair));
  return redact(url.slice(0, query) + masked);
}
