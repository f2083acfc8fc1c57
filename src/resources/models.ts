import { invalidArgument, unboundMethodError } from "../errors/invalid-argument.ts";
import { createAPIPromise, type APIPromise } from "../pipeline/api-promise.ts";
import type { RequestOptions } from "../pipeline/options.ts";
import type { Model, ModelList } from "../types/index.ts";
import type { Requester } from "./requester.ts";

/**
 * What `models.list()` returns: a promise of the whole `{ object: "list", data }` catalogue
 * that can also be iterated model by model, as openai-node's pages are:
 * `for await (const model of client.models.list())`. The catalogue comes in one answer, so
 * there are no further pages to fetch.
 */
export type ModelListPromise = APIPromise<ModelList> & AsyncIterable<Model>;

/** `client.models`: the gateway's model catalogue. */
export class Models {
  readonly #client: Requester;

  /** @internal Made by the client: use `client.models`. */
  constructor(client: Requester) {
    this.#client = client;
    made.add(this);
  }

  /**
   * Lists every model the key can use: `GET /v1/models`. Await it for `{ object, data }`, or
   * iterate it with `for await` for each `Model` (one request either way).
   */
  list(options?: RequestOptions): ModelListPromise {
    const promise =
      isModels(this) ? this.#client.request<ModelList>({ method: "GET", path: "/v1/models", options }) : createAPIPromise<ModelList>(Promise.reject(unboundMethodError("client.models.list")));
    return Object.assign(promise, {
      async *[Symbol.asyncIterator]() {
        yield* (await promise).data;
      },
    });
  }

  /**
   * One model by id: `GET /v1/models/{id}`. Ids such as `openai/gpt-4.1-mini` contain a
   * slash, so the id is path-encoded. @throws NotFoundError for an unknown id.
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<Model> {
    if (!isModels(this)) return createAPIPromise(Promise.reject(unboundMethodError("client.models.retrieve")));
    return this.#client.request<Model>({
      method: "GET",
      // Checked by `validate`, so that a bad id rejects the call rather than throwing from it.
      path: typeof id === "string" ? `/v1/models/${encodeURIComponent(id)}` : "",
      options,
      validate: () => {
        if (typeof id !== "string" || id === "") throw invalidArgument("id", 'a model id such as "openai/gpt-4.1-mini"', id);
        // Path-encoding leaves these as they are, and a URL resolves them: "." would ask for
        // GET /v1/models/ (the list) and ".." for GET /v1/, another endpoint than the one called.
        if (id === "." || id === "..") throw invalidArgument("id", 'a model id such as "openai/gpt-4.1-mini", not a dot segment ("." or ".."), which would change the request\'s path', id);
      },
    });
  }
}

/**
 * Whether a method was called on a `Models` (not detached from it). Written outside the class on
 * purpose: a class that names itself inside its own body is emitted by esbuild as
 * `var Models = class _Models`, and `Models.name`, which util.inspect and stack traces show, is then `_Models`.
 */
/** The resources made: a Proxy of one passes `instanceof` but holds none of its private fields. */
const made = /* @__PURE__ */ new WeakSet<object>();

function isModels(self: unknown): self is Models {
  return made.has(self as object);
}
