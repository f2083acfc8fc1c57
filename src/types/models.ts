/** What a model can do; `route.capabilities` filters on these. */
export type ModelCapability =
  | "vision"
  | "tools"
  | "json"
  | "structured_outputs"
  | "audio"
  | "long_context"
  | "reasoning"
  | "image_generation"
  | "audio_generation"
  | "video_generation"
  | "embeddings"
  | (string & {});

/** A model of the gateway's catalogue. */
export interface Model {
  /** The id to pass as `model`, e.g. `openai/gpt-4.1-mini`. */
  id: string;
  object: "model";
  /** Unix time in seconds. */
  created: number;
  owned_by: string;
  /** Display name. */
  name?: string;
  provider?: string;
  /** Largest prompt plus reply, in tokens. */
  context_length?: number;
  /**
   * Most tokens one reply may hold (the provider's cap on `max_tokens`), in tokens. Also the
   * reply a gateway budgets for when a request sets no `max_tokens`, so it bounds the worst
   * case of a call's cost.
   */
  max_output_tokens?: number;
  /** USD per million tokens. */
  pricing?: { prompt: number; completion: number };
  /** Quality score from 0 to 1, as used by `route.min_quality`. */
  quality?: number;
  capabilities?: ModelCapability[];
}

/** The answer of `models.list()`. */
export interface ModelList {
  object: "list";
  data: Model[];
}
