import { invalidArgument } from "../internal/checks.ts";
import { assertChatParams } from "../resources/chat/validate.ts";
import { loaderOf } from "../streaming/helpers.ts";
import type { ToolRun } from "../types/tool-runner.ts";
import type { RunHandle } from "./lazy/index.ts";

/** What the lazily loaded runner (`./lazy/`) uses from the rest of the SDK, handed over when it loads. */
const pieces = { invalidArgument, assertChatParams };

/** The pieces `./lazy/` is given when it loads. */
export type RunnerPieces = typeof pieces;

type Runner = typeof import("./lazy/index.ts");

/** The tool runner, loaded on the first `runTools()` call, after the helpers it builds on. */
const loadRunner = loaderOf(() => import("./lazy/index.ts"), pieces);

/**
 * What `runTools()` returns: the run's result as a promise, iterable for its events. The run
 * starts at once (as any call does); an iterator made at any time gets every event from the
 * first.
 */
export function toolRun(start: (runner: Runner) => RunHandle): ToolRun {
  const handle = loadRunner().then(start);
  const result = handle.then((run) => run.result);
  // A caller who only iterates never awaits `result`: its rejection must not go unhandled.
  result.catch(() => {});
  return Object.assign(result, {
    [Symbol.asyncIterator]() {
      const events = handle.then((run) => run.events());
      return {
        next: async () => (await events).next(),
        return: async () => (await events).return?.() ?? { value: undefined, done: true as const },
      };
    },
  }) as ToolRun;
}
