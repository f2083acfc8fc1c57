// Stored completions, as a gateway that keeps them serves them: a completion made with
// `store: true` (streamed or not) is kept with its request's messages and `metadata`, for
// `GET/POST/DELETE /v1/chat/completions/{id}`, `GET /v1/chat/completions` (filtered, in cursor
// pages) and `GET /v1/chat/completions/{id}/messages`. Kept per gateway, cleared by `reset()`.
import { errorResponse, RequestRejected } from "../http/error-response.ts";

/** One stored completion: the completion as answered, and what was asked. */
interface Stored {
  completion: Record<string, unknown> & { id: string; model: string };
  messages: Record<string, unknown>[];
  metadata: Record<string, string>;
}

/** A page of `items` (each with an `id`) after the `after` query parameter, `limit` long (20 unless given), in `order`. */
function page<Item extends { id: string }>(items: Item[], query: URLSearchParams): Response {
  const ordered = query.get("order") === "desc" ? [...items].reverse() : items;
  const limit = Number(query.get("limit") ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RequestRejected("`limit` must be a whole number from 1 to 100.", "limit", 400);
  const after = query.get("after");
  const start = after === null ? 0 : ordered.findIndex((item) => item.id === after) + 1;
  if (after !== null && start === 0) throw new RequestRejected(`No item with id ${JSON.stringify(after)} to list after.`, "after", 400);
  const data = ordered.slice(start, start + limit);
  return Response.json({ object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < ordered.length });
}

/** The mock's store of completions made with `store: true`. */
export class CompletionStore {
  readonly #stored = new Map<string, Stored>();

  /** Keeps `completion` when the request asked for it to be stored. */
  keep(params: { store?: unknown; metadata?: unknown; messages: unknown[] }, completion: Stored["completion"]): void {
    if (params.store !== true) return;
    const metadata = isStringRecord(params.metadata) ? { ...params.metadata } : {};
    const messages = params.messages.map((message, index) => {
      const { content, ...rest } = message as Record<string, unknown>;
      const parts = Array.isArray(content);
      return { ...rest, id: `${completion.id}-${index}`, content: parts ? null : (content ?? null), content_parts: parts ? content : null };
    });
    this.#stored.set(completion.id, { completion, messages, metadata });
  }

  clear(): void {
    this.#stored.clear();
  }

  /** The answer to a request under `/v1/chat/completions` that is not a new completion, or `undefined` when it is. */
  serve(method: string, path: string, query: URLSearchParams, body: () => unknown): Response | undefined {
    if (path === "/v1/chat/completions") return method === "GET" ? this.#list(query) : undefined;
    const [id, rest] = path.slice("/v1/chat/completions/".length).split("/").map(decodeURIComponent);
    if (id === undefined || !path.startsWith("/v1/chat/completions/")) return undefined;
    const stored = this.#stored.get(id);
    if (rest === "messages" && method === "GET") return stored ? page(stored.messages as (Record<string, unknown> & { id: string })[], query) : notFound(id);
    if (rest !== undefined) return errorResponse(404, `No route for ${method} ${path}.`, { code: "not_found" });
    if (!stored) return method === "GET" || method === "POST" || method === "DELETE" ? notFound(id) : undefined;
    if (method === "GET") return Response.json(shown(stored));
    if (method === "POST") {
      const { metadata } = (body() ?? {}) as { metadata?: unknown };
      if (metadata !== null && !isStringRecord(metadata)) throw new RequestRejected("`metadata` must be an object of strings, or null.", "metadata", 400);
      stored.metadata = metadata === null ? {} : { ...metadata };
      return Response.json(shown(stored));
    }
    if (method === "DELETE") {
      this.#stored.delete(id);
      return Response.json({ id, deleted: true, object: "chat.completion.deleted" });
    }
    return errorResponse(405, `${method} is not allowed on ${path}; use GET, POST or DELETE.`, { code: "method_not_allowed", headers: { allow: "GET, POST, DELETE" } });
  }

  #list(query: URLSearchParams): Response {
    const model = query.get("model");
    // `metadata[key]=value`, as openai's SDK writes the filter.
    const wanted = [...query].flatMap(([name, value]) => (/^metadata\[(.+)\]$/.exec(name) ? [[/^metadata\[(.+)\]$/.exec(name)![1]!, value] as const] : []));
    const matching = [...this.#stored.values()].filter((stored) => (model === null || stored.completion.model === model) && wanted.every(([key, value]) => stored.metadata[key] === value));
    return page(matching.map(shown), query);
  }
}

/** A stored completion as the endpoints answer with it: the completion, with its `metadata` as it is now. */
function shown(stored: Stored): Stored["completion"] {
  return { ...stored.completion, metadata: stored.metadata };
}

function notFound(id: string): Response {
  return errorResponse(404, `No stored chat completion with id ${JSON.stringify(id)}: only completions created with \`store: true\` are kept.`, { code: "not_found" });
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === "string");
}
