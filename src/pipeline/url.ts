import { argumentError } from "../errors/invalid-argument.ts";
import type { QueryInput } from "./options.ts";

/** Where requests go: the service root, and the query a `baseURL` carried (kept on every request). */
export interface ServiceRoot {
  /** Origin and path, without a trailing `/` or `/v1`. */
  root: string;
  /** The query string of `baseURL` without its `?`, e.g. `api-version=2025-01-01`; "" when none. */
  search: string;
}

/**
 * Turns a user's `baseURL` into the service root that request paths (`/v1/...`) are appended
 * to. Users copy base URLs from docs both with and without the version prefix, so a trailing
 * `/v1` is dropped rather than doubled.
 */
export function serviceRoot(baseURL: string): ServiceRoot {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    // Not quoted: with `apiKey` and `baseURL` swapped, the value is the key.
    throw argumentError("baseURL", 'is not a URL such as "https://gateway.example.com"');
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    // "localhost:8080" parses as the scheme "localhost:": the scheme was left out.
    throw argumentError(
      "baseURL",
      baseURL.includes("://") ? `must use http or https, not "${url.protocol}"` : `has no scheme: write "https://${baseURL}" (or "http://${baseURL}" for a local gateway)`,
    );
  }
  if (url.username || url.password) {
    throw argumentError("baseURL", "must not contain credentials; pass the key as `apiKey`");
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return { root: `${url.origin}${path}`, search: url.search.slice(1) };
}

/**
 * `root` + `path` (as given, a leading `/` added if missing) + the query: `search` (the
 * baseURL's), then each layer merged by name over it (a value replaces, `null` removes,
 * `undefined` leaves). Repeated names in `search` stay as written until a layer sets them.
 */
export function buildURL(root: string, path: string, search: string, ...layers: (QueryInput | undefined)[]): string {
  const url = root + (path.startsWith("/") ? path : `/${path}`);
  let query = search;
  if (layers.some((layer) => layer && Object.keys(layer).length > 0)) {
    const params = new URLSearchParams(search);
    for (const layer of layers) {
      if (!layer) continue;
      for (const [name, value] of Object.entries(layer)) {
        if (value === null) params.delete(name);
        else if (value !== undefined) params.set(name, String(value));
      }
    }
    query = params.toString();
  }
  if (!query) return url;
  return url + (url.includes("?") ? "&" : "?") + query;
}
