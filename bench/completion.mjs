// The non-streamed completion the benchmark's gateway answers, and the one request-js.mjs's
// in-process fetch answers with: the same bytes, so the two measure the same decoding.
export const COMPLETION_JSON = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1,
  model: "bench/model",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the benchmark." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
});
