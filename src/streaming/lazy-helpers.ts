// The Stream helpers that a chat app may never call, loaded together on first use through one
// dynamic import() (one lazy file, and one chunk of code shared with the rest, in a split build).
export { ChatCompletionAccumulator } from "./accumulate.ts";
export { bridgeSource, decodeBridge } from "./bridge.ts";
export { teeIterator } from "./tee.ts";
