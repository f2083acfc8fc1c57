import type { ChatCompletion, ChatCompletionMessage } from "../../types/chat-completion.ts";
import type { ToolRunnerEvents } from "../../types/helper-events.ts";
import type { ToolRun, ToolRunEvent, ToolRunResult } from "../../types/tool-runner.ts";
import type { Requester } from "../requester.ts";
import { AbstractChatCompletionRunner, type LoadedHelper, type StartHelper } from "./abstract-runner.ts";

/** What the tool runner's code (features/tools/runner-helper.ts) does for a `ChatCompletionRunner`. */
export interface LoadedRun extends LoadedHelper<ToolRunEvent> {
  /** Settles with the run's result, or its error. */
  result(): Promise<ToolRunResult>;
}

/**
 * What `runTools()` returns (typed as `ToolRun`; openai's name for its class is kept, so a
 * debugger shows what openai users know): the run's result when awaited (a thenable with
 * `then`, `catch` and `finally`), its events when iterated, and openai's runner surface
 * (`on()`, `done()`, `finalContent()`, `messages`, `ended`, …). The run starts at once, its
 * code loaded on the first call (see src/pipeline/loader.ts); the methods forward to it.
 */
export class ChatCompletionRunner
  extends AbstractChatCompletionRunner<ToolRunnerEvents, ChatCompletion, ChatCompletionMessage, ToolRunEvent, LoadedRun>
  implements ToolRun
{
  /**
   * Low-level: `runTools()` makes these. `client`: whose logger and redaction to use;
   * `startHelper`: loads the runner's code and makes the run for this object.
   */
  constructor(client: Pick<Requester, "log" | "redact">, startHelper: StartHelper<ChatCompletionRunner, LoadedRun>) {
    super(client, startHelper);
  }

  /** Settles with the run's result. */
  then<Result = ToolRunResult, Failure = never>(
    onFulfilled?: ((result: ToolRunResult) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    return this.#result().then(onFulfilled, onRejected);
  }

  /** As a promise's `catch`: the run's result, or what `onRejected` makes of its error. */
  catch<Failure = never>(onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null): Promise<ToolRunResult | Failure> {
    return this.#result().catch(onRejected);
  }

  /** As a promise's `finally`: `onFinally` runs once the run has settled, which settles as the run did. */
  finally(onFinally?: (() => void) | null): Promise<ToolRunResult> {
    return this.#result().finally(onFinally);
  }

  /** `ToolRun` is typed as a `Promise` (for `await` and `Promise.all`); the object is a thenable of its own class. */
  get [Symbol.toStringTag](): string {
    return "ChatCompletionRunner";
  }

  #result(): Promise<ToolRunResult> {
    return this.startedHelper().then((helper) => helper.result());
  }
}
