import { invalidArgument, isRecord, outcomeOf, type Outcome, type Requester } from "../../core.ts";
import { assertParams, type CallOptions } from "./checks.ts";

/** `client.images.generate()`: `POST /v1/images/generations`, the parsed JSON. */
export function generateImages(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ model, prompt }", { model: "a model id with the image_generation capability", prompt: "a non-empty string" });
  const { n } = params;
  if (n !== undefined && !(Number.isInteger(n) && (n as number) > 0)) throw invalidArgument("n", "a positive whole number", n);
  return outcomeOf(client.request({ method: "POST", path: "/v1/images/generations", body: params, options }), false);
}

/**
 * `client.audio.speech.create()`: `POST /v1/audio/speech`, resolving to the binary `Response`
 * (read it with `arrayBuffer()`, or stream its `body`): the timeout ends with the first byte of
 * audio, and the body stays under the call's signal.
 */
export function createSpeech(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ model, input, voice }", { model: "a model id with the audio_generation capability", input: "the text to speak", voice: "a voice name" });
  return outcomeOf(client.request({ method: "POST", path: "/v1/audio/speech", body: params, response: "raw", options: accepting("audio/*", options) }), true);
}

/** The `response_format`s a transcription answers in plain text rather than JSON. */
const TEXT_FORMATS: unknown[] = ["text", "srt", "vtt"];

/**
 * `client.audio.transcriptions.create()`: a multipart `POST /v1/audio/transcriptions` with a
 * web-standard `FormData`; `file` may be a `Blob`, a `File` (its name is sent) or bytes.
 * Resolves to the parsed JSON, or to the text itself for `response_format` `text`, `srt` or
 * `vtt`, which answer in plain text.
 */
export function createTranscription(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ file, model }", { model: "a model id with the audio capability" });
  const form = new FormData();
  const blob = toBlob(params.file);
  // Servers tell the format by the file name's extension: a Blob gets one from its type.
  const subtype = /^audio\/([\w.+-]+)/.exec(blob.type)?.[1];
  form.append("file", blob, params.file instanceof File ? params.file.name : `audio${subtype ? `.${subtype}` : ""}`);
  for (const [name, value] of Object.entries(params)) {
    if (name === "file" || value === undefined || value === null) continue;
    // A list goes as repeated `name[]` fields, as form-reading servers expect.
    if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, String(item));
    else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  const path = "/v1/audio/transcriptions";
  // A text answer is a whole body like JSON: read within `timeout`, and retried when cut.
  const spec = TEXT_FORMATS.includes(params.response_format) ? ({ response: "text", options: accepting("text/plain", options) } as const) : { options };
  return outcomeOf(client.request({ method: "POST", path, body: form, ...spec }), false);
}

function toBlob(file: unknown): Blob {
  if (file instanceof Blob) return file;
  if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) return new Blob([file as BlobPart]);
  throw invalidArgument("file", "a Blob, a File or bytes (an ArrayBuffer or a typed array)", file);
}

/**
 * The call's options, asking for `type` unless their headers name an `accept` themselves.
 * Options or headers that are not what they must be are passed on as they are, for the
 * pipeline to name the mistake.
 */
function accepting(type: string, options: CallOptions): CallOptions {
  if (options === undefined) return { headers: { accept: type } };
  if (!isRecord(options)) return options;
  const headers = options.headers;
  if (headers === undefined || headers === null) return { ...options, headers: { accept: type } };
  if (typeof headers !== "object") return options;
  // A `Headers` (from any realm) or pairs are iterable; a record may hold nulls, which remove.
  if (!(Symbol.iterator in headers)) return { ...options, headers: { accept: type, ...headers } };
  const copy = new Headers(headers as HeadersInit);
  if (!copy.has("accept")) copy.set("accept", type);
  return { ...options, headers: copy };
}
