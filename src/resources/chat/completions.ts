import type { RequestOptions } from "../../pipeline/options.ts";
import { createAPIPromise, type APIPromise } from "../../pipeline/api-promise.ts";
import { callBounds } from "../../pipeline/call-options.ts";
import { loadBudget, loadChatStream, loadStructured, loadToolRunner } from "../../pipeline/loader.ts";
import { ChatCompletionRunner } from "./chat-completion-runner.ts";
import { ChatCompletionStream } from "./chat-completion-stream.ts";
import type { ToolRun, ToolRunOptions, ToolRunParams } from "../../types/tool-runner.ts";
import type { Stream } from "../../streaming/stream.ts";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionTool,
} from "../../types/index.ts";
import type {
  ChatRequestOptions,
  ChatCompletionParseParams,
  ParsedChatCompletion,
  DeepPartial,
  ParsedInput,
  ParsedOutput,
  ParsedToolCallOf,
  ParseOptions,
  ParseResponseFormat,
  StructuredStreamFor,
} from "../../types/structured.ts";
import type { Requester } from "../requester.ts";
import type { SendBudget } from "../../pipeline/request.ts";
import { chatAnswerReading, decodeChatAnswer } from "./decode.ts";
import { assertChatParams } from "./validate.ts";
import { toolInternals } from "../../schemas/tool-internals.ts";
import type { ChatCompletionDeleted, ChatCompletionListParams, ChatCompletionUpdateParams } from "../../types/stored-completions.ts";
import { Messages } from "./messages.ts";
import { cursorPages, storedRequest, type CursorPagePromise } from "./stored.ts";
import { unboundMethodError } from "../../errors/invalid-argument.ts";

/** `client.chat.completions`: `POST /v1/chat/completions`, and the completions a gateway stored (`store: true`). */
export class Completions {
  readonly #client: Requester;
  /** The messages of a stored completion: `client.chat.completions.messages.list(id)`. */
  declare readonly messages: Messages;

  /** @internal Made by the client: use `client.chat.completions`. */
  constructor(client: Requester) {
    this.#client = client;
    this.messages = new Messages(client);
    made.add(this);
  }

  /**
   * A completion stored with `store: true`: `GET /v1/chat/completions/{id}`.
   * @throws NotFoundError for an id the gateway keeps no completion under, or from a gateway that stores none
   */
  retrieve(completionID: string, options?: RequestOptions): APIPromise<ChatCompletion> {
    return storedRequest<ChatCompletion>(this.#client, "GET", completionID, "", options, undefined, decodeChatAnswer);
  }

  /**
   * Changes a stored completion's `metadata` (the one field that may change):
   * `POST /v1/chat/completions/{id}`, resolving to the completion as stored now.
   * @throws NotFoundError for an id the gateway keeps no completion under, or from a gateway that stores none
   */
  update(completionID: string, params: ChatCompletionUpdateParams, options?: RequestOptions): APIPromise<ChatCompletion> {
    return storedRequest<ChatCompletion>(this.#client, "POST", completionID, "", options, params, decodeChatAnswer);
  }

  /**
   * The stored completions, filtered by `params`: `GET /v1/chat/completions`. Await it for the
   * first page (`{ data, has_more, last_id }`), or iterate it with `for await` for every
   * completion of every page.
   * @throws NotFoundError from a gateway that stores none
   */
  list(params?: ChatCompletionListParams | null, options?: RequestOptions): CursorPagePromise<ChatCompletion> {
    return cursorPages<ChatCompletion>(this.#client, "/v1/chat/completions", params, options);
  }

  /**
   * Deletes a stored completion: `DELETE /v1/chat/completions/{id}`.
   * @throws NotFoundError for an id the gateway keeps no completion under, or from a gateway that stores none
   */
  delete(completionID: string, options?: RequestOptions): APIPromise<ChatCompletionDeleted> {
    return storedRequest<ChatCompletionDeleted>(this.#client, "DELETE", completionID, "", options);
  }

  /** What bounds a call's wait for code loaded on demand: its own signal and timeout. */
  #bounds(options: unknown) {
    return callBounds(options, this.#client.timeout);
  }

  /**
   * Creates a chat completion. With `stream: true` it resolves, once the first bytes of the
   * body show an event stream, to a `Stream` of chunks (a whole completion sent instead is a
   * stream of one chunk); otherwise to the whole `ChatCompletion`.
   * `model: "auto"` lets the gateway choose (narrowed by `route`); the chosen model comes back
   * in `model`. Extra fields are sent as given.
   *
   * @throws ModelGateError before sending when `model` or `messages` is missing or malformed;
   *   `APIError` subclasses for error answers (after retries), `APIConnectionError`,
   *   `APIConnectionTimeoutError`, `APIUserAbortError`.
   */
  create(params: ChatCompletionCreateParamsNonStreaming, options?: ChatRequestOptions): APIPromise<ChatCompletion>;
  create(params: ChatCompletionCreateParamsStreaming, options?: ChatRequestOptions): APIPromise<Stream<ChatCompletionChunk>>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: ChatRequestOptions,
  ): APIPromise<Stream<ChatCompletionChunk> | ChatCompletion>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: ChatRequestOptions,
  ): APIPromise<Stream<ChatCompletionChunk> | ChatCompletion> {
    if (!isCompletions(this)) return createAPIPromise(Promise.reject(unboundMethodError("client.chat.completions.create")));
    // `sendBudget`: under `maxCost`, the budget code's check of every send (see `withinBudget`).
    const send = (body: unknown, callOptions: unknown, sendBudget?: SendBudget) =>
      this.#client.request<Stream<ChatCompletionChunk> | ChatCompletion>({
        method: "POST",
        path: "/v1/chat/completions",
        body,
        // `body` may be anything from plain JavaScript; `validate` names the mistake.
        ...chatAnswerReading(body),
        options: callOptions as RequestOptions,
        sendBudget,
        validate: () => assertChatParams(body),
      });
    type Result = APIPromise<Stream<ChatCompletionChunk> | ChatCompletion>;
    try {
      // `tool()` tools are closed and given `strict` by the code that loads with parse(): a chat
      // app without them never downloads it (parse() and runTools() send them ready).
      if (Array.isArray(params?.tools) && params.tools.some(toolInternals)) {
        return createAPIPromise(loadStructured(this.#bounds(options)).then(({ createWithTools }) => createWithTools(this, params, options))) as Result;
      }
      // A budget is kept by code loaded when a call first asks for one.
      if ((options as ChatRequestOptions | null | undefined)?.maxCost === undefined) return send(params, options);
      return createAPIPromise(loadBudget(this.#bounds(options)).then(({ withinBudget }) => withinBudget(this.#client, params, options as Record<string, unknown>, send))) as Result;
    } catch (error) {
      // A getter of plain JavaScript's params or options that throws: the call rejects, never throws.
      return createAPIPromise(Promise.reject(error));
    }
  }

  /**
   * Creates a chat completion whose answer follows a schema, and parses it:
   * `message.parsed` is the answer, validated and typed by `response_format` (a Zod 4, ArkType
   * or Valibot schema, `jsonSchema(...)`, OpenAI's `json_schema` form, or what openai's
   * `zodResponseFormat()` returns, read by its own `$parseRaw`). Calls of `tool()` and
   * `zodFunction()` tools, and of tools with `function.strict: true`, get `parsed_arguments`.
   * `options.structuredOutput` says how the schema reaches the model (default `"json_schema"`;
   * `"tool"` or `"json_object"` for models without native support). With `stream: true` it
   * resolves to a stream that also has `partialObjectStream`.
   *
   * @throws StructuredOutputError when the answer is not JSON, the schema rejects it, or the
   *   token limit cut it (`parsed` is `null` on a refusal instead); ModelGateError before
   *   sending when `response_format` is not a schema the SDK can send; and whatever `create()` throws.
   */
  parse<Format extends ParseResponseFormat | undefined = undefined, const Tools extends readonly ChatCompletionTool[] = []>(
    params: ChatCompletionParseParams<Format, Tools> & { stream?: false | null | undefined },
    options?: ParseOptions,
  ): APIPromise<ParsedChatCompletion<ParsedOutput<Format>, ParsedToolCallOf<Tools>>>;
  parse<Format extends ParseResponseFormat | undefined = undefined, const Tools extends readonly ChatCompletionTool[] = []>(
    params: ChatCompletionParseParams<Format, Tools> & { stream: true },
    options?: ParseOptions,
  ): APIPromise<StructuredStreamFor<Format, Tools>>;
  parse<Format extends ParseResponseFormat | undefined = undefined, const Tools extends readonly ChatCompletionTool[] = []>(
    params: ChatCompletionParseParams<Format, Tools>,
    options?: ParseOptions,
  ): APIPromise<
    | ParsedChatCompletion<ParsedOutput<Format>, ParsedToolCallOf<Tools>>
    | StructuredStreamFor<Format, Tools>
  >;
  parse(params: ChatCompletionParseParams, options?: ParseOptions): APIPromise<unknown> {
    if (!isCompletions(this)) return createAPIPromise(Promise.reject(unboundMethodError("client.chat.completions.parse")));
    // Delegates to code loaded on first use: an app that never parses never downloads it.
    // (A mistake in the options rejects, as every failure of the call does: nothing throws here.)
    const loading = new Promise<Awaited<ReturnType<typeof loadStructured>>>((resolve) => resolve(loadStructured(this.#bounds(options))));
    return createAPIPromise(loading.then(({ parseOutcome }) => parseOutcome(this.#client, this, params, options)));
  }

  /**
   * openai's streaming helper: streams a chat completion and returns at once (not a promise,
   * so `.stream({ ... }).on("content.delta", …)` chains) a `ChatCompletionStream`, iterable for
   * the chunks and emitting openai's events (`content.delta`, `chunk`, `message`, …) with the
   * final values (`finalChatCompletion()`, `finalContent()`, …). Takes `parse()`'s params and
   * options: with a schema `response_format` or `tool()` tools it parses as `parse()` does.
   *
   * Nothing is thrown here: a mistake in the arguments, like any failure, is the stream's
   * `error` event and rejects `done()` and the final values.
   */
  stream<Format extends ParseResponseFormat | undefined = undefined, const Tools extends readonly ChatCompletionTool[] = []>(
    params: ChatCompletionParseParams<Format, Tools> & { stream?: true | null | undefined },
    options?: ParseOptions,
  ): ChatCompletionStream<ParsedOutput<Format>, ParsedToolCallOf<Tools>, DeepPartial<ParsedInput<Format>>> {
    // Called without its object: the stream fails as for any mistake in the arguments.
    if (!isCompletions(this)) return new ChatCompletionStream(undefined, () => Promise.reject(unboundMethodError("client.chat.completions.stream")));
    return new ChatCompletionStream(this.#client, (events, stream) => {
      const bounds = this.#bounds(options);
      // The helper builds on parse()'s code: both are requested at once, not one after the other
      // (the helper then asks the loader for the one it already has).
      return Promise.all([loadChatStream(bounds), loadStructured(bounds)]).then(([chatStream]) => chatStream.streamHelper(events, stream, this.#client, this, params, options));
    });
  }

  /**
   * Runs a tool loop: asks the model, runs every tool it calls (at the same time), sends the
   * results back, and repeats until it answers without calling a tool (`"done"`), or a stop
   * condition ends the run with a result: `maxSteps` (default 10), `maxCost` (USD, checked
   * before each step from its worst case and after it from the reported cost, or the worst
   * case when none was reported), or the same call three steps in a row (`"repeated_call"`).
   * Nothing the model sends ends the run: bad or malformed calls (arguments that are not JSON
   * or that the schema rejects, an unknown or missing name, no `function`) and a tool's throw
   * go back to the model as that call's result, and the assistant turn goes back into
   * `messages` as a valid request's.
   *
   * Await the returned object for the result, or iterate it for the events (`step.start`,
   * `chunk` with `stream: true`, `tool_call`, `tool_result`, `step.end`): an iterator gets
   * every other event from the first, whenever it starts, and the chunks from when it starts.
   * It also has openai's runner surface: `on("functionToolCall", …)` and openai's other runner
   * events, `done()`, `abort()`, `finalContent()` and the other final values, `messages`.
   *
   * Tools: `tool()` tools with `run`, or openai's runnable shape (`{ type: "function", function:
   * { function, parse?, parameters } }`, `zodFunction({ ..., function })`), called as openai
   * calls them: `function(args, runner, toolContext)`, `args` being what `parse` returned, else
   * the raw JSON text, `toolContext` the param of that name (never sent); a `tool_choice` that
   * forces such a function ends the run once it has run. `maxChatCompletions` is openai's name
   * for `maxSteps`; `afterCompletion(completion, runner)` is awaited after each step's tool
   * messages (and after the final reply), and what it pushes onto `runner.messages` is sent next.
   * With `parallel_tool_calls: false` a step's calls run one after another, in call order.
   *
   * @throws APIUserAbortError when `signal` aborts (it also reaches every running tool);
   *   an `APIError` of a step, its message naming the step; ModelGateError for bad params.
   */
  runTools<ToolContext = unknown>(params: ToolRunParams<ToolContext>, options?: ToolRunOptions): ToolRun {
    // Called without its object: the run fails as for any mistake in the arguments (with no
    // client, its events log to the console, as a stream read back from a body does).
    if (!isCompletions(this)) return new ChatCompletionRunner(undefined as never, () => Promise.reject(unboundMethodError("client.chat.completions.runTools")));
    // Delegates to code loaded on first use: an app that never runs tools never downloads it.
    return new ChatCompletionRunner(this.#client, (events, runner) =>
      loadToolRunner(this.#bounds(options)).then(({ runnerHelper }) => runnerHelper(events, runner, this.#client, this, params, options)),
    );
  }
}

/** The resources made: a Proxy of one passes `instanceof` but holds none of its private fields. */
const made = /* @__PURE__ */ new WeakSet<object>();

/**
 * Whether a method was called on a `Completions` (not detached from it). Written outside the class on
 * purpose: a class that names itself inside its own body is emitted by esbuild as
 * `var Completions = class _Completions`, and `Completions.name`, which util.inspect and stack traces show, is then `_Completions`.
 */
function isCompletions(self: unknown): self is Completions {
  return made.has(self as object);
}
