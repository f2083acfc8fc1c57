// The warning a client with a plain-http baseURL logs (a local gateway, a mock, or the mistake
// it warns about).
import type { Logger } from "./logger.ts";

const warnedOrigins = new Set<string>();

/**
 * The key travels in a header: over plain http anyone on the path can read it. Loopback is
 * fine (a local gateway or mock), anything else gets one warning per origin and process.
 */
export function warnAboutPlainHTTP(root: string, log: Logger): void {
  const url = new URL(root);
  if (url.protocol !== "http:" || warnedOrigins.has(url.origin)) return;
  const host = url.hostname;
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
  if (loopback) return;
  warnedOrigins.add(url.origin);
  log.warn(`modelgate: baseURL ${url.origin} uses plain http, so the API key is sent unencrypted; use https.`);
}
