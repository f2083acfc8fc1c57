/** The headers the SDK sends, allowed when a preflight does not list the ones it wants. */
const SDK_HEADERS = "authorization, content-type, idempotency-key, x-modelgate-sdk, x-modelgate-retry-count";

/**
 * The answer to a CORS preflight: any origin, the methods the gateway serves, and the headers
 * the page asked for echoed back (a wildcard would not cover `authorization`).
 */
export function preflightResponse(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? SDK_HEADERS,
      "access-control-max-age": "600",
      vary: "access-control-request-headers",
    },
  });
}

/**
 * Lets a page read every answer, and the headers the SDK reads: request and generation ids,
 * retry hints, and the catalogue's `etag` (none of them is CORS-safelisted).
 */
export function allowCrossOrigin(headers: Headers): void {
  headers.set("access-control-allow-origin", "*");
  headers.set("access-control-expose-headers", "x-request-id, x-generation-id, retry-after, retry-after-ms, etag");
}
