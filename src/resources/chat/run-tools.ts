import { loadToolRunner } from "../../loader.ts";
import type { ToolRun } from "../../types/tool-runner.ts";
import type { RunHandle } from "../../tools/run.ts";

type Runner = Awaited<ReturnType<typeof loadToolRunner>>;

/**
 * What `runTools()` returns: the run's result as a promise, iterable for its events. The run
 * starts at once (as any call does), its code loaded on the first call (see src/loader.ts); an
 * iterator made at any time gets every event from the first.
 */
export function toolRun(start: (runner: Runner) => RunHandle): ToolRun {
  const handle = loadToolRunner().then(start);
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
