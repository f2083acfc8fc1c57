import { loadToolRunner } from "../../loader.ts";
import type { ToolRun } from "../../types/tool-runner.ts";
import type { RunHandle } from "../../tools/run.ts";

type Runner = Awaited<ReturnType<typeof loadToolRunner>>;

/**
 * What `runTools()` returns: the run's result as a promise, iterable for its events. The run
 * starts at once (as any call does), its code loaded on the first call (see src/loader.ts). An
 * iterator gets every event but the chunks from the first, whenever it is made, and the
 * chunks from when it was made: chunks nobody iterates are not kept (see tools/event-log.ts).
 */
export function toolRun(start: (runner: Runner) => RunHandle): ToolRun {
  let started: RunHandle | undefined;
  const handle = loadToolRunner().then((runner) => (started = start(runner)));
  const result = handle.then((run) => run.result);
  // A caller who only iterates never awaits `result`: its rejection must not go unhandled.
  result.catch(() => {});
  return Object.assign(result, {
    [Symbol.asyncIterator]() {
      // Once the run has started, the iterator reads from the moment it is made, not a tick
      // later (a chunk in between would be missed); before, it reads from the run's start.
      const events = started ? Promise.resolve(started.events()) : handle.then((run) => run.events());
      return {
        next: async () => (await events).next(),
        return: async () => (await events).return?.() ?? { value: undefined, done: true as const },
      };
    },
  }) as ToolRun;
}
