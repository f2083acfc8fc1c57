// The model catalogue as the budget code reads it: fetched once per client, shared by the
// calls that need it at the same time, and revalidated with its ETag when it is more than
// five minutes old. The fetch belongs to the calls waiting on it: when the last of them stops
// waiting (aborted, timed out), the fetch is aborted too, so nothing keeps the process alive.
import { APIConnectionTimeoutError, APIError } from "../../errors/index.ts";
import { isRecord } from "../../internal/values.ts";
import { callBounds } from "../../pipeline/call-options.ts";
import { limits, type Limits } from "../../pipeline/limits.ts";
import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import type { Requester } from "../../resources/requester.ts";
import type { Model, ModelList } from "../../types/index.ts";
import { dearest, pricingOf } from "./worst-case.ts";

/** How long a fetched catalogue is used without asking the gateway again. */
export const CATALOGUE_MAX_AGE_MS = 5 * 60_000;

/** The catalogue, by model id. */
export interface Catalogue {
  models: Map<string, Model>;
  etag: string | null;
  fetchedAt: number;
}

/** A fetch in flight, shared by the calls waiting on it. */
interface PendingFetch {
  catalogue: Promise<Catalogue>;
  controller: AbortController;
  waiting: number;
}

interface CacheEntry {
  current?: Catalogue | undefined;
  pending?: PendingFetch | undefined;
}

/** One cache per client (shared with the clients `withOptions` made alike, see `Requester.cache`), gone with them. */
const caches = new WeakMap<object, CacheEntry>();

/**
 * The catalogue of `client`'s gateway, from the cache when it is fresh enough. `signal` and
 * `timeoutMs` (else the client's `timeout`) end this caller's wait at once; the shared fetch
 * goes on for the other callers, and is aborted when none is left.
 */
export function catalogueOf(client: Requester, signal?: AbortSignal | null, timeoutMs?: number): Promise<Catalogue> {
  let wait: Limits;
  let timeout: number;
  try {
    // The call's signal and timeout (else the client's), checked as every call option is: the
    // catalogue is asked for before the call's own request is built.
    ({ timeout } = callBounds({ signal, timeout: timeoutMs }, client.timeout));
    // The same abort wait as every other step of a call, so an abort or a timeout here reads as it does there.
    wait = limits(signal, timeout, () => new APIConnectionTimeoutError(`The model catalogue (for maxCost) did not arrive within ${timeout} ms (timeout).`));
  } catch (error) {
    return Promise.reject(error);
  }
  let entry = caches.get(client.cache);
  if (!entry) caches.set(client.cache, (entry = {}));
  const { current } = entry;
  if (current && Date.now() - current.fetchedAt < CATALOGUE_MAX_AGE_MS) {
    wait.release();
    return Promise.resolve(current);
  }
  const cache = entry;
  const pending = (cache.pending ??= startFetch(client, cache));
  pending.waiting++;
  return unlessAborted(pending.catalogue, wait.controller.signal).finally(() => {
    wait.release();
    pending.waiting--;
    // Nobody waits any more: the fetch is given up (a caller that comes later starts its own).
    if (pending.waiting === 0 && cache.pending === pending) {
      cache.pending = undefined;
      pending.controller.abort();
    }
  });
}

function startFetch(client: Requester, cache: CacheEntry): PendingFetch {
  const controller = new AbortController();
  const pending: PendingFetch = { controller, waiting: 0, catalogue: undefined as never };
  pending.catalogue = fetchCatalogue(client, cache.current, controller.signal).then(
    (fresh) => {
      cache.current = fresh;
      if (cache.pending === pending) cache.pending = undefined;
      return fresh;
    },
    (error: unknown) => {
      if (cache.pending === pending) cache.pending = undefined;
      throw error;
    },
  );
  return pending;
}

async function fetchCatalogue(client: Requester, previous: Catalogue | undefined, signal: AbortSignal): Promise<Catalogue> {
  // Part of the calls that wait for it (it may serve several): it publishes no trace of its own.
  const headers = previous?.etag ? { "if-none-match": previous.etag } : undefined;
  try {
    const { data, response } = await client.request<ModelList>({ method: "GET", path: "/v1/models", options: { headers, signal }, untraced: true }).withResponse();
    const list: unknown[] = isRecord(data) && Array.isArray(data.data) ? data.data : [];
    // An entry that is not a model with an id is skipped: it cannot be priced anyway.
    const entries = list.filter((model): model is Model => isRecord(model) && typeof model.id === "string");
    const models = new Map<string, Model>();
    for (const model of entries) models.set(model.id, dearerOf(models.get(model.id), model));
    return { models, etag: response.headers.get("etag"), fetchedAt: Date.now() };
  } catch (error) {
    // 304 Not Modified: what we have is still the catalogue.
    if (previous && error instanceof APIError && error.status === 304) return { ...previous, fetchedAt: Date.now() };
    throw error;
  }
}

/**
 * One id listed twice: the later entry, priced at the dearest of the two (the highest prompt
 * and completion prices of the entries that give one), with the longer context and the longer
 * reply limit (none, where one entry states none), so the order of the list never makes a
 * budget cheaper than one of its entries says.
 */
function dearerOf(kept: Model | undefined, next: Model): Model {
  if (!kept) return next;
  const merged: Model = { ...next };
  const context = longer(kept.context_length, next.context_length);
  if (context !== undefined) merged.context_length = context;
  const reply = longer(kept.max_output_tokens, next.max_output_tokens);
  if (kept.max_output_tokens == null || next.max_output_tokens == null || reply === undefined) delete merged.max_output_tokens;
  else merged.max_output_tokens = reply;
  const pricing = dearest([pricingOf(kept), pricingOf(next)]);
  if (pricing) merged.pricing = pricing;
  return merged;
}

/** The larger of two token counts, ignoring one that is not a number; `undefined` when neither is. */
function longer(a: unknown, b: unknown): number | undefined {
  const counts = [a, b].filter((count): count is number => typeof count === "number" && Number.isFinite(count));
  return counts.length ? Math.max(...counts) : undefined;
}
