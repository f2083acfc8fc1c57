// `runTools()`'s implementation, loaded on its first call through `loadRunner()`.
export { install } from "./pieces.ts";
export { startRun, type RunHandle } from "./run.ts";
