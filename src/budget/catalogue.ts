// The model catalogue as the budget code reads it: fetched once per client, shared by the
// calls that need it at the same time, and revalidated with its ETag when it is more than
// five minutes old. Loaded lazily with the budget code.
import { abortError, APIConnectionTimeoutError, APIError, invalidArgument, isRecord, MAX_TIMER_MS, untilAborted, type Requester } from "../core.ts";
import type { Model, ModelList } from "../types/index.ts";

/** How long a fetched catalogue is used without asking the gateway again. */
export const CATALOGUE_MAX_AGE_MS = 5 * 60_000;

interface Catalogue {
  models: Map<string, Model>;
  etag: string | null;
  fetchedAt: number;
}

interface CacheEntry {
  current?: Catalogue | undefined;
  /** The fetch in flight: calls at the same time share it. */
  pending?: Promise<Catalogue> | undefined;
}

/** One cache per client (its request pipeline), gone with the client. */
const caches = new WeakMap<Requester, CacheEntry>();

/**
 * The catalogue of `client`'s gateway, from the cache when it is fresh enough. The fetch is
 * shared by the calls waiting for it, so one caller's abort or timeout does not cancel it:
 * `signal` and `timeoutMs` only end this caller's wait, at once.
 */
export function catalogueOf(client: Requester, signal?: AbortSignal | null, timeoutMs?: number): Promise<Catalogue> {
  if (signal != null && typeof (signal as AbortSignal).addEventListener !== "function") return Promise.reject(invalidArgument("signal", "an AbortSignal", signal));
  const limits = new AbortController();
  const onAbort = () => limits.abort(abortError(signal as AbortSignal));
  if (signal?.aborted) return Promise.reject(abortError(signal));
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    typeof timeoutMs === "number" && timeoutMs >= 0 && timeoutMs < MAX_TIMER_MS
      ? setTimeout(() => limits.abort(new APIConnectionTimeoutError(`The model catalogue (for maxCost) did not arrive within ${timeoutMs} ms (timeout).`)), timeoutMs)
      : undefined;
  return untilAborted(cachedCatalogue(client), limits.signal).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  });
}

function cachedCatalogue(client: Requester, now = Date.now()): Promise<Catalogue> {
  let entry = caches.get(client);
  if (!entry) caches.set(client, (entry = {}));
  const { current } = entry;
  if (current && now - current.fetchedAt < CATALOGUE_MAX_AGE_MS) return Promise.resolve(current);
  const cache = entry;
  return (cache.pending ??= fetchCatalogue(client, current).then(
    (fresh) => {
      cache.current = fresh;
      cache.pending = undefined;
      return fresh;
    },
    (error: unknown) => {
      cache.pending = undefined;
      throw error;
    },
  ));
}

async function fetchCatalogue(client: Requester, previous: Catalogue | undefined): Promise<Catalogue> {
  const headers = previous?.etag ? { "if-none-match": previous.etag } : undefined;
  try {
    const { data, response } = await client.request<ModelList>({ method: "GET", path: "/v1/models", options: { headers } }).withResponse();
    const list: unknown[] = isRecord(data) && Array.isArray(data.data) ? data.data : [];
    // An entry that is not a model with an id is skipped: it cannot be priced anyway.
    const entries = list.filter((model): model is Model => isRecord(model) && typeof model.id === "string");
    return { models: new Map(entries.map((model) => [model.id, model])), etag: response.headers.get("etag"), fetchedAt: Date.now() };
  } catch (error) {
    // 304 Not Modified: what we have is still the catalogue.
    if (previous && error instanceof APIError && error.status === 304) return { ...previous, fetchedAt: Date.now() };
    throw error;
  }
}
