import type { loadToolRunner } from "../../loader.ts";
import type { ToolRunEvent, ToolRunResult } from "../../types/tool-runner.ts";
import { HelperShell } from "./helper-shell.ts";

type Runner = Awaited<ReturnType<typeof loadToolRunner>>;

/**
 * What `runTools()` returns (typed as `ToolRun`): the run's result when awaited (a thenable
 * with `then`, `catch` and `finally`), its events when iterated, and openai's runner surface
 * (`on()`, `done()`, `finalContent()`, `messages`, …). The run starts at once, its code
 * loaded on the first call (see src/loader.ts); the methods of the surface are made by
 * `HelperShell`.
 */
export class ToolRunner extends HelperShell<Runner, ToolRunEvent> {
  /** Settles with the run's result. */
  then<Result = ToolRunResult, Failure = never>(
    onFulfilled?: ((result: ToolRunResult) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    return (this as unknown as { result(): Promise<ToolRunResult> }).result().then(onFulfilled, onRejected);
  }
}
