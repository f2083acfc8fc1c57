import type { ChatCompletionCreateParamsBase, ModelCapability } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";
import { limitField, worstCaseCost } from "../billing/costs.ts";
import { AUDIO_FORMATS_WRITTEN } from "./beyond-text.ts";
import { mockPromptTokens } from "./prompt-tokens.ts";

/**
 * The outcome of routing: the model, or why none could serve the request. A prompt larger
 * than the context of every model the request may reach (every model of the catalogue for
 * `model: "auto"`, whatever the route says) is `context_length_exceeded`.
 */
export type RouteResult = { model: MockModel } | { error: string; code: "model_not_found" | "no_route_available" | "context_length_exceeded" };

/** Prompts above this many estimated tokens need a `long_context` model. */
const LONG_CONTEXT_TOKENS = 32_000;

/** What generators make: a model with one of these is routed to only when asked for it. */
const GENERATES: readonly ModelCapability[] = ["image_generation", "audio_generation", "video_generation"];

/** The capability a reply modality needs (`text` needs none). */
const MODALITY_CAPABILITIES: Record<string, ModelCapability> = { image: "image_generation", audio: "audio_generation", video: "video_generation" };

/**
 * Picks the model for a request as the gateway does. A named model (or the first known one
 * of `[model, ...models]` whose context holds the prompt) is used as is; a prompt larger than
 * the context of every one known is `context_length_exceeded`, as a provider refuses it. For `model: "auto"` the candidates must have every
 * capability the request needs — those in `route.capabilities` plus what the messages imply
 * (an image part needs `vision`, audio `audio`, tools `tools`, a JSON response format `json`,
 * a long prompt `long_context`, `modalities` with `image`, `audio` or `video` the matching
 * `*_generation`) — reach `route.min_quality`, cost no more than `route.max_price`, and could
 * cost no more than `route.max_cost` USD (the request's worst case on the model, see
 * `worstCaseCost`). A generator (`image_generation`, `audio_generation`, `video_generation`)
 * is a candidate only when the request needs what it generates, so a plain chat never gets an
 * image or a video; an `embeddings` model never is. They are ordered by `route.sort`:
 * "price" (default; cheapest prompt + completion price, ties to the higher quality),
 * "quality" (highest, ties to the cheaper) or "latency" (fastest).
 */
export function chooseModel(params: ChatCompletionCreateParamsBase, catalogue: readonly MockModel[]): RouteResult {
  if (params.model !== "auto") {
    const tried = [params.model, ...(params.models ?? [])];
    const known = tried.map((id) => catalogue.find((model) => model.id === id)).filter((model) => model !== undefined);
    // A prompt the model cannot hold is refused by its provider (never served and billed
    // whole); the gateway then tries the next fallback, as it does after any failure.
    const promptTokens = mockPromptTokens(params);
    const fits = known.find((model) => promptTokens <= model.context_length);
    if (fits) return { model: fits };
    if (known.length > 0) {
      const first = known[0]!;
      return {
        error: `This model's maximum context length is ${tokens(first.context_length)} tokens. However, your messages resulted in about ${tokens(promptTokens)} tokens (${first.id}${known.length > 1 ? " and every fallback" : ""}).`,
        code: "context_length_exceeded",
      };
    }
    const what = tried.length === 1 ? `The model '${params.model}' does not exist.` : `None of the models ${tried.map((id) => `'${id}'`).join(", ")} exists.`;
    return { error: what, code: "model_not_found" };
  }

  const route = params.route ?? {};
  const needed = requiredCapabilities(params);
  const promptTokens = mockPromptTokens(params);
  const excluded: string[] = [];
  const asked = (model: MockModel) => GENERATES.every((capability) => !model.capabilities.includes(capability) || needed.includes(capability));
  let candidates = catalogue.filter((model) => servesChat(model) && asked(model));
  const largest = candidates.reduce<MockModel | undefined>((best, model) => (best && best.context_length >= model.context_length ? best : model), undefined);
  if (largest && promptTokens > largest.context_length) {
    return {
      error: `The prompt is too large: about ${tokens(promptTokens)} tokens, more than the context of every model (the largest, ${largest.id}, holds ${tokens(largest.context_length)}).`,
      code: "context_length_exceeded",
    };
  }
  const keep = (reason: string, test: (model: MockModel) => boolean) => {
    const kept = candidates.filter(test);
    if (kept.length < candidates.length) excluded.push(reason);
    candidates = kept;
  };
  for (const capability of needed) keep(`capability ${capability}`, (model) => model.capabilities.includes(capability));
  if (promptTokens > LONG_CONTEXT_TOKENS) keep(`context of ${promptTokens} tokens`, (model) => model.context_length >= promptTokens);
  // `!= null`: a filter sent as null is left out, like any other null field.
  const { min_quality: minQuality, max_price: maxPrice } = route;
  if (minQuality != null) keep(`min_quality ${minQuality}`, (model) => model.quality >= minQuality);
  if (maxPrice?.prompt != null) keep(`max_price.prompt ${maxPrice.prompt}`, (model) => model.pricing.prompt <= maxPrice.prompt!);
  if (maxPrice?.completion != null) keep(`max_price.completion ${maxPrice.completion}`, (model) => model.pricing.completion <= maxPrice.completion!);
  const maxCost = routeMaxCost(params);
  if (maxCost != null) {
    const reply = limitField(params) ?? "max_output_tokens";
    keep(`max_cost ${maxCost} (the prompt plus ${reply} at each model's prices)`, (model) => worstCaseCost(params, model, promptTokens) <= maxCost);
  }
  if (candidates.length === 0) {
    const why = excluded.length > 0 ? `excluded by: ${excluded.join(", ")}` : "the catalogue has no chat model";
    // Route filters are named only when the request set some; otherwise the request itself
    // (an image part, tools, a long prompt) asked for more than any model offers.
    const what = hasRouteFilters(params) ? "No model satisfies the route filters" : "No model can serve this request";
    return { error: `${what} (${why}).`, code: "no_route_available" };
  }
  const price = (model: MockModel) => model.pricing.prompt + model.pricing.completion;
  const order: Record<string, (a: MockModel, b: MockModel) => number> = {
    price: (a, b) => price(a) - price(b) || b.quality - a.quality,
    quality: (a, b) => b.quality - a.quality || price(a) - price(b),
    latency: (a, b) => a.latency_ms - b.latency_ms || price(a) - price(b),
  };
  const sorted = [...candidates].sort(order[route.sort ?? "price"] ?? order.price);
  return { model: sorted[0]! };
}

/** Capabilities asked for by `route.capabilities` and implied by the request itself. */
export function requiredCapabilities(params: ChatCompletionCreateParamsBase): ModelCapability[] {
  const needed = new Set<ModelCapability>(params.route?.capabilities ?? []);
  for (const message of params.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === "image_url") needed.add("vision");
      if (part.type === "input_audio") needed.add("audio");
    }
  }
  for (const modality of params.modalities ?? []) {
    const capability = MODALITY_CAPABILITIES[modality];
    if (capability) needed.add(capability);
  }
  if (params.tools && params.tools.length > 0) needed.add("tools");
  const format = params.response_format?.type;
  if (format === "json_object" || format === "json_schema") needed.add("json");
  if (mockPromptTokens(params) > LONG_CONTEXT_TOKENS) needed.add("long_context");
  return [...needed];
}

/** Why a model cannot serve a request: the message of the 400 and the field at fault. */
export interface UnsupportedFeature {
  message: string;
  param: string;
}

/**
 * What the request asks of `model` that the model lacks, as providers refuse a parameter
 * their model does not support: chat needs a model that is not an embeddings model, an
 * `image`, `audio` or `video` modality the matching `*_generation`, tools `tools`, a
 * `json_object` response format `json`, and a `json_schema` one `structured_outputs`.
 * Routing never infers `structured_outputs` (a gateway routes on what it is told), so
 * `model: "auto"` may pick a model without it; the message says how to ask for one that has
 * it. Speech in a format the mock cannot write is refused here too.
 */
export function unsupportedFeature(params: ChatCompletionCreateParamsBase, model: MockModel): UnsupportedFeature | undefined {
  const lacks = (capability: ModelCapability) => !model.capabilities.includes(capability);
  if (!servesChat(model)) {
    return { param: "model", message: `The model '${model.id}' is an embeddings model: it does not answer chat. Send its requests to /v1/embeddings.` };
  }
  for (const modality of params.modalities ?? []) {
    const capability = MODALITY_CAPABILITIES[modality];
    if (capability && lacks(capability)) {
      return { param: "modalities", message: `The model '${model.id}' cannot answer with ${modality}: it lacks the ${capability} capability.` };
    }
  }
  const format = params.audio?.format;
  if (params.modalities?.includes("audio") && format && !AUDIO_FORMATS_WRITTEN.includes(format)) {
    // A limit of the mock, not of the gateway: it would rather refuse than label WAV bytes mp3.
    return { param: "audio.format", message: `The mock gateway writes audio as ${AUDIO_FORMATS_WRITTEN.join(" or ")} only, not ${format}.` };
  }
  const responseFormat = params.response_format?.type;
  if (responseFormat === "json_schema" && lacks("structured_outputs")) {
    return {
      param: "response_format",
      message:
        `The model '${model.id}' does not support \`response_format\` json_schema: it lacks the structured_outputs capability. ` +
        `Use a model that has it (with model "auto", add "structured_outputs" to \`route.capabilities\`), or ask for json_object or a forced tool call instead.`,
    };
  }
  if (responseFormat === "json_object" && lacks("json")) {
    return { param: "response_format", message: `The model '${model.id}' does not support \`response_format\` json_object: it lacks the json capability.` };
  }
  if ((params.tools?.length ?? 0) > 0 && lacks("tools")) {
    return { param: "tools", message: `The model '${model.id}' does not support \`tools\`: it lacks the tools capability.` };
  }
  return undefined;
}

/** Whether the model answers chat: an `embeddings` model only serves `/v1/embeddings`. */
export function servesChat(model: MockModel): boolean {
  return !model.capabilities.includes("embeddings");
}

/** Whether the request narrowed `model: "auto"` itself (`sort` only orders, it filters nothing). */
export function hasRouteFilters(params: ChatCompletionCreateParamsBase): boolean {
  const route = params.route;
  if (!route) return false;
  const filters = [route.min_quality, route.max_price?.prompt, route.max_price?.completion, routeMaxCost(params)];
  return (route.capabilities?.length ?? 0) > 0 || filters.some((filter) => filter != null);
}

/**
 * `route.max_cost`: the most the call may cost, in USD (a ModelGate filter the SDK sends for
 * a budget with `model: "auto"`). Not in the SDK's `RouteFilters` type, so read here.
 */
function routeMaxCost(params: ChatCompletionCreateParamsBase): number | null | undefined {
  return (params.route as { max_cost?: number | null } | undefined)?.max_cost;
}

/** A token count as people write it: 1,250,000. */
function tokens(count: number): string {
  return count.toLocaleString("en-US");
}
