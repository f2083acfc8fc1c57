import { ModelGateError } from "../errors/index.ts";
import { invalidArgument } from "../errors/invalid-argument.ts";
import type { ChatCompletion, ChatCompletionChunk } from "../types/chat-completion.ts";
import type { GatewayInfo } from "../gateway/info.ts";
import { BodyReader } from "./body-reader.ts";
import { ChatCompletionAccumulator } from "./accumulate.ts";
import { bridgeSource, decodeBridge } from "./bridge.ts";
import { deltaTexts } from "./delta-texts.ts";
import { teeIterator } from "./tee.ts";

/**
 * `Value` on a stream of chat completion chunks; on any other stream, a message that shows up
 * in the compile error of code that uses a chat-only helper there.
 */
type ChatChunksOnly<T, Value> = [T] extends [ChatCompletionChunk]
  ? Value
  : { "textStream and reasoningStream are only available on streams of ChatCompletionChunk": never };

/** Where a `Stream` usually comes from, for the constructor's errors. */
const LOW_LEVEL = "most code gets a Stream from create({ stream: true }) or Stream.fromReadableStream()";

/**
 * A streamed reply: iterate it with `for await (const chunk of stream)`.
 *
 * A stream can be consumed once (by iterating it or by one of its helpers); use `tee()` for
 * two consumers. Breaking out of the loop, or `stream.controller.abort()`, cancels the HTTP
 * body. A stream that breaks off before its end throws `APIConnectionError` instead of ending
 * quietly, so a shortened answer never passes for a whole one.
 */
export class Stream<T, R extends Response | undefined = Response> implements AsyncIterable<T> {
  /** Aborting it cancels the request; the iterator then throws `APIUserAbortError`. */
  declare readonly controller: AbortController;
  /**
   * The HTTP response (headers, status), available before the first chunk. A stream rebuilt by
   * `Stream.fromReadableStream()` has none (its type is `Stream<T, undefined>`).
   */
  declare readonly response: R;
  /** The `x-request-id` response header (the API key cut out): quote it when reporting a problem. */
  declare readonly requestID: string | null;
  /**
   * What the gateway did: filled from the response headers when the stream is returned, then
   * from the chunks as they arrive (the served model and generation id from the first chunk,
   * `usage` and `cost` from the usage chunk). A stream rebuilt by `fromReadableStream()` has none.
   */
  declare readonly gateway: R extends Response ? GatewayInfo : undefined;
  readonly #makeIterator: () => AsyncIterator<T>;
  #consumed = false;

  /**
   * Low-level: most code gets a `Stream` from `create({ stream: true })` or
   * `Stream.fromReadableStream()`.
   */
  constructor(makeIterator: () => AsyncIterator<T>, controller: AbortController, response: R, gateway?: GatewayInfo) {
    // Plain JavaScript may call it with nothing, or as openai's `new Stream(iterator, controller)`:
    // said here, not by a TypeError at the first read.
    if (typeof makeIterator !== "function") throw invalidArgument("makeIterator", `a function that returns the chunks' AsyncIterator (${LOW_LEVEL})`, makeIterator);
    if (typeof controller?.signal?.addEventListener !== "function") throw invalidArgument("controller", `an AbortController (${LOW_LEVEL})`, controller);
    this.#makeIterator = makeIterator;
    this.controller = controller;
    this.response = response;
    // The gateway's copy has the key cut out: a proxy may echo it in the header.
    this.requestID = gateway?.requestID ?? null;
    this.gateway = gateway as R extends Response ? GatewayInfo : undefined;
  }

  /**
   * Rebuilds a stream from the body `toReadableStream()` made, e.g. in a browser reading a
   * server route's response. It ends normally only after the bridge's end frame: a body cut
   * anywhere before it (or one written by openai's `toReadableStream()`, which has none) throws
   * `APIConnectionError` after the chunks that arrived, and an error the source stream threw is
   * thrown here with the same class, as is a chunk that carries `error`. A line longer than the
   * SSE decoder's limit (16 Mi characters), or one that is neither a chunk object nor a frame,
   * throws a `ModelGateError`. Aborting `controller` ends a pending read at once with
   * `APIUserAbortError` and cancels the body.
   */
  static fromReadableStream<T>(readable: ReadableStream<Uint8Array>, controller: AbortController = new AbortController()): Stream<T, undefined> {
    // Plain JavaScript may pass a `Response`, a string or a signal: said here, not by a TypeError from a read.
    if (typeof readable?.getReader !== "function") throw invalidArgument("readable", "a ReadableStream (a Response's body)", readable);
    if (typeof controller?.signal?.addEventListener !== "function") throw invalidArgument("controller", "an AbortController", controller);
    // Created now, so that aborting `controller` cancels the body even before anyone iterates.
    const reader = new BodyReader(readable, { controller });
    return newStream(() => decodeBridge<T>(reader), controller, undefined);
  }

  /** The chunks, one by one; used by `for await`. @throws ModelGateError on a second call. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#consumed) {
      throw new ModelGateError("This stream has already been consumed; a stream can be read once (use stream.tee() for two readers).");
    }
    this.#consumed = true;
    const iterator = this.#makeIterator();
    // What a hand-made `makeIterator` returns is checked once here, not met as a TypeError of `for await`.
    if (typeof iterator?.next !== "function") throw invalidArgument("makeIterator", "a function that returns the chunks' AsyncIterator (an object with next())", iterator);
    return iterator;
  }

  /** Two independent streams that each yield every chunk; the body is read once. */
  tee(): [Stream<T, R>, Stream<T, R>] {
    return teeIterator(this[Symbol.asyncIterator](), this.controller.signal).map((side) => newStream(() => side, this.controller, this.response, this.gateway)) as [Stream<T, R>, Stream<T, R>];
  }

  /**
   * The chunks as newline-delimited JSON, e.g. to return from a server route for
   * `Stream.fromReadableStream()` to read: each chunk on its own line, exactly as openai's
   * `toReadableStream()` writes it, then an end frame `{"id":…,"choices":[],"modelgate_bridge":"end"}`,
   * or, if this stream failed, an error frame (`"modelgate_bridge":"error"` with an `error`
   * object) after which the body itself errors. openai's readers take the frames for chunks
   * without choices. Read at the consumer's pace; cancelling the body cancels this stream.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(bridgeSource(this[Symbol.asyncIterator]()));
  }

  /** Resolves to the reply's text: every `delta.content` of the first choice, joined. */
  async text(this: Stream<ChatCompletionChunk, Response | undefined>): Promise<string> {
    let text = "";
    for await (const piece of this.textStream) text += piece;
    return text;
  }

  /**
   * The text deltas of the first choice, skipping chunks without content:
   * `for await (const text of stream.textStream) process.stdout.write(text)`.
   * For streams of chat completion chunks only: on any other stream its type is an error
   * message, so using it does not compile.
   */
  get textStream(): ChatChunksOnly<T, AsyncIterable<string>> {
    return deltaTexts(this as never, "content") as never;
  }

  /**
   * The reasoning deltas of the first choice (what a reasoning model thinks before it answers,
   * when the provider shows it; `reasoning_content` is read as the same), like `textStream`.
   */
  get reasoningStream(): ChatChunksOnly<T, AsyncIterable<string>> {
    return deltaTexts(this as never, "reasoning") as never;
  }

  /**
   * Resolves to the `ChatCompletion` assembled from all chunks: content, tool calls joined by
   * index, finish reasons and usage, as a non-streamed call would have returned it.
   */
  async finalChatCompletion(this: Stream<ChatCompletionChunk, Response | undefined>): Promise<ChatCompletion> {
    const accumulator = new ChatCompletionAccumulator();
    for await (const chunk of this) accumulator.add(chunk);
    return accumulator.result(this.gateway);
  }
}

/**
 * `new Stream(…)`, for the class's own methods. Written outside the class on purpose: a class
 * that names itself inside its own body is emitted by esbuild as `var Stream = class _Stream`,
 * and `Stream.name`, which util.inspect and stack traces show, is then `_Stream`.
 */
function newStream<T, R extends Response | undefined>(makeIterator: () => AsyncIterator<T>, controller: AbortController, response: R, gateway?: GatewayInfo): Stream<T, R> {
  return new Stream(makeIterator, controller, response, gateway);
}
