// `runTools()`'s implementation, loaded on its first call (see src/loader.ts).
export { runnerHelper } from "./run.ts";
