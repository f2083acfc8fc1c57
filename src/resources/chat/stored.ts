// Stored completions (`store: true`): the requests behind `chat.completions.retrieve/update/
// list/delete` and `chat.completions.messages.list`, described for the one pipeline, and the
// cursor pages their lists come in. Thin on purpose: each is one request, decoded as chat's.
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import type { APIPromise } from "../../pipeline/api-promise.ts";
import type { QueryInput, RequestOptions } from "../../pipeline/options.ts";
import type { HTTPMethod } from "../../pipeline/request.ts";
import type { CursorPage } from "../../types/stored-completions.ts";
import type { Requester } from "../requester.ts";
import type { decodeChatAnswer } from "./decode.ts";

/**
 * What a stored list's `list()` returns: a promise of its first page that can also be
 * iterated item by item across every page, as openai's page promises are:
 * `for await (const completion of client.chat.completions.list())`.
 */
export type CursorPagePromise<Item> = APIPromise<CursorPage<Item>> & AsyncIterable<Item>;

/**
 * One request about the stored completion `id`: `{method} /v1/chat/completions/{id}{rest}`.
 * The id is path-encoded; a missing one rejects the call (checked by `validate`, so that it
 * rejects rather than throws).
 */
export function storedRequest<T>(client: Requester, method: HTTPMethod, id: unknown, rest: string, options: RequestOptions | undefined, body?: unknown, decode?: typeof decodeChatAnswer): APIPromise<T> {
  return client.request<T>({
    method,
    path: storedPath(id, rest),
    body,
    decode,
    options,
    validate: () => assertCompletionID(id),
  });
}

/** The path of stored completion `id`, and `rest` after it; "" for a bad id, which `assertCompletionID` names. */
export function storedPath(id: unknown, rest = ""): string {
  return typeof id === "string" ? `/v1/chat/completions/${encodeURIComponent(id)}${rest}` : "";
}

/** @throws ModelGateError naming `completionID` when it is not a non-empty string */
export function assertCompletionID(id: unknown): void {
  if (typeof id !== "string" || id === "") throw invalidArgument("completionID", 'the id of a stored completion, such as "chatcmpl-abc123"', id);
}

/**
 * The pages of `path` from the one `params` asks for, each a GET of the pipeline, the list's
 * params sent as its query (`metadata` as openai writes it, `metadata[key]=value`) under the
 * call's own `query`. Iterating asks for the page after the last item's id while `has_more`.
 */
export function cursorPages<Item extends { id: string }>(client: Requester, path: string, params: unknown, options: RequestOptions | undefined, validate?: () => void): CursorPagePromise<Item> {
  const page = (after: string | undefined) => {
    // Not spread when they are no object: the pipeline names the mistake, rejecting the call.
    const query = isRecord(params) ? listQuery(params, after) : after === undefined ? {} : { after };
    const given = options === undefined || isRecord(options) ? { ...options, query: { ...query, ...(options?.query as QueryInput | undefined) } } : options;
    return client.request<CursorPage<Item>>({
      method: "GET",
      path,
      options: given as RequestOptions,
      validate: () => {
        validate?.();
        if (params != null && !isRecord(params)) throw invalidArgument("params", "an object such as { limit: 20 }", params);
      },
    });
  };
  const first = page(undefined);
  return Object.assign(first, {
    async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
      for (let current = await first; ; ) {
        yield* current.data;
        const last = current.data.at(-1)?.id;
        // A server that says there is more but gives no cursor would be asked the same page forever.
        if (!current.has_more || typeof last !== "string") return;
        current = await page(last);
      }
    },
  });
}

/** A list's params as query parameters: `metadata: { a: "1" }` as `metadata[a]=1`, `null` and `undefined` left out. */
function listQuery(params: Record<string, unknown>, after: string | undefined): QueryInput {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "metadata" && isRecord(value)) {
      for (const [key, pair] of Object.entries(value)) query[`metadata[${key}]`] = pair;
    } else if (value != null) {
      query[name] = value;
    }
  }
  if (after !== undefined) query.after = after;
  return query as QueryInput;
}
