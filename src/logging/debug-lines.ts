// The lines `logLevel: "debug"` writes: what the pipeline did, with credentials left out.
import { CREDENTIAL_HEADERS, redactNothing, type Redact } from "../internal/redact.ts";
import type { Logger } from "./logger.ts";

/** What happened, as the pipeline reports it; the wording is made here. */
export type DebugLine =
  | [kind: "request", method: string, url: string, attempt: number, headers: Headers]
  | [kind: "response", method: string, url: string, response: Response]
  | [kind: "retry", delayMs: number, after: string]
  | [kind: "shrink", tokens: number];

/**
 * Writes a debug line. `redact` cuts any part of a key the client used out of everything else
 * it shows (the URL, every header value, what a server sent), whatever header or query
 * parameter carries the key (`defaultQuery: { key }`, a custom header).
 */
export function logDebug(log: Logger, line: DebugLine, redact: Redact = redactNothing): void {
  switch (line[0]) {
    case "request":
      return log.debug(`modelgate: ${line[1]} ${redact(line[2])}`, { attempt: line[3], headers: headersForLog(line[4], redact) });
    case "response": {
      const requestID = line[3].headers.get("x-request-id");
      return log.debug(`modelgate: ${line[3].status} from ${line[1]} ${redact(line[2])}`, { requestID: requestID && redact(requestID) });
    }
    case "retry":
      return log.debug(`modelgate: retrying in ${Math.round(line[1])} ms after: ${redact(line[2])}`);
    case "shrink":
      return log.debug(`modelgate: retrying with max_tokens ${line[1]}, what the account can afford`);
  }
}

/** Headers as a plain object for a log line: credentials replaced by `[redacted]`, every other value redacted. */
export function headersForLog(headers: Headers, redact: Redact = redactNothing): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    // A header's name can carry the key too (a gateway that names a header after it). A
    // credential header is never shown, whatever secret it holds.
    shown[redact(name)] = CREDENTIAL_HEADERS.includes(name) ? (name === "authorization" ? "Bearer [redacted]" : "[redacted]") : redact(value);
  });
  return shown;
}
