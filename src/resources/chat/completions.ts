import type { RequestOptions } from "../../pipeline/options.ts";
import type { APIPromise } from "../../pipeline/api-promise.ts";
import type { Stream } from "../../streaming/stream.ts";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "../../types/index.ts";
import type { Requester } from "../requester.ts";
import { assertChatParams } from "./validate.ts";

/** `client.chat.completions`: `POST /v1/chat/completions`. */
export class Completions {
  readonly #client: Requester;

  constructor(client: Requester) {
    this.#client = client;
  }

  /**
   * Creates a chat completion. With `stream: true` it resolves, once the response headers
   * arrive, to a `Stream` of chunks; otherwise to the whole `ChatCompletion`.
   * `model: "auto"` lets the gateway choose (narrowed by `route`); the chosen model comes back
   * in `model`. Extra fields are sent as given.
   *
   * @throws ModelGateError before sending when `model` or `messages` is missing or malformed;
   *   `APIError` subclasses for error answers (after retries), `APIConnectionError`,
   *   `APIConnectionTimeoutError`, `APIUserAbortError`.
   */
  create(params: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(params: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<Stream<ChatCompletionChunk>>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: RequestOptions,
  ): APIPromise<Stream<ChatCompletionChunk> | ChatCompletion>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: RequestOptions,
  ): APIPromise<Stream<ChatCompletionChunk> | ChatCompletion> {
    return this.#client.request({
      method: "POST",
      path: "/v1/chat/completions",
      body: params,
      // `params` may be anything from plain JavaScript; `validate` names the mistake.
      stream: (params as { stream?: unknown } | null | undefined)?.stream === true,
      options,
      validate: () => assertChatParams(params),
    });
  }
}
