import { loadEndpoints } from "../loader.ts";
import { createAPIPromise, type APIPromise } from "../pipeline/api-promise.ts";
import type { RequestOptions } from "../pipeline/options.ts";
import type {
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  ImageGenerateParams,
  ImagesResponse,
  SpeechCreateParams,
  Transcription,
  TranscriptionCreateParams,
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
  create(params: EmbeddingCreateParams & { encoding_format?: "float" | undefined }, options?: RequestOptions): APIPromise<CreateEmbeddingResponse>;
}

/** `client.images`: `POST /v1/images/generations`. */
export interface Images {
  /** Generates images from a prompt; resolves to the parsed JSON (`data[].url` or `data[].b64_json`). */
  generate(params: ImageGenerateParams, options?: RequestOptions): APIPromise<ImagesResponse>;
}

/** `client.audio`: speech and transcription. */
export interface Audio {
  speech: {
    /**
     * Speaks `input`: resolves to the binary `Response` (`await response.arrayBuffer()`, or
     * stream `response.body`), under the call's timeout (until the first byte) and signal.
     */
    create(params: SpeechCreateParams, options?: RequestOptions): APIPromise<Response>;
  };
  transcriptions: {
    /**
     * Transcribes `file` (a `Blob`, `File` or bytes), sent as a multipart form; resolves to
     * the parsed JSON, or to the text itself for `response_format` `"text"`, `"srt"` or `"vtt"`.
     */
    create(params: TranscriptionCreateParams & { response_format: "text" | "srt" | "vtt" }, options?: RequestOptions): APIPromise<string>;
    create(params: TranscriptionCreateParams & { response_format?: "json" | "verbose_json" | undefined }, options?: RequestOptions): APIPromise<Transcription>;
  };
}

type Endpoint = "createEmbeddings" | "generateImages" | "createSpeech" | "createTranscription";

/**
 * The endpoints beside chat. Each method only delegates: the code that checks params and
 * shapes answers loads on the first call (see src/loader.ts), so a chat app does not carry it.
 */
export function endpointResources(client: Requester): { embeddings: Embeddings; images: Images; audio: Audio } {
  const endpoint = (name: Endpoint) => (params: unknown, options?: RequestOptions) =>
    createAPIPromise(loadEndpoints().then((endpoints) => endpoints[name](client, params, options)));
  return {
    embeddings: { create: endpoint("createEmbeddings") } as Embeddings,
    images: { generate: endpoint("generateImages") } as Images,
    audio: { speech: { create: endpoint("createSpeech") }, transcriptions: { create: endpoint("createTranscription") } } as Audio,
  };
}
