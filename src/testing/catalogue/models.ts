import type { Model } from "../../types/index.ts";

/** A model of the mock gateway's catalogue: a `Model` with everything routing needs filled in. */
export interface MockModel extends Model {
  provider: string;
  context_length: number;
  max_output_tokens: number;
  pricing: { prompt: number; completion: number };
  quality: number;
  capabilities: NonNullable<Model["capabilities"]>;
  /** Typical time to first token in milliseconds, for `route.sort: "latency"`. */
  latency_ms: number;
  /**
   * For a model with `embeddings`: the length of its vectors when a request gives no
   * `dimensions`, and the most it can give. Like `latency_ms`, not shown by `/v1/models`.
   */
  dimensions?: number;
}

function model(
  id: string,
  name: string,
  pricing: [prompt: number, completion: number],
  quality: number,
  latency_ms: number,
  [context_length, max_output_tokens]: [context: number, maxOutput: number],
  capabilities: MockModel["capabilities"],
): MockModel {
  const provider = id.slice(0, id.indexOf("/"));
  return {
    id,
    object: "model",
    created: 1_735_689_600,
    owned_by: provider,
    name,
    provider,
    context_length,
    max_output_tokens,
    pricing: { prompt: pricing[0], completion: pricing[1] },
    quality,
    capabilities,
    latency_ms,
  };
}

/**
 * The default catalogue: mock values (prices in USD per million tokens, quality 0..1, the
 * context and the longest reply in tokens, as providers publish them) chosen so that every
 * routing filter changes which model wins. The cheapest models lack
 * `structured_outputs` (a `json_schema` response format sent to them is refused), and
 * DeepSeek R1 has neither `tools` nor `json`, so each way of asking for JSON — a schema,
 * a forced tool call, `json_object` with the schema in the prompt — has a model that needs it.
 * DeepSeek R1 also reasons (`message.reasoning`).
 *
 * The generators answer chat too, but `model: "auto"` picks one only when the request asks
 * for what it makes (see `chooseModel`): Gemini 2.5 Flash Image and GPT Image 1 images
 * (`modalities: ["image", "text"]`; GPT Image 1 also serves `/v1/images/generations`),
 * GPT-4o Audio speech (`modalities: ["audio", "text"]`), Veo 3.1 videos. Video is really
 * billed by the second; the mock bills it by tokens like the rest. Text Embedding 3 Small
 * (1,536 dimensions) serves only `/v1/embeddings`.
 */
export const DEFAULT_CATALOGUE: readonly MockModel[] = [
  model("meta-llama/llama-3.3-70b-instruct", "Llama 3.3 70B Instruct", [0.12, 0.3], 0.62, 420, [131_072, 16_384], ["tools", "json"]),
  model("mistralai/mistral-small", "Mistral Small", [0.1, 0.3], 0.55, 250, [32_768, 8_192], ["tools", "json"]),
  model("google/gemini-2.5-flash", "Gemini 2.5 Flash", [0.3, 2.5], 0.78, 300, [1_048_576, 65_536], ["vision", "tools", "json", "structured_outputs", "long_context", "audio"]),
  model("openai/gpt-4.1-mini", "GPT-4.1 mini", [0.4, 1.6], 0.76, 350, [128_000, 32_768], ["vision", "tools", "json", "structured_outputs", "long_context"]),
  model("anthropic/claude-haiku-4.5", "Claude Haiku 4.5", [1.0, 5.0], 0.8, 380, [200_000, 64_000], ["vision", "tools", "json", "structured_outputs", "long_context"]),
  model("openai/gpt-4.1", "GPT-4.1", [2.0, 8.0], 0.88, 600, [1_047_576, 32_768], ["vision", "tools", "json", "structured_outputs", "long_context"]),
  model("anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5", [3.0, 15.0], 0.93, 700, [1_000_000, 64_000], ["vision", "tools", "json", "structured_outputs", "long_context"]),
  model("google/gemini-2.5-pro", "Gemini 2.5 Pro", [1.25, 10.0], 0.91, 900, [1_048_576, 65_536], ["vision", "tools", "json", "structured_outputs", "long_context", "audio"]),
  model("deepseek/deepseek-chat", "DeepSeek V3", [0.27, 1.1], 0.74, 800, [65_536, 8_192], ["tools", "json"]),
  model("deepseek/deepseek-r1", "DeepSeek R1", [0.55, 2.19], 0.8, 1_500, [65_536, 32_768], ["reasoning"]),
  model("openai/gpt-image-1", "GPT Image 1", [5.0, 40.0], 0.85, 2_000, [32_000, 8_192], ["image_generation", "vision"]),
  model("google/gemini-2.5-flash-image", "Gemini 2.5 Flash Image", [0.3, 2.5], 0.8, 1_100, [32_768, 8_192], ["image_generation", "vision"]),
  model("openai/gpt-4o-audio-preview", "GPT-4o Audio", [2.5, 10.0], 0.82, 650, [128_000, 16_384], ["audio_generation", "audio", "tools"]),
  model("google/veo-3.1", "Veo 3.1", [4.0, 40.0], 0.9, 30_000, [8_192, 4_096], ["video_generation"]),
  { ...model("openai/text-embedding-3-small", "Text Embedding 3 Small", [0.02, 0], 0.7, 60, [8_192, 0], ["embeddings"]), dimensions: 1_536 },
];
