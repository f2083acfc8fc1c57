// `runTools()`'s implementation, loaded on its first call (see src/loader.ts).
export { startRun } from "./run.ts";
