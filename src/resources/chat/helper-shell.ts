import { bridgeSource } from "../../streaming/bridge.ts";
import type { ChatCompletion } from "../../types/chat-completion.ts";
import type { ChatCompletionMessageParam } from "../../types/chat-params.ts";

/** The code a shell hands its calls to once it has loaded: its methods, by name. */
type Helper = Record<string, (...args: never[]) => unknown>;
/** A call made before the helper loaded: its method's name and arguments. */
export type ShellCall = [method: string, args: unknown[]];

/** The calls that add or remove a listener, or abort: they return the shell itself, so calls chain. */
export const CHAINED_CALLS = "on once off abort";
/** The calls whose answer comes later anyway: before the code has loaded, they wait for it. */
export const LATER_CALLS = "emitted done finalChatCompletion finalContent finalMessage finalFunctionToolCall finalFunctionToolCallResult totalUsage iterator result catch finally";

/**
 * What `chat.completions.stream()` returns (typed as `ChatCompletionStream`) and the base of
 * what `runTools()` returns: the part of openai's helper objects that must exist the moment
 * the object is returned. Everything else (the events, the conversation, the final values)
 * is the helper loaded on first use (src/chat-stream/, tools/runner-helper.ts), so a chat app
 * that never calls one carries only this.
 *
 * Every call goes to the helper: once loaded, at once (the helper puts its methods on the
 * shell, so a listener added in a listener hears the very next event); before, `on()`,
 * `once()`, `off()` and `abort()` are queued and replayed in order before the helper starts
 * (so no listener misses an event), and the calls that return a promise wait for the load.
 * A failed load rejects those promises.
 *
 * The methods are made from the two lists above rather than written out, the forwarding is
 * the helper's, and this one class serves both helpers: it is in every chat app's first
 * load, under the 16,000 B ceiling (bench/size-budget.json). Their types are declared on
 * `ChatCompletionStream` and `ToolRun`.
 */
export class HelperShell<Module, Item> implements AsyncIterable<Item> {
  /** Aborting it stops the helper: `abort()` does it. */
  readonly controller = new AbortController();
  /** The conversation so far: the helper puts its own (live) list here when it starts. */
  messages: ChatCompletionMessageParam[] = [];
  readonly #queued: ShellCall[] = [];
  readonly #helper: Promise<Helper>;

  /**
   * Low-level: `chat.completions.stream()`, `ChatCompletionStream.fromReadableStream()` and
   * `runTools()` make these. `start` makes the helper from the loaded module, given the
   * shell and the calls queued so far: the helper replays them and puts its own methods on the shell (see
   * chat-stream/chat-helper.ts), so that from then on every call goes straight to it.
   */
  constructor(load: () => Promise<Module>, start: (module: Module, shell: [shell: never, queued: ShellCall[]]) => object) {
    this.#helper = load().then((module) => start(module, [this as never, this.#queued]) as Helper);
    // A caller who only listens never awaits it: a failed load must not be an unhandled rejection.
    this.#helper.catch(() => {});
  }

  // What a call does before the helper has loaded (the helper's own methods shadow these after).
  static {
    const methods = this.prototype as unknown as Record<string, (this: HelperShell<unknown, unknown>, ...args: never[]) => unknown>;
    for (const name of CHAINED_CALLS.split(" ")) {
      methods[name] = function (...args) {
        this.#queued.push([name, args]);
        return this;
      };
    }
    for (const name of LATER_CALLS.split(" ")) {
      methods[name] = function (...args) {
        return this.#helper.then((helper) => helper[name]!(...args));
      };
    }
  }

  /** Every completion so far; the helper answers this itself once it has started. */
  allChatCompletions(): ChatCompletion[] {
    return [];
  }

  /**
   * The items (a stream's chunks, a run's events) from now on; breaking out of the loop stops
   * reading. `bridge` (for `toReadableStream()`) asks the helper for the chunks from the start.
   */
  async *[Symbol.asyncIterator](bridge?: 1): AsyncIterator<Item> {
    yield* await (this as unknown as { iterator(bridge?: 1): Promise<AsyncIterable<Item>> }).iterator(bridge);
  }

  /**
   * The chunks (of a run: of its streamed steps) as the bridge's body (newline-delimited JSON,
   * as `Stream.toReadableStream()` writes it), for `ChatCompletionStream.fromReadableStream()`
   * or `Stream.fromReadableStream()` (and openai's readers) to read on the far side. Made after
   * chunks have gone by, or for a run without `stream: true`, the body is the bridge's error
   * frame: a shortened answer never ends normally.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    return new ReadableStream(bridgeSource(this[Symbol.asyncIterator](1)));
  }
}
