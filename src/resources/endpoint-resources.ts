import { callBounds } from "../pipeline/call-options.ts";
import { loadEndpoints } from "../pipeline/loader.ts";
import { createAPIPromise, type APIPromise, type Outcome } from "../pipeline/api-promise.ts";
import type { RequestOptions } from "../pipeline/options.ts";
import type { Stream } from "../streaming/stream.ts";
import type {
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  ImageEditParams,
  ImageEditParamsNonStreaming,
  ImageEditParamsStreaming,
  ImageEditStreamEvent,
  ImageGenerateParams,
  ImageGenerateParamsNonStreaming,
  ImageGenerateParamsStreaming,
  ImageGenStreamEvent,
  ImagesResponse,
  SpeechCreateParams,
  Transcription,
  TranscriptionCreateParams,
  Translation,
  TranslationCreateParams,
} from "../types/endpoints.ts";
import type { Requester } from "./requester.ts";

/** `client.embeddings`: `POST /v1/embeddings`. */
export interface Embeddings {
  /**
   * Embeds one text or several, one vector each in `data` (by `index`). Floats are asked for
   * unless `encoding_format: "base64"` is given; base64 vectors a server sends anyway are
   * decoded. @throws ModelGateError when the answer's vectors do not match the input or `dimensions`.
   */
  create(params: EmbeddingCreateParams & { encoding_format: "base64" }, options?: RequestOptions): APIPromise<CreateEmbeddingResponse<string>>;
  /** The same, asking for floats (the default): each `embedding` is a `number[]`. */
  create(params: EmbeddingCreateParams & { encoding_format?: "float" | undefined }, options?: RequestOptions): APIPromise<CreateEmbeddingResponse>;
}

/** `client.images`: `POST /v1/images/generations` and `/v1/images/edits`. */
export interface Images {
  /**
   * Generates images from a prompt; resolves to the parsed JSON (`data[].url` or
   * `data[].b64_json`), or with `stream: true` to a `Stream` of `image_generation.partial_image`
   * and `image_generation.completed` events, which ends at `[DONE]` or once each of the `n`
   * images asked for has its `completed` event (a body cut before that throws `APIConnectionError`).
   */
  generate(params: ImageGenerateParamsStreaming, options?: RequestOptions): APIPromise<Stream<ImageGenStreamEvent>>;
  /** The same without `stream: true`: resolves to the parsed JSON. */
  generate(params: ImageGenerateParamsNonStreaming, options?: RequestOptions): APIPromise<ImagesResponse>;
  /** The same, `stream` known only at run time: either result. */
  generate(params: ImageGenerateParams, options?: RequestOptions): APIPromise<ImagesResponse | Stream<ImageGenStreamEvent>>;
  /**
   * Edits a picture (or up to 16, as a list) from a prompt, with an optional `mask`: a multipart
   * form whose uploads may be anything `toFile()` reads (a `File`, bytes, a `Response`, a Node
   * `fs.ReadStream`), read once before the first attempt. Resolves as `generate()` does; its
   * stream's events are `image_edit.partial_image` and `image_edit.completed`.
   */
  edit(params: ImageEditParamsStreaming, options?: RequestOptions): APIPromise<Stream<ImageEditStreamEvent>>;
  /** The same without `stream: true`: resolves to the parsed JSON. */
  edit(params: ImageEditParamsNonStreaming, options?: RequestOptions): APIPromise<ImagesResponse>;
  /** The same, `stream` known only at run time: either result. */
  edit(params: ImageEditParams, options?: RequestOptions): APIPromise<ImagesResponse | Stream<ImageEditStreamEvent>>;
}

/** `client.audio`: speech, transcription and translation. */
export interface Audio {
  /** `client.audio.speech`: `POST /v1/audio/speech`. */
  speech: {
    /**
     * Speaks `input`: resolves to the binary `Response` (`await response.arrayBuffer()`, or
     * stream `response.body`), under the call's timeout (until the first byte) and signal.
     */
    create(params: SpeechCreateParams, options?: RequestOptions): APIPromise<Response>;
  };
  /** `client.audio.transcriptions`: `POST /v1/audio/transcriptions`. */
  transcriptions: {
    /**
     * Transcribes `file`, sent as a multipart form: a `Blob`, `File` or bytes as they are, or a
     * `Response` or async iterable of bytes (`fs.createReadStream(path)`) read once before the
     * first attempt. Resolves to the parsed JSON, or to the text itself for `response_format`
     * `"text"`, `"srt"` or `"vtt"`.
     */
    create(params: TranscriptionCreateParams & { response_format: "text" | "srt" | "vtt" }, options?: RequestOptions): APIPromise<string>;
    /** The same with a JSON `response_format` (the default, `"json"`): resolves to `{ text, ... }`. */
    create(params: TranscriptionCreateParams & { response_format?: "json" | "verbose_json" | undefined }, options?: RequestOptions): APIPromise<Transcription>;
  };
  /** `client.audio.translations`: `POST /v1/audio/translations`. */
  translations: {
    /**
     * Translates the speech in `file` into English: the same multipart form and answers as a
     * transcription's (`POST /v1/audio/translations`).
     */
    create(params: TranslationCreateParams & { response_format: "text" | "srt" | "vtt" }, options?: RequestOptions): APIPromise<string>;
    /** The same with a JSON `response_format` (the default, `"json"`): resolves to `{ text, ... }`. */
    create(params: TranslationCreateParams & { response_format?: "json" | "verbose_json" | undefined }, options?: RequestOptions): APIPromise<Translation>;
  };
}

type EndpointsFeature = Awaited<ReturnType<typeof loadEndpoints>>;

/**
 * The endpoints beside chat. Each method only delegates: the code that checks params and
 * shapes answers loads on the first call (see src/pipeline/loader.ts), so a chat app does not carry it.
 */
export function endpointResources(client: Requester): { embeddings: Embeddings; images: Images; audio: Audio } {
  /** Runs `use` on the feature once it has loaded, the wait bounded by the call's signal and timeout. */
  const withEndpoints = (options: RequestOptions | undefined, use: (endpoints: EndpointsFeature) => Promise<Outcome<unknown>>): APIPromise<unknown> =>
    // A mistake in the options rejects (`callBounds` checks them), as every failure of the call does.
    createAPIPromise(new Promise<EndpointsFeature>((resolve) => resolve(loadEndpoints(callBounds(options, client.timeout)))).then(use));
  return {
    embeddings: {
      create: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.createEmbeddings(client, params, options)),
    } as Embeddings,
    images: {
      generate: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.generateImages(client, params, options)),
      edit: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.editImages(client, params, options)),
    } as Images,
    audio: {
      speech: { create: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.createSpeech(client, params, options)) },
      transcriptions: { create: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.createTranscription(client, params, options)) },
      translations: { create: (params: unknown, options?: RequestOptions) => withEndpoints(options, (endpoints) => endpoints.createTranslation(client, params, options)) },
    } as Audio,
  };
}
