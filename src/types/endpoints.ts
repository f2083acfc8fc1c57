// Params and results of the endpoints beside chat: embeddings, image generation, speech and
// transcription, in the OpenAI-compatible shapes.

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

/** Params of `client.images.generate()`. */
export interface ImageGenerateParams {
  model: string;
  prompt: string;
  /** How many images. @default 1 */
  n?: number | undefined;
  /** e.g. `"1024x1024"`. */
  size?: string | undefined;
  /** `"url"` or `"b64_json"` (the PNG as base64). */
  response_format?: "url" | "b64_json" | undefined;
}

/** What `client.images.generate()` resolves to. */
export interface ImagesResponse {
  created: number;
  data: { url?: string; b64_json?: string; revised_prompt?: string }[];
}

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
  /** The audio: a `Blob`, a `File` (its name is sent), or bytes. */
  file: Blob | ArrayBuffer | ArrayBufferView;
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
