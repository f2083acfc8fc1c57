import { loadChatStream } from "../../pipeline/loader.ts";
import type { GatewayInfo } from "../../gateway/info.ts";
import type { ChatCompletionChunk, ChatCompletionMessageToolCall } from "../../types/chat-completion.ts";
import type { ChatCompletionStreamEvents } from "../../types/helper-events.ts";
import type { DeepPartial, ParsedChatCompletion, ParsedChatCompletionMessage, ParsedFunctionToolCall } from "../../types/structured.ts";
import type { Requester } from "../requester.ts";
import { AbstractChatCompletionRunner, type LoadedHelper, type StartHelper } from "./abstract-runner.ts";

/** What the stream helper's code (features/chat-stream/stream-helper.ts) does for a `ChatCompletionStream`. */
export interface LoadedStream extends LoadedHelper<ChatCompletionChunk> {
  /** From `connect` on (see `ChatCompletionStream`). */
  readonly response: Response | undefined;
  readonly requestID: string | null | undefined;
  readonly gateway: GatewayInfo | undefined;
}

/**
 * What `client.chat.completions.stream()` returns, as openai's helper of the same name: an
 * `AsyncIterable` of the chunks, and an event emitter (`on("content.delta", …)`,
 * `on("chunk", …)`, `emitted("message")`) with the final values (`finalChatCompletion()`,
 * `finalContent()`, …). Given a schema `response_format` or `tool()` tools it parses as
 * `parse()` does: `content.delta` carries the answer parsed so far, `content.done` and
 * `finalChatCompletion()` the checked one, and a reply the token limit cut emits `error` with
 * a `StructuredOutputError` (`content.done` does not fire).
 *
 * It is built on `create({ stream: true })` (through `parse()`), so everything a `Stream`
 * promises holds from `connect` on: a cut body is an `APIConnectionError`, the timeouts apply,
 * `gateway` fills in. Mistakes in the arguments become the `error` event (and reject `done()`
 * and the final values); nothing is thrown by `stream()` itself, and an `error` nobody listens
 * to is not an unhandled rejection (unlike openai's, which crashes Node): it waits in `done()`.
 * `ended`, `errored` and `aborted` say how it went, as openai's do (an abort sets `errored` too).
 *
 * Iterating gives the chunks from when the loop starts (each loop is a listener, so several
 * may run); breaking out of one aborts the request, as openai's does. `toReadableStream()`
 * writes them as the bridge's body.
 *
 * The object is returned at once; the events, the accumulated reply and the parsing are code
 * loaded on first use (see src/pipeline/loader.ts), to which its methods forward. Listeners added
 * before it has loaded hear every event.
 */
export class ChatCompletionStream<ParsedT = null, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall, PartialT = DeepPartial<ParsedT>>
  extends AbstractChatCompletionRunner<ChatCompletionStreamEvents<ParsedT, Call, PartialT>, ParsedChatCompletion<ParsedT, Call>, ParsedChatCompletionMessage<ParsedT, Call>, ChatCompletionChunk, LoadedStream>
  implements AsyncIterable<ChatCompletionChunk>
{
  /**
   * Low-level: `chat.completions.stream()` and `ChatCompletionStream.fromReadableStream()` make
   * these. `client`: whose logger and redaction to use; `startHelper`: loads the stream
   * helper's code and makes the helper for this stream.
   */
  constructor(client: Pick<Requester, "log" | "redact"> | undefined, startHelper: StartHelper<ChatCompletionStream<ParsedT, Call, PartialT>, LoadedStream>) {
    super(client, startHelper);
  }

  /**
   * Reads a body made by `toReadableStream()` (of this class or of a `Stream`; e.g. a server
   * route's response, in the browser) with the same events. As `Stream.fromReadableStream()`,
   * a body cut before the bridge's end frame is an `APIConnectionError`.
   */
  static fromReadableStream(readable: ReadableStream<Uint8Array>): ChatCompletionStream {
    // Read from a body: no call, so no signal or timeout bounds the load, only the object's own
    // abort() (see AbstractChatCompletionRunner); nothing is parsed, so parse()'s code is not loaded.
    return bodyStream((events, stream) => loadChatStream({ timeout: Infinity }).then((chatStream) => chatStream.bodyHelper(events, stream, readable)));
  }

  /** The HTTP response, from the `connect` event on (`undefined` before it, and when read from a body). */
  get response(): Response | undefined {
    return this.helper?.response;
  }

  /** The `x-request-id` response header, from `connect` on: quote it when reporting a problem. */
  get requestID(): string | null | undefined {
    return this.helper?.requestID;
  }

  /** What the gateway did (as `Stream.gateway`), from `connect` on. */
  get gateway(): GatewayInfo | undefined {
    return this.helper?.gateway;
  }
}

/**
 * A `ChatCompletionStream` fed from a body, for `fromReadableStream()`. Written outside the class
 * on purpose: a class that names itself inside its own body is emitted by esbuild as
 * `var ChatCompletionStream = class _ChatCompletionStream`, and its `name`, which util.inspect
 * and stack traces show, is then `_ChatCompletionStream`.
 */
function bodyStream(startHelper: StartHelper<ChatCompletionStream, LoadedStream>): ChatCompletionStream {
  return new ChatCompletionStream(undefined, startHelper);
}
