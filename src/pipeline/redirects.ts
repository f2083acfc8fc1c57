import { ModelGateError } from "../errors/index.ts";
import { CREDENTIAL_HEADERS, type Redact } from "../internal/redact.ts";
import { fetchedResponse } from "./fetched-response.ts";
import type { Fetch } from "./options.ts";

/** As many as fetch follows (WHATWG Fetch, "HTTP-redirect fetch"): beyond that a loop is assumed. */
const MAX_REDIRECTS = 20;

/**
 * Fetches `url`, following its redirects here rather than in fetch: fetch strips only
 * `Authorization`, `Cookie` and `Proxy-Authorization` when a redirect leaves the origin, so
 * an `X-Api-Key`, `Api-Key` or `X-Goog-Api-Key` of `defaultHeaders` would go to whatever
 * origin a gateway (or whoever answers in its name) names, and on a 307 or 308 the prompt too.
 *
 * - A redirect within the origin is followed as fetch would follow it: the method and body
 *   kept on 307 and 308, a GET without a body after a 303 (and after a 301 or 302 of a POST).
 * - A redirect to another origin is followed only when nothing but the URL goes there: every
 *   header of the one credential list (`CREDENTIAL_HEADERS`) removed, and no body. A 307 or
 *   308 of a request with a body would have to replay it there, so it is refused with an
 *   error naming that origin: the key is sent only to the `baseURL` (SECURITY.md).
 * - In a browser a `redirect: "manual"` answer is opaque (status 0, no `Location`): where
 *   it leads cannot be checked, so it is refused rather than followed blind.
 *
 * Each fetch is made with the attempt's signal, so the whole chain stays within its timeout.
 * @throws ModelGateError for a redirect it refuses (not retried: the same answer would come),
 *   or for an answer that is no Response (`fetchedResponse`)
 */
export function followingRedirects(fetch: Fetch, redact: Redact): Fetch {
  return (input, init = {}) => fetchFollowingRedirects(fetch, input, init, redact);
}

async function fetchFollowingRedirects(fetch: Fetch, input: string | URL | Request, init: RequestInit, redact: Redact): Promise<Response> {
  // Under middleware the network is given the Request a middleware sent (its headers as the
  // middleware left them), so a credential it set is stripped below it like the client's own.
  const sent = input instanceof Request ? input : undefined;
  const url = sent ? sent.url : String(input);
  // Read when a redirect needs it: most answers are none.
  let origin: string | undefined;
  let current = url;
  // A copy of a Request's body, for a redirect that keeps it (307, 308 within the origin).
  let replay = sent?.body ? sent.clone() : undefined;
  let request: RequestInit = { ...init, redirect: "manual" };
  for (let redirects = 0; ; redirects++) {
    // A custom fetch may answer with a plain Response rather than a promise of one.
    const first = redirects === 0 && sent !== undefined;
    const response = fetchedResponse(await (first ? fetch(sent, request) : fetch(current, request)), "The `fetch` option", redact);
    if (response.type === "opaqueredirect") {
      throw new ModelGateError(
        `The gateway answered ${current} with a redirect, whose target a browser hides from the page, so it was not followed: the API key and the request are sent only to the \`baseURL\`. Set \`baseURL\` to the URL the gateway redirects to.`,
      );
    }
    const location = isRedirect(response) ? response.headers.get("location") : null;
    if (location === null) return response;
    // The redirect's own body is nobody's: let its connection go.
    response.body?.cancel().catch(() => {});
    if (redirects === MAX_REDIRECTS) throw new ModelGateError(`The gateway redirected ${MAX_REDIRECTS + 1} times from ${url}, so the request was given up (a redirect loop?).`);
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw new ModelGateError(`The gateway answered ${current} with a redirect to ${JSON.stringify(location)}, which is not a URL.`);
    }
    // Only http(s) is fetched on a redirect, as fetch would have it: a `data:` target would
    // answer in the gateway's name with whatever it holds.
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new ModelGateError(`The gateway answered ${current} with a redirect to a ${target.protocol} URL, which is not followed: only http and https are.`);
    }
    const method = (request.method ?? sent?.method ?? "GET").toUpperCase();
    // Fetch's rule: 303 (but for HEAD), and 301 or 302 of a POST, become a GET without a body.
    const toGet = (response.status === 303 && method !== "HEAD") || ((response.status === 301 || response.status === 302) && method === "POST");
    const headers = new Headers(request.headers ?? sent?.headers);
    let body: BodyInit | null = null;
    if (!toGet && sent) {
      // A Request's body, from a copy taken before it was sent (and a copy of that, for the next hop).
      const copy = replay;
      replay = copy?.clone();
      body = copy?.body ?? null;
    } else if (!toGet) {
      body = request.body ?? null;
      // A stream can be sent once, and the first fetch has read it.
      if (body instanceof ReadableStream) {
        throw new ModelGateError(`The gateway answered ${current} with a ${response.status} redirect, which would send the request body again; a streamed body (a ReadableStream) can be sent only once, so it was not followed. Set \`baseURL\` to the URL the gateway redirects to.`);
      }
    }
    if (target.origin !== (origin ??= new URL(url).origin)) {
      if (body !== null) {
        throw new ModelGateError(
          `The gateway answered ${current} with a ${response.status} redirect to another origin (${target.origin}), which would send the request body there; it was not followed: the API key and the request are sent only to the \`baseURL\`. Set \`baseURL\` to the gateway's own URL.`,
        );
      }
      for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      body = null;
    }
    current = target.href;
    request = { ...request, method: toGet ? "GET" : method, headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) };
  }
}

function isRedirect(response: Response): boolean {
  const { status } = response;
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}
