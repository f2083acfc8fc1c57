import type { ChatCompletionRunner, LoadedRun } from "../../resources/chat/chat-completion-runner.ts";
import { LEFT_THE_LOOP, type EventStream } from "../../resources/chat/event-stream.ts";
import type { ChatCompletionChunk, ChatCompletionMessageParam } from "../../types/index.ts";
import type { ToolRunEvent, ToolRunResult } from "../../types/tool-runner.ts";
import { ChatHelper } from "../chat-stream/chat-helper.ts";
import { messageFrame } from "../chat-stream/message-frame.ts";
import { EventLog } from "./event-log.ts";

/**
 * What the object `runTools()` returns (resources/chat/chat-completion-runner.ts) forwards its
 * calls to: openai's runner surface (the conversation and its final values: `ChatHelper`), the
 * run's own events for iteration (`EventLog`), and its result for `await`.
 */
export class RunnerHelper extends ChatHelper implements LoadedRun {
  readonly log = new EventLog<ToolRunEvent>();
  /** The object `runTools()` returned: openai-shaped tools get it as their second argument. */
  readonly runner: ChatCompletionRunner;
  /** Whether the run's params asked for `stream: true` (its steps' chunks are what the bridge writes). */
  readonly streamed: boolean;
  readonly #run: () => Promise<ToolRunResult>;
  #result: Promise<ToolRunResult> | undefined;

  /** `run`: the steps, given this helper (see run.ts). */
  constructor(events: EventStream, runner: ChatCompletionRunner, streamed: boolean, run: (helper: RunnerHelper) => Promise<ToolRunResult>) {
    super(events, runner.messages);
    this.runner = runner;
    this.streamed = streamed;
    this.#run = () => run(this);
  }

  /**
   * Starts the run (a promise job later, see `EventStream.run`), then its final events and
   * `end`. The result settles with `done()`: with the run's outcome, or its error.
   */
  start(): void {
    let outcome: ToolRunResult;
    const { events } = this;
    events.run(
      async () => {
        outcome = await this.#run();
      },
      () => this.conversation.emitFinal(),
    );
    const ended = events.done().then(
      () => this.log.end(),
      (error: unknown) => {
        this.log.fail(error);
        throw error;
      },
    );
    this.#result = ended.then(() => outcome);
    // A caller who only iterates or listens never awaits it.
    this.#result.catch(() => {});
  }

  result(): Promise<ToolRunResult> {
    return this.#result!;
  }

  /** The run's own events (`step.start`, `tool_call`, …), for `for await`: every one from the first, and the chunks from now on. */
  items(): AsyncIterable<ToolRunEvent> {
    // An abort is final for the loop too; leaving it early (`break`) stops the run, as openai's
    // runner does, with the reason tracing reads as no failure (see chat-stream's `items()`).
    const { controller } = this.events;
    return { [Symbol.asyncIterator]: () => this.log.reader(controller.signal, () => controller.abort(LEFT_THE_LOOP)) };
  }

  /**
   * The chunks of every streamed step, as openai's streaming runner writes them, and a clear
   * failure for a run without `stream: true` (it has no chunks: its body would be an empty answer).
   */
  override bridged(): AsyncIterable<ChatCompletionChunk> {
    // What openai's streaming runner writes: the chunks, and after a step's chunks a frame for
    // each of its tool messages (see message-frame.ts), so the far side rebuilds `messages`.
    let last: ChatCompletionChunk | undefined;
    let callIDs: string[] | undefined;
    const taps = {
      chunk: (chunk: ChatCompletionChunk) => (last = chunk),
      message: (message: ChatCompletionMessageParam) => {
        if (message.role === "assistant") callIDs = message.tool_calls?.map((call) => call.id);
        // A tool message always follows its step's chunks in a streamed run.
        else if (message.role === "tool" && last) return messageFrame(last, message, callIDs);
        return undefined;
      },
    };
    return super.bridged(this.streamed ? undefined : "toReadableStream() on runTools() needs stream: true in its params: without it the run has no chunks to write.", taps);
  }
}
