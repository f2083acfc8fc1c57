// Params and results of the endpoints beside chat: embeddings, image generation and editing,
// speech, transcription and translation, in the OpenAI-compatible shapes.

import type { Uploadable } from "../media/to-file.ts";

/** Params of `client.embeddings.create()`. */
export interface EmbeddingCreateParams {
  /** A model with the `embeddings` capability. */
  model: string;
  /** The text (or texts) to embed; one embedding per text, in order. */
  input: string | string[];
  /** Length of each vector, for models that can shorten theirs. */
  dimensions?: number | undefined;
  /**
   * `"float"` (the default the SDK asks for) gives `number[]`; `"base64"` gives each vector as
   * base64 of little-endian float32, as sent.
   */
  encoding_format?: "float" | "base64" | undefined;
  user?: string | undefined;
}

/** One vector of an embeddings answer. */
export interface Embedding<Vector = number[]> {
  object: "embedding";
  /** The position of its text in `input`. */
  index: number;
  embedding: Vector;
}

/** What `client.embeddings.create()` resolves to. */
export interface CreateEmbeddingResponse<Vector = number[]> {
  object: "list";
  data: Embedding<Vector>[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** What image requests share besides their prompt, as OpenAI's image models take them. */
interface ImageOptionParams {
  /** How many images. @default 1 */
  n?: number | null | undefined;
  /** `WIDTHxHEIGHT` (e.g. `"1024x1024"`) or `"auto"`. */
  size?: (string & {}) | "auto" | null | undefined;
  /** `"url"` or `"b64_json"` (the image as base64); GPT image models always answer `b64_json`. */
  response_format?: "url" | "b64_json" | null | undefined;
  quality?: "standard" | "hd" | "low" | "medium" | "high" | "auto" | null | undefined;
  background?: "transparent" | "opaque" | "auto" | null | undefined;
  output_format?: "png" | "jpeg" | "webp" | null | undefined;
  /** 0 to 100, for `jpeg` and `webp`. */
  output_compression?: number | null | undefined;
  /**
   * Stream the images: `true` makes the call resolve to a `Stream` of image events, ending
   * once every requested image has its `completed` event.
   */
  stream?: boolean | null | undefined;
  /** With `stream`, how many partial images (0 to 3) come before each final one. */
  partial_images?: number | null | undefined;
  user?: string | undefined;
}

/** Params of `client.images.generate()`. */
export interface ImageGenerateParams extends ImageOptionParams {
  model: string;
  prompt: string;
  moderation?: "low" | "auto" | null | undefined;
  /** `dall-e-3` only. */
  style?: "vivid" | "natural" | null | undefined;
}

/** `client.images.generate()` params that ask for a `Stream` of events. */
export interface ImageGenerateParamsStreaming extends ImageGenerateParams {
  stream: true;
}

/** `client.images.generate()` params that ask for the whole answer at once. */
export interface ImageGenerateParamsNonStreaming extends ImageGenerateParams {
  stream?: false | null | undefined;
}

/**
 * Params of `client.images.edit()`: sent as a multipart form, each upload read into a `Blob`
 * before the first attempt (see `Uploadable`).
 */
export interface ImageEditParams extends ImageOptionParams {
  /** The picture to edit, or up to 16 (sent as `image[]`): PNG, JPEG or WebP. */
  image: Uploadable | Uploadable[];
  /** What to make of it. */
  prompt: string;
  /** A PNG whose fully transparent areas show where to edit (the first image). */
  mask?: Uploadable | undefined;
  /** A model with the `image_generation` capability; the server's default when left out. */
  model?: string | null | undefined;
  /** How closely to keep the input's features (faces, logos): GPT image models only. */
  input_fidelity?: "high" | "low" | null | undefined;
}

/** `client.images.edit()` params that ask for a `Stream` of events. */
export interface ImageEditParamsStreaming extends ImageEditParams {
  stream: true;
}

/** `client.images.edit()` params that ask for the whole answer at once. */
export interface ImageEditParamsNonStreaming extends ImageEditParams {
  stream?: false | null | undefined;
}

/** One image of an `ImagesResponse`. */
export interface Image {
  url?: string;
  /** The image as base64 (for `response_format: "b64_json"`, and always from GPT image models). */
  b64_json?: string;
  revised_prompt?: string;
}

/** The tokens an image request used (GPT image models). */
export interface ImagesUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
}

/** What `client.images.generate()` and `client.images.edit()` resolve to. */
export interface ImagesResponse {
  created: number;
  data: Image[];
  usage?: ImagesUsage;
  background?: string;
  output_format?: string;
  quality?: string;
  size?: string;
}

/** What every event of an image stream carries about the image. */
interface ImageEventFields {
  /** The image (partial or final) as base64. */
  b64_json: string;
  /** Unix seconds. */
  created_at: number;
  size: string;
  quality: string;
  background: string;
  output_format: string;
}

/** A partial image of a streamed generation (`partial_images` asked for it). */
export interface ImageGenPartialImageEvent extends ImageEventFields {
  type: "image_generation.partial_image";
  /** 0-based, per image. */
  partial_image_index: number;
}

/** A finished image of a streamed generation: the stream ends after the last requested one. */
export interface ImageGenCompletedEvent extends ImageEventFields {
  type: "image_generation.completed";
  usage: ImagesUsage;
}

/** An event of `client.images.generate({ stream: true })`. */
export type ImageGenStreamEvent = ImageGenPartialImageEvent | ImageGenCompletedEvent;

/** A partial image of a streamed edit. */
export interface ImageEditPartialImageEvent extends ImageEventFields {
  type: "image_edit.partial_image";
  partial_image_index: number;
}

/** A finished image of a streamed edit: the stream ends after the last requested one. */
export interface ImageEditCompletedEvent extends ImageEventFields {
  type: "image_edit.completed";
  usage: ImagesUsage;
}

/** An event of `client.images.edit({ stream: true })`. */
export type ImageEditStreamEvent = ImageEditPartialImageEvent | ImageEditCompletedEvent;

/** Params of `client.audio.speech.create()`. */
export interface SpeechCreateParams {
  /** A model with the `audio_generation` capability. */
  model: string;
  /** The text to speak. */
  input: string;
  voice: string;
  /** The audio encoding, e.g. `"wav"`, `"mp3"`, `"pcm"`. */
  response_format?: string | undefined;
  /** 0.25 to 4. @default 1 */
  speed?: number | undefined;
}

/** Params of `client.audio.transcriptions.create()`: sent as a multipart form. */
export interface TranscriptionCreateParams {
  /**
   * The audio: a `Blob`, a `File` (its name is sent), bytes, a `Response`, or an async
   * iterable of bytes such as `fs.createReadStream(path)` (its path gives the name); streams
   * are read once, before the first attempt, so that a retry sends the same bytes.
   */
  file: Uploadable;
  model: string;
  /** The spoken language (ISO-639-1), if known. */
  language?: string | undefined;
  /** Text to guide the model (names, spelling). */
  prompt?: string | undefined;
  /** `"json"` (the default) and `"verbose_json"` resolve to the parsed JSON; `"text"`, `"srt"` and `"vtt"` to the text. */
  response_format?: "json" | "text" | "srt" | "verbose_json" | "vtt" | undefined;
  temperature?: number | undefined;
}

/** What `client.audio.transcriptions.create()` resolves to with the `json` (and `verbose_json`) format. */
export interface Transcription {
  text: string;
  [key: string]: unknown;
}

/** Params of `client.audio.translations.create()`: sent as a multipart form. */
export interface TranslationCreateParams {
  /** The audio, as for a transcription (see `TranscriptionCreateParams.file`). */
  file: Uploadable;
  model: string;
  /** Text in English to guide the model (names, spelling). */
  prompt?: string | undefined;
  /** `"json"` (the default) and `"verbose_json"` resolve to the parsed JSON; `"text"`, `"srt"` and `"vtt"` to the text. */
  response_format?: "json" | "text" | "srt" | "verbose_json" | "vtt" | undefined;
  temperature?: number | undefined;
}

/** What `client.audio.translations.create()` resolves to with the `json` (and `verbose_json`) format: the speech in English. */
export interface Translation {
  text: string;
  [key: string]: unknown;
}
