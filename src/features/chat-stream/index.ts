// `chat.completions.stream()`'s implementation, loaded on its first call (see src/pipeline/loader.ts):
// openai's `ChatCompletionStream` helper, built on `parse({ stream: true })`. The runner builds
// on its events and conversation too (tools/ imports them).
export { bodyHelper, streamHelper } from "./stream-helper.ts";
