import type { Requester } from "../../resources/requester.ts";
import type { ChatCompletionChunk } from "../../types/index.ts";
import type { ToolRunEvent, ToolRunResult } from "../../types/tool-runner.ts";
import { ChatHelper, type ShellHandle } from "../chat-stream/chat-helper.ts";
import { EventLog } from "./event-log.ts";

/**
 * What the object `runTools()` returns hands its calls to: openai's runner surface (events,
 * the conversation and its final values: `ChatHelper`), the run's own events for iteration
 * (`EventLog`), and its result for `await`.
 */
export class RunnerHelper extends ChatHelper {
  readonly log = new EventLog<ToolRunEvent>();
  #result: Promise<ToolRunResult> | undefined;
  /** Whether the run's params asked for `stream: true` (its steps' chunks are what the bridge writes). */
  streamed = false;

  constructor(shell: ShellHandle, client: Requester) {
    super(shell, [], client);
  }

  /**
   * Starts the run (a promise job later, see `HelperEmitter.run`), then its final events and
   * `end`. The result settles with `done()`: with the run's outcome, or its error.
   */
  start(run: () => Promise<ToolRunResult>): void {
    let outcome: ToolRunResult;
    this.run(
      async () => {
        outcome = await run();
      },
      () => this.conversation.emitFinal(),
    );
    const ended = this.done().then(
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

  catch(onRejected: (reason: unknown) => unknown): Promise<unknown> {
    return this.result().catch(onRejected);
  }

  finally(onFinally: () => void): Promise<ToolRunResult> {
    return this.result().finally(onFinally);
  }

  /**
   * The run's own events (`step.start`, `tool_call`, …), for `for await`; for the bridge
   * (`bridge` set, see `HelperShell.toReadableStream`), the chunks of every streamed step, as
   * openai's streaming runner writes them, and a clear failure for a run without `stream: true`
   * (it has no chunks: its body would be an empty answer).
   */
  iterator(bridge?: unknown): AsyncIterable<ToolRunEvent> | AsyncIterable<ChatCompletionChunk> {
    if (!bridge) return { [Symbol.asyncIterator]: () => this.log.reader() };
    return this.bridged(this.streamed ? undefined : "toReadableStream() on runTools() needs stream: true in its params: without it the run has no chunks to write.");
  }
}
