import { ModelGateError } from "../errors/index.ts";
import type { QueryInput } from "../client/options.ts";

/**
 * Turns a user's `baseURL` into the service root that request paths (`/v1/...`) are appended
 * to. Users copy base URLs from docs both with and without the version prefix, so a trailing
 * `/v1` is dropped rather than doubled.
 */
export function serviceRoot(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new ModelGateError(
      `baseURL is not a valid URL: ${JSON.stringify(baseURL)}. Expected something like "https://gateway.example.com".`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ModelGateError(`baseURL must use http or https, not "${url.protocol}".`);
  }
  if (url.username || url.password) {
    throw new ModelGateError("baseURL must not contain credentials; pass the key as `apiKey`.");
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${url.origin}${path}`;
}

/** `root` + `path` (as given, a leading `/` added if missing) + the merged query parameters. */
export function buildURL(root: string, path: string, ...queries: (QueryInput | undefined)[]): string {
  const url = root + (path.startsWith("/") ? path : `/${path}`);
  let search = "";
  for (const query of queries) {
    if (!query) continue;
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      search += `${search ? "&" : ""}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
    }
  }
  if (!search) return url;
  return url + (url.includes("?") ? "&" : "?") + search;
}
