import { loadChatStream } from "../../loader.ts";
import type { GatewayInfo } from "../../gateway/info.ts";
import type { ChatCompletionChunk, ChatCompletionMessageToolCall } from "../../types/chat-completion.ts";
import type { ChatCompletionStreamEvents, HelperEventEmitter, HelperFinalValues } from "../../types/helper-events.ts";
import type { DeepPartial, ParsedChatCompletion, ParsedChatCompletionMessage, ParsedFunctionToolCall } from "../../types/structured.ts";
import { HelperShell } from "./helper-shell.ts";

type Helpers = Awaited<ReturnType<typeof loadChatStream>>;

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
 *
 * Iterating gives the chunks from when the loop starts (each loop is a listener, so several
 * may run); breaking out of one aborts the request, as openai's does. `toReadableStream()`
 * writes them as the bridge's body.
 *
 * The objects themselves are `HelperShell`s (the part every chat app loads: see
 * helper-shell.ts), so that this class, with `fromReadableStream()`, weighs only on the apps
 * that import it; `instanceof ChatCompletionStream` holds for what `stream()` and
 * `fromReadableStream()` return. Not meant to be constructed.
 */
export class ChatCompletionStream<ParsedT = null, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall, PartialT = DeepPartial<ParsedT>>
  extends HelperShell<Helpers, ChatCompletionChunk>
  implements AsyncIterable<ChatCompletionChunk>
{
  /** The HTTP response, from the `connect` event on (`undefined` before it, and when read from a body). */
  declare readonly response: Response | undefined;
  /** The `x-request-id` response header, from `connect` on: quote it when reporting a problem. */
  declare readonly requestID: string | null | undefined;
  /** What the gateway did (as `Stream.gateway`), from `connect` on. */
  declare readonly gateway: GatewayInfo | undefined;

  /**
   * Reads a body made by `toReadableStream()` (of this class or of a `Stream`; e.g. a server
   * route's response, in the browser) with the same events. As `Stream.fromReadableStream()`,
   * a body cut before the bridge's end frame is an `APIConnectionError`.
   */
  static fromReadableStream(readable: ReadableStream<Uint8Array>): ChatCompletionStream {
    // Read from a body: no call, so no signal or timeout bounds the load.
    return new HelperShell(() => loadChatStream({ timeout: Infinity }), (helpers, stream) => helpers.readBody(stream, readable)) as ChatCompletionStream;
  }

  /** Whether `value` is a stream of `stream()` or `fromReadableStream()` (not a `runTools()` run, which extends the shell). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value != null && Object.getPrototypeOf(value) === HelperShell.prototype;
  }
}

// The methods HelperShell makes by name, typed for this class.
export interface ChatCompletionStream<ParsedT = null, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall, PartialT = DeepPartial<ParsedT>>
  extends HelperEventEmitter<ChatCompletionStreamEvents<ParsedT, Call, PartialT>>,
    HelperFinalValues<ParsedChatCompletion<ParsedT, Call>, ParsedChatCompletionMessage<ParsedT, Call>> {}
