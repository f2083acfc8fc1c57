// `runTools()`'s implementation, loaded on its first call (see src/pipeline/loader.ts).
export { runnerHelper } from "./run.ts";
