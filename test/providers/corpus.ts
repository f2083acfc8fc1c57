import { readFileSync } from "node:fs";
import type { ReplayedAnswer } from "../fixtures/replay-server.ts";

// The corpus: what real providers and the servers in front of them send, one entry per
// recorded answer. Every body is in fixtures/ byte for byte as its source has it; the comment
// on each entry names the source (a project's fixture file at a commit, a provider's
// documentation, or an issue thread) and says what the answer shows. Where a source gives only
// part of an answer, or describes one without quoting it whole, the entry says "rebuilt" and
// what it was rebuilt from.
//
// vercel/ai keeps streams as one chunk per line (`*.chunks.txt`); its tests serve each line as
// `data: <line>\n\n` and then `data: [DONE]\n\n` (prepareChunksFixtureResponse in every
// provider's test), and so does `chunkLines()` here.
//
// Read by the tests in this folder (one file per provider) and by bench/providers-vs-openai.mjs.

/** One recorded answer and what the request that got it looked like. */
export interface ProviderCase {
  /** `<provider folder>/<what it shows>`. */
  id: string;
  /** Who sends it. */
  provider: string;
  /** Where the bytes come from, short (the comment above the entry has the details). */
  source: string;
  /** Whether the request asked for a stream. */
  stream: boolean;
  answer: ReplayedAnswer;
  /** For runTools(): the functions the recorded calls name, each with a JSON Schema of its arguments. */
  tools?: Record<string, Record<string, unknown>>;
  /** For parse(): the JSON Schema the answer was written to. */
  schema?: Record<string, unknown>;
}

const FIXTURES = new URL("./fixtures/", import.meta.url);

/** The bytes of a fixture file, as text. */
export function fixture(path: string): string {
  return readFileSync(new URL(path, FIXTURES), "utf8");
}

const EVENT_STREAM = "text/event-stream";

/** A fixture that is an event stream already. */
function sse(path: string): ReplayedAnswer {
  return { status: 200, contentType: EVENT_STREAM, body: fixture(path) };
}

/** A vercel/ai `*.chunks.txt` fixture, served as its tests serve it. */
function chunkLines(path: string): ReplayedAnswer {
  const events = fixture(path)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `data: ${line}\n\n`);
  return { status: 200, contentType: EVENT_STREAM, body: `${events.join("")}data: [DONE]\n\n` };
}

function json(path: string, status = 200): ReplayedAnswer {
  return { status, contentType: "application/json", body: fixture(path) };
}

function page(path: string, status: number, contentType: string): ReplayedAnswer {
  return { status, contentType, body: fixture(path) };
}

const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: "object", properties, required });
const string = { type: "string" };
const LOCATION = object({ location: string });

/**
 * The answers a tool run's second step gets, which no case is about: the examples of OpenAI's
 * own API reference (openai/openai-openapi, openapi.yaml, createChatCompletion, the "Default"
 * and "Streaming" examples; the streamed one without its "...." line). A copy is kept in
 * /work/shared/reference/openai-openapi.yaml.
 */
export const FOLLOW_UP = {
  stream: chunkLines("openai/spec-example.chunks.txt"),
  json: json("openai/spec-example.json"),
  /** The text each of them carries. */
  streamText: "Hello",
  jsonText: "Hello! How can I assist you today?",
} as const;

export const CASES: ProviderCase[] = [
  // vercel/ai, packages/openai-compatible/src/chat/__fixtures__/azure-text.chunks.txt at
  // e6a10d3. Azure's first chunk has no id or model and only `prompt_filter_results`; its
  // content-filter chunk (`content_filter_offsets`) has a choice without `delta`.
  { id: "azure/content-filter-stream", provider: "Azure OpenAI", source: "vercel/ai azure-text.chunks.txt", stream: true, answer: chunkLines("azure/text.chunks.txt") },

  // vercel/ai, packages/openai-compatible/src/chat/__fixtures__/issue-13703-mistral-thinking.chunks.txt
  // at 4f627d0 (vercel/ai#13703). mistral-small with thinking: `delta.content` is a list of
  // `thinking` parts, then one list holds the last thinking part and the first text ("3"),
  // then plain strings ("91").
  { id: "mistral/thinking-stream", provider: "Mistral", source: "vercel/ai issue-13703-mistral-thinking.chunks.txt", stream: true, answer: chunkLines("mistral/thinking.chunks.txt") },
  // The same question answered whole: issue-13703-mistral-thinking.json at abf625d.
  { id: "mistral/thinking", provider: "Mistral", source: "vercel/ai issue-13703-mistral-thinking.json", stream: false, answer: json("mistral/thinking.json") },
  // vercel/ai, packages/mistral/src/__fixtures__/mistral-tool-call.chunks.txt at c22d50f. A call
  // without `index` or `type`, its finish_reason and usage on the same chunk.
  { id: "mistral/tool-call-stream", provider: "Mistral", source: "vercel/ai mistral-tool-call.chunks.txt", stream: true, answer: chunkLines("mistral/tool-call.chunks.txt"), tools: { weather: LOCATION } },

  // vercel/ai, packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt at
  // 203e287. deepseek-v4-flash: `reasoning_content` deltas, then a call streamed in ten pieces.
  { id: "deepseek/tool-call-stream", provider: "DeepSeek", source: "vercel/ai deepseek-tool-call.chunks.txt", stream: true, answer: chunkLines("deepseek/tool-call.chunks.txt"), tools: { weather: LOCATION } },
  // vercel/ai, packages/deepseek/src/chat/__fixtures__/deepseek-tool-call.json at 203e287.
  { id: "deepseek/tool-call", provider: "DeepSeek", source: "vercel/ai deepseek-tool-call.json", stream: false, answer: json("deepseek/tool-call.json"), tools: { weather: LOCATION } },

  // vercel/ai, packages/groq/src/__fixtures__/groq-tool-call.chunks.txt at b689317. `x_groq`
  // beside the chunks, its usage repeated in `usage`; arguments `{}`.
  { id: "groq/tool-call-stream", provider: "Groq", source: "vercel/ai groq-tool-call.chunks.txt", stream: true, answer: chunkLines("groq/tool-call.chunks.txt"), tools: { weather: { type: "object", properties: { location: string } } } },
  // The last chunk of a Groq stream as vercel/ai#1651 ("Groq models don't return the usage",
  // 2024-05-19) printed it, as a JavaScript object; here the same values as JSON, one line,
  // served as its only chunk. Usage only in `x_groq.usage`.
  { id: "groq/x-groq-usage-stream", provider: "Groq", source: "vercel/ai#1651 (last chunk, as JSON)", stream: true, answer: chunkLines("groq/x-groq-usage.chunks.txt") },

  // vercel/ai, packages/xai/src/__fixtures__/xai-tool-call.chunks.txt at 195ce94. grok-3-mini:
  // `reasoning_content`, chunks with no `finish_reason` at all, usage with `cost_in_usd_ticks`.
  { id: "xai/tool-call-stream", provider: "xAI", source: "vercel/ai xai-tool-call.chunks.txt", stream: true, answer: chunkLines("xai/tool-call.chunks.txt"), tools: { weather: LOCATION } },
  // vercel/ai, packages/xai/src/__fixtures__/xai-tool-call.json at dacf4c4.
  { id: "xai/tool-call", provider: "xAI", source: "vercel/ai xai-tool-call.json", stream: false, answer: json("xai/tool-call.json"), tools: { weather: LOCATION } },

  // vercel/ai, packages/openai-compatible/src/chat/__fixtures__/anthropic-fallback-tool-call.sse
  // at 4bfb386 (Anthropic's OpenAI-compatible endpoint, claude-haiku-4-5). Text, then the only
  // tool call at `index: 1`: Anthropic numbers calls by content block.
  { id: "anthropic/tool-call-at-index-1-stream", provider: "Anthropic (OpenAI SDK compatibility)", source: "vercel/ai anthropic-fallback-tool-call.sse", stream: true, answer: sse("anthropic/fallback-tool-call.sse"), tools: { read_file: object({ path: string }) } },

  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-stream-tool-calls.chunks.txt at
  // 74911d4. Kimi: two calls in one chunk without `index`, continued at `index` 1 then 0;
  // usage inside the choice.
  { id: "moonshot/parallel-tool-calls-stream", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-stream-tool-calls.chunks.txt", stream: true, answer: chunkLines("moonshot/stream-tool-calls.chunks.txt"), tools: { get_weather: object({ city: string }), get_time: object({ zone: string }) } },
  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-tool-call.chunks.txt at b3bd6ff.
  { id: "moonshot/tool-call-stream", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-tool-call.chunks.txt", stream: true, answer: chunkLines("moonshot/tool-call.chunks.txt"), tools: { get_weather: object({ city: string }) } },
  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-stream-error.chunks.txt at
  // a9279fc. Text, then a chunk that is only `{ error }` with a non-numeric code.
  { id: "moonshot/error-chunk-stream", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-stream-error.chunks.txt", stream: true, answer: chunkLines("moonshot/stream-error.chunks.txt") },
  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-reasoning.json at d7e3880.
  { id: "moonshot/reasoning", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-reasoning.json", stream: false, answer: json("moonshot/reasoning.json") },
  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-error.json at 264bc1c (the body;
  // its status is ours: 400, the status of an invalid request).
  { id: "moonshot/error", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-error.json", stream: false, answer: json("moonshot/error.json", 400) },
  // vercel/ai, packages/moonshotai/src/__fixtures__/moonshotai-v1-structured-output.json at
  // 3c7b721: pretty-printed JSON as the content, written to `{ answer: string }`.
  { id: "moonshot/structured", provider: "Kimi (Moonshot)", source: "vercel/ai moonshotai-v1-structured-output.json", stream: false, answer: json("moonshot/v1-structured-output.json"), schema: object({ answer: string }) },

  // openai/openai-node, tests/lib/__snapshots__/ChatCompletionStream.test.ts.snap at 573787c,
  // ".stream() works": a recorded gpt-4o structured-output stream (the snapshot's escaping
  // undone), ending with a usage chunk whose `choices` is empty.
  { id: "openai/structured-stream", provider: "OpenAI", source: "openai-node ChatCompletionStream.test.ts.snap (.stream() works)", stream: true, answer: sse("openai/structured.sse"), schema: object({ city: string, units: { type: "string", enum: ["c", "f"] } }) },
  // The same file, ".stream() emits refusal logprobs events": a streamed refusal.
  { id: "openai/refusal-stream", provider: "OpenAI", source: "openai-node ChatCompletionStream.test.ts.snap (refusal)", stream: true, answer: sse("openai/refusal.sse"), schema: object({ city: string, units: { type: "string", enum: ["c", "f"] } }) },

  // OpenRouterTeam/ai-sdk-provider, src/chat/index.test.ts at 052ab3e, "should include
  // accumulated reasoning_details with signature in reasoning-end providerMetadata for text-only
  // responses" (ReasoningDetailType.Text is "reasoning.text", src/schemas/reasoning-details.ts):
  // one `reasoning.text` item streamed in three pieces at `index: 0`, the signature on the last.
  { id: "openrouter/reasoning-details-stream", provider: "OpenRouter", source: "OpenRouterTeam/ai-sdk-provider index.test.ts (signature)", stream: true, answer: sse("openrouter/reasoning-signature.sse") },
  // The same file, "should accumulate multiple file annotations from stream": two
  // `delta.annotations` lists in two chunks.
  { id: "openrouter/annotations-stream", provider: "OpenRouter", source: "OpenRouterTeam/ai-sdk-provider index.test.ts (file annotations)", stream: true, answer: sse("openrouter/file-annotations.sse") },
  // The same file, "should override finishReason to tool-calls in streaming when tool calls and
  // encrypted reasoning are present": Gemini 3 through OpenRouter, a `reasoning.encrypted`
  // detail (the thought signature OpenRouter asks clients to send back), a call, and
  // `finish_reason: "stop"`.
  { id: "openrouter/gemini-tool-call-stream", provider: "OpenRouter", source: "OpenRouterTeam/ai-sdk-provider index.test.ts (Gemini 3 tool call)", stream: true, answer: sse("openrouter/gemini-tool-call.sse"), tools: { get_weather: LOCATION } },
  // The same file, "should handle error stream parts": a chunk that is only `{ error }`, code null.
  { id: "openrouter/error-chunk-stream", provider: "OpenRouter", source: "OpenRouterTeam/ai-sdk-provider index.test.ts (error stream parts)", stream: true, answer: sse("openrouter/error-chunk.sse") },
  // Rebuilt from OpenRouter's documentation, API reference → Streaming
  // (https://openrouter.ai/docs/api-reference/streaming): the keep-alive comment it shows
  // (": OPENROUTER PROCESSING"), then its "Handling errors during streaming" example event, a
  // chunk with `error` beside `choices` and `finish_reason: "error"`; "the stream is terminated
  // after this event", so no [DONE].
  { id: "openrouter/mid-stream-error", provider: "OpenRouter", source: "OpenRouter docs, Streaming (rebuilt)", stream: true, answer: sse("openrouter/mid-stream-error.sse") },

  // Rebuilt, Gemini's OpenAI compatibility (generativelanguage.googleapis.com/v1beta/openai):
  // from Google's thought-signatures guide (https://ai.google.dev/gemini-api/docs/thought-signatures,
  // "OpenAI compatibility": `tool_calls[].extra_content.google.thought_signature`, on the first
  // call of a parallel reply only; the guide's `get_current_temperature` Paris/London example and
  // its "<Signature A>" placeholder), from the SSE captured in noho/dayu-agent#45 (each call whole
  // in one delta, no `index`) and noho/dayu-agent#91 (parallel calls in separate chunks), and from
  // open-webui/computer#224 (a tool-call reply that finishes with "stop").
  { id: "gemini/parallel-calls-stream", provider: "Gemini (OpenAI compatibility)", source: "Google thought-signatures guide + dayu-agent#45/#91 (rebuilt)", stream: true, answer: sse("gemini/parallel-calls.sse"), tools: { get_current_temperature: LOCATION } },
  // Rebuilt from the same guide's single-call example (`check_flight`, "AA100"), as a whole answer.
  { id: "gemini/tool-call", provider: "Gemini (OpenAI compatibility)", source: "Google thought-signatures guide (rebuilt)", stream: false, answer: json("gemini/tool-call.json"), tools: { check_flight: object({ flight: string }) } },

  // g0t4/ask-openai.nvim, lua/ask-openai/backends/ollama/notes/sses.md at 9b174b4: Ollama's
  // /v1/chat/completions (qwen2.5-coder) making two calls, each whole in one chunk with `role`
  // repeated; the recording ends at the finish_reason chunk, without [DONE].
  { id: "ollama/parallel-tool-calls-stream", provider: "Ollama", source: "g0t4/ask-openai.nvim ollama/notes/sses.md", stream: true, answer: sse("ollama/parallel-tool-calls.sse"), tools: { run_command: object({ command: string }) } },
  // Rebuilt: the same recording with the second call at `index: 0`, as ollama/ollama#15457
  // reports Ollama 0.20 sends every call ("the field is now present but always 0").
  { id: "ollama/shared-index-stream", provider: "Ollama", source: "ollama/ollama#15457 on the sses.md recording (rebuilt)", stream: true, answer: sse("ollama/shared-index.sse"), tools: { run_command: object({ command: string }) } },
  // The same notes: a whole answer in one chunk with its finish_reason, no [DONE].
  { id: "ollama/text-stream", provider: "Ollama", source: "g0t4/ask-openai.nvim ollama/notes/sses.md", stream: true, answer: sse("ollama/text.sse") },

  // g0t4/ask-openai.nvim, lua/ask-openai/rewrites/harmony/NOTES.md (a later version than
  // 00c783f), which quotes three chunks llama-server sent: the first two from one reply
  // (build b6881, `content: null`, then `reasoning_content`), the last from another (b6097, its
  // `timings` and usage). Put in one stream, then [DONE] as llama-server ends an OpenAI-style stream.
  { id: "llamacpp/timings-stream", provider: "llama.cpp (llama-server)", source: "g0t4/ask-openai.nvim harmony/NOTES.md", stream: true, answer: sse("llamacpp/timings.sse") },
  // Rebuilt: llama-server's streaming error as ggml-org/llama.cpp tools/server/server.cpp
  // writes it (`server_sent_event(sink, "error", error_data)`, an `error:` field, then
  // "data: [DONE]\n\n"), with the exceed_context_size_error object (code, message, type,
  // n_prompt_tokens, n_ctx) its users quote.
  { id: "llamacpp/error-field-stream", provider: "llama.cpp (llama-server)", source: "llama.cpp server.cpp framing (rebuilt)", stream: true, answer: sse("llamacpp/error-field.sse") },

  // vLLM's ErrorResponse (vllm-project/vllm, vllm/entrypoints/openai/protocol.py: `object`,
  // `message`, `type`, `param`, `code`), as a vLLM server answered an unknown model in a
  // published test log; status 404.
  { id: "vllm/model-not-found", provider: "vLLM", source: "vLLM ErrorResponse (test log)", stream: false, answer: json("vllm/model-not-found.json", 404) },
  // BerriAI/litellm#32237 ("surface in-body error payloads on OpenAI-compatible streams"):
  // what vLLM and sglang send inside a 200 stream for an image sent to a text-only model. The PR
  // quotes the two lines without the blank line between them; restored here.
  { id: "vllm/in-band-error-stream", provider: "vLLM", source: "BerriAI/litellm#32237", stream: true, answer: sse("vllm/in-band-error.sse") },

  // Rebuilt: LiteLLM's ollama_chat adapter streaming two calls, as BerriAI/litellm#33678
  // (every call at `index: 0`, read_file a.rs and b.rs) and #37792 (arguments as an object, not
  // JSON text; `finish_reason: "stop"`; a new response id per chunk; call ids without "call_")
  // describe it. The ids are ours.
  { id: "litellm/ollama-shared-index-stream", provider: "LiteLLM (Ollama adapter)", source: "BerriAI/litellm#33678, #37792 (rebuilt)", stream: true, answer: sse("litellm/ollama-shared-index.sse"), tools: { read_file: object({ path: string }) } },

  // gitbutlerapp/gitbutler#8706: LM Studio's 404 for a model it does not have, as quoted there.
  { id: "lmstudio/model-not-found", provider: "LM Studio", source: "gitbutlerapp/gitbutler#8706", stream: false, answer: json("lmstudio/model-not-found.json", 404) },

  // NestJS documentation, Exception filters (https://docs.nestjs.com/exception-filters): the
  // body of `new BadRequestException('Something bad happened', { cause, description: 'Some
  // error description' })`, and of `new HttpException('Forbidden', HttpStatus.FORBIDDEN)`.
  { id: "nestjs/bad-request", provider: "NestJS gateway", source: "NestJS docs, Exception filters", stream: false, answer: json("nestjs/bad-request.json", 400) },
  { id: "nestjs/forbidden", provider: "NestJS gateway", source: "NestJS docs, Exception filters", stream: false, answer: json("nestjs/forbidden.json", 403) },
  // NestJS documentation, Techniques → Validation (https://docs.nestjs.com/techniques/validation):
  // ValidationPipe's 400, `message` a list of reasons.
  { id: "nestjs/validation", provider: "NestJS gateway", source: "NestJS docs, Validation", stream: false, answer: json("nestjs/validation.json", 400) },

  // fastapi/fastapi, docs/en/docs/tutorial/handling-errors.md at 024e6bc: an HTTPException's
  // 404, and the default RequestValidationError 422 with its `detail` list.
  { id: "fastapi/not-found", provider: "FastAPI gateway", source: "FastAPI docs, Handling Errors", stream: false, answer: json("fastapi/not-found.json", 404) },
  { id: "fastapi/validation", provider: "FastAPI gateway", source: "FastAPI docs, Handling Errors", stream: false, answer: json("fastapi/validation.json", 422) },

  // nginx/nginx, src/http/ngx_http_special_response.c: ngx_http_error_502_page followed by
  // ngx_http_error_tail, CRLF line ends.
  { id: "nginx/502", provider: "nginx", source: "nginx ngx_http_special_response.c", stream: false, answer: page("nginx/502.html", 502, "text/html") },
  // Envoy's local reply when the upstream resets (envoyproxy/envoy, source/common/router/router.cc),
  // text/plain with status 503, the words as the clients that match on it quote them.
  { id: "envoy/503", provider: "Envoy", source: "Envoy router local reply", stream: false, answer: page("envoy/503.txt", 503, "text/plain") },
  // Cloudflare's 524 ("A timeout occurred", its ~100 s edge limit; Cloudflare docs, Error 524)
  // as a non-browser client gets it: the plain text `error code: 524`, as the projects that hit
  // it quote it.
  { id: "cloudflare/524", provider: "Cloudflare", source: "Cloudflare 524 (plain text)", stream: false, answer: page("cloudflare/524.txt", 524, "text/plain") },
];

/** The case with this id. */
export function providerCase(id: string): ProviderCase {
  const found = CASES.find((entry) => entry.id === id);
  if (!found) throw new Error(`no corpus case ${id}`);
  return found;
}
