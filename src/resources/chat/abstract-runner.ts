import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { bridgeSource } from "../../streaming/bridge.ts";
import type { ChatCompletion, ChatCompletionChunk, CompletionUsage } from "../../types/chat-completion.ts";
import type { ChatCompletionMessageParam } from "../../types/chat-params.ts";
import type { ChatCompletionSnapshot, EmittedValue, EventParameters, FunctionToolCall, HelperEventEmitter, HelperFinalValues } from "../../types/helper-events.ts";
import type { Requester } from "../requester.ts";
import { EventStream } from "./event-stream.ts";

/**
 * What the code loaded on demand behind a helper object does for it (features/chat-stream/
 * chat-helper.ts and the runner's, which extends it): the conversation and its final values,
 * and the items to iterate. The object forwards its methods here once the code has started.
 */
export interface LoadedHelper<Item> extends HelperFinalValues {
  /** Begins the helper's work (its events follow, then `end`). Called once the object holds the helper. */
  start(): void;
  allChatCompletions(): ChatCompletion[];
  /** What `for await` reads from now on: a stream's chunks, a run's events. */
  items(): AsyncIterable<Item>;
  /** The chunks for `toReadableStream()`: every one from the first, or a failure the bridge writes as its error frame. */
  bridged(): AsyncIterable<ChatCompletionChunk>;
  /** The completion being streamed, as its chunks have built it so far; `undefined` between streamed completions. */
  readonly currentChatCompletionSnapshot: ChatCompletionSnapshot | undefined;
}

/**
 * How a helper object gets its code: it requests the code loaded on demand (bounded by the
 * call that made the object) and makes the helper from it, unstarted, given the object's
 * events to emit into and the object itself (whose `controller` and `messages` the helper
 * uses, and which a run hands its tools). A throw or a rejection is the object's `error`.
 */
export type StartHelper<Self, Helper> = (events: EventStream, self: Self) => Promise<Helper>;

/** What events are: a listener for each name. */
type EventMap<Events> = { [Event in keyof Events]: (...args: never[]) => unknown };

/**
 * The part openai's stream helper and its runners share (openai's
 * `AbstractChatCompletionRunner`), as an ordinary class whose methods are written here and
 * forward to the code loaded on demand: the events and their outcome (`on()`, `done()`,
 * `ended`, …), the conversation and its final values, iteration and the bridge.
 *
 * The events live in the object from the start (an `EventStream`), so a listener added before
 * the code has loaded hears every event, and a load that fails is the `error` event (a call
 * whose signal or timeout ends the wait for the code: `abort` or `error`, with the loader's
 * error). The methods that return a promise wait for the code; the others answer at once
 * (`allChatCompletions()` is empty before it).
 */
export abstract class AbstractChatCompletionRunner<Events extends EventMap<Events>, Completion, Message, Item, Helper extends LoadedHelper<Item>>
  implements AsyncIterable<Item>, HelperEventEmitter<Events>, HelperFinalValues<Completion, Message>
{
  /** Aborting it stops the helper, as `abort()` does. */
  readonly controller: AbortController = new AbortController();
  /**
   * The conversation so far, as openai's runners keep it: the request's messages once the
   * helper has started, then each reply (and each tool result of a run). The helper's own
   * list, live.
   */
  messages: ChatCompletionMessageParam[] = [];
  readonly #events: EventStream;
  /** The code loaded on demand, once it has started. */
  #helper: Helper | undefined;
  readonly #started: Promise<Helper>;

  /**
   * `client`: whose logger and redaction the events use (none for a body read back, which logs
   * to the console); `startHelper`: how the object gets its code (see `StartHelper`; its
   * `self` is typed by each subclass, which is what it is given).
   */
  constructor(client: Pick<Requester, "log" | "redact"> | undefined, startHelper: StartHelper<never, Helper>) {
    // Plain JavaScript may call `new ChatCompletionStream()` as it would a stream class: said
    // here, not as an `error` event holding a TypeError.
    if (typeof startHelper !== "function") {
      throw invalidArgument("startHelper", "a function that starts the helper (most code gets one from chat.completions.stream(), runTools() or ChatCompletionStream.fromReadableStream())", startHelper);
    }
    this.#events = new EventStream(this.controller, client);
    // A throw of `startHelper` itself (a getter of plain JavaScript's options, say) rejects too: nothing throws from the call that made the object.
    // The object's own `abort()` (its `controller`) ends the wait for the code as the call's
    // signal and timeout do: the load may never end, and the helper that would hear the abort
    // does not exist before it has.
    const loading = new Promise<Helper>((resolve) => resolve(startHelper(this.#events, this as never)));
    this.#started = unlessAborted(loading, this.controller.signal).then((helper) => {
      // A `startHelper` of plain JavaScript that resolves to nothing: named, as the one above.
      if (typeof helper?.start !== "function") throw invalidArgument("startHelper", "a function whose promise resolves to the helper", helper);
      // Held before the helper starts, so that its first event finds every method forwarding to it.
      this.#helper = helper;
      helper.start();
      return helper;
    });
    this.#started.catch((error: unknown) => this.#events.fail(error));
  }

  /** The code loaded on demand, once it has started (`undefined` before). */
  protected get helper(): Helper | undefined {
    return this.#helper;
  }

  /** The code loaded on demand, once it has started; rejects when it could not load. */
  protected startedHelper(): Promise<Helper> {
    return this.#started;
  }

  // The members below are documented once, in types/helper-events.ts (`HelperEventEmitter`,
  // `HelperFinalValues`): an editor shows those comments for them.

  get ended(): boolean {
    return this.#events.ended;
  }

  get errored(): boolean {
    return this.#events.errored;
  }

  get aborted(): boolean {
    return this.#events.aborted;
  }

  on<Event extends keyof Events>(event: Event, listener: Events[Event]): this {
    this.#events.on(event as string, listener);
    return this;
  }

  off<Event extends keyof Events>(event: Event, listener: Events[Event]): this {
    this.#events.off(event as string, listener);
    return this;
  }

  once<Event extends keyof Events>(event: Event, listener: Events[Event]): this {
    this.#events.once(event as string, listener);
    return this;
  }

  emitted<Event extends keyof Events>(event: Event): Promise<EmittedValue<Events, Event>> {
    return this.#events.emitted(event as string) as Promise<EmittedValue<Events, Event>>;
  }

  events<Event extends keyof Events>(event: Event): AsyncIterableIterator<EventParameters<Events, Event>> {
    return this.#events.events(event as string) as AsyncIterableIterator<EventParameters<Events, Event>>;
  }

  done(): Promise<void> {
    return this.#events.done();
  }

  abort(): void {
    this.controller.abort();
  }

  /**
   * The completion being streamed, as its chunks have built it so far (openai's getter of the
   * same name): `undefined` before the first chunk, once a completion is finished (already in
   * the `chatCompletion` listeners) and when nothing is streamed.
   */
  get currentChatCompletionSnapshot(): ChatCompletionSnapshot | undefined {
    return this.#helper?.currentChatCompletionSnapshot;
  }

  /** Every completion so far (empty before the code has loaded). */
  allChatCompletions(): Completion[] {
    return (this.#helper?.allChatCompletions() ?? []) as Completion[];
  }

  finalChatCompletion(): Promise<Completion> {
    return this.#started.then((helper) => helper.finalChatCompletion() as Promise<Completion>);
  }

  finalContent(): Promise<string | null> {
    return this.#started.then((helper) => helper.finalContent());
  }

  finalMessage(): Promise<Message> {
    return this.#started.then((helper) => helper.finalMessage() as Promise<Message>);
  }

  finalFunctionToolCall(): Promise<FunctionToolCall | undefined> {
    return this.#started.then((helper) => helper.finalFunctionToolCall());
  }

  finalFunctionToolCallResult(): Promise<string | undefined> {
    return this.#started.then((helper) => helper.finalFunctionToolCallResult());
  }

  totalUsage(): Promise<CompletionUsage> {
    return this.#started.then((helper) => helper.totalUsage());
  }

  /** The items (a stream's chunks, a run's events) from when the loop starts; breaking out of it stops reading. */
  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    yield* (this.#helper ?? (await this.#started)).items();
  }

  /**
   * The chunks (of a run: of its streamed steps) as the bridge's body (newline-delimited JSON,
   * as `Stream.toReadableStream()` writes it), for `ChatCompletionStream.fromReadableStream()`
   * or `Stream.fromReadableStream()` (and openai's readers) to read on the far side. Made after
   * chunks have gone by, or for a run without `stream: true`, the body is the bridge's error
   * frame: a shortened answer never ends normally.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    return new ReadableStream(bridgeSource(this.#bridged()));
  }

  async *#bridged(): AsyncGenerator<ChatCompletionChunk> {
    yield* (this.#helper ?? (await this.#started)).bridged();
  }
}
