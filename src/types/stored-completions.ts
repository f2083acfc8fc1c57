import type { ChatCompletion, ChatCompletionMessage } from "./chat-completion.ts";
import type { ChatCompletionContentPartImage, ChatCompletionContentPartText } from "./chat-params.ts";

// Stored completions (`store: true`), as openai's `chat.completions.retrieve/update/list/delete`
// and `chat.completions.messages.list` read them. A gateway that keeps none answers these
// endpoints with 404, thrown as `NotFoundError`.

/** Where a list starts and how much of it one page holds (openai's cursor params). */
export interface CursorPageParams {
  /** The id of the last item of the page before: the page after it. */
  after?: string | undefined;
  /** How many items one page holds (the server's default when left out, 20 at OpenAI). */
  limit?: number | undefined;
}

/**
 * One page of a list, as the server sent it. Awaiting `list()` gives the first; iterating it
 * with `for await` gives every item of every page, asking for the next while `has_more`.
 */
export interface CursorPage<Item> {
  object: "list";
  data: Item[];
  /** Whether a page comes after this one: ask for it with `after: last_id`. */
  has_more: boolean;
  first_id?: string | null | undefined;
  last_id?: string | null | undefined;
}

/** A page of stored chat completions (`chat.completions.list()`). */
export type ChatCompletionsPage = CursorPage<ChatCompletion>;

/** A page of a stored completion's messages (`chat.completions.messages.list(id)`). */
export type ChatCompletionStoreMessagesPage = CursorPage<ChatCompletionStoreMessage>;

/** `chat.completions.list()`'s filters: which stored completions, in which order. */
export interface ChatCompletionListParams extends CursorPageParams {
  /** Only those whose `metadata` holds each of these pairs (sent as `metadata[key]=value`). */
  metadata?: Record<string, string> | null | undefined;
  /** Only those made by this model. */
  model?: string | undefined;
  /** By creation time: `asc` (the default) or `desc`. */
  order?: "asc" | "desc" | undefined;
}

/** `chat.completions.update(id, params)`: the one field a stored completion may change. */
export interface ChatCompletionUpdateParams {
  /** Up to 16 string pairs, replacing the stored ones; `null` clears them. */
  metadata: Record<string, string> | null;
}

/** `chat.completions.messages.list(id)`'s options. */
export interface MessageListParams extends CursorPageParams {
  /** By position in the conversation: `asc` (the default) or `desc`. */
  order?: "asc" | "desc" | undefined;
}

/** A message of a stored completion's request, with its id. */
export interface ChatCompletionStoreMessage extends Omit<ChatCompletionMessage, "role" | "content_parts"> {
  id: string;
  /** Who wrote it: the request's messages have every role, not only `assistant`. */
  role: ChatCompletionMessage["role"] | "system" | "developer" | "user" | "tool" | (string & {});
  /** The message's parts when it was sent as parts, else null. */
  content_parts?: (ChatCompletionContentPartText | ChatCompletionContentPartImage)[] | null | undefined;
}

/** What `chat.completions.delete(id)` resolves to. */
export interface ChatCompletionDeleted {
  id: string;
  deleted: boolean;
  object: "chat.completion.deleted";
}
