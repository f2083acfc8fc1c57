import type { RequestOptions } from "../../pipeline/options.ts";
import type { ChatCompletionStoreMessage, MessageListParams } from "../../types/stored-completions.ts";
import type { Requester } from "../requester.ts";
import { assertCompletionID, cursorPages, storedPath, type CursorPagePromise } from "./stored.ts";

/** `client.chat.completions.messages`: the messages of a stored completion (one made with `store: true`). */
export class Messages {
  readonly #client: Requester;

  /** @internal Made by the client: use `client.chat.completions.messages`. */
  constructor(client: Requester) {
    this.#client = client;
  }

  /**
   * The messages of the request behind stored completion `completionID`:
   * `GET /v1/chat/completions/{id}/messages`. Await it for the first page, or iterate it with
   * `for await` for every message of every page.
   * @throws NotFoundError for an id the gateway keeps no completion under, or from a gateway that stores none
   */
  list(completionID: string, params?: MessageListParams | null, options?: RequestOptions): CursorPagePromise<ChatCompletionStoreMessage> {
    return cursorPages<ChatCompletionStoreMessage>(this.#client, storedPath(completionID, "/messages"), params, options, () => assertCompletionID(completionID));
  }
}
