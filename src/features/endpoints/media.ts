import { isRecord } from "../../internal/values.ts";
import type { Outcome } from "../../pipeline/api-promise.ts";
import { outcomeOf } from "../../pipeline/outcome-of.ts";
import type { Requester } from "../../resources/requester.ts";
import { assertParams, readOptions, type CallOptions } from "./checks.ts";
import { multipartForm } from "./form.ts";

/**
 * `client.audio.speech.create()`: `POST /v1/audio/speech`, resolving to the binary `Response`
 * (read it with `arrayBuffer()`, or stream its `body`): the timeout ends with the first byte of
 * audio, and the body stays under the call's signal.
 */
export function createSpeech(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ model, input, voice }", { model: "a model id with the audio_generation capability", input: "the text to speak", voice: "a voice name" });
  return outcomeOf(client.request({ method: "POST", path: "/v1/audio/speech", body: params, response: "raw", options: accepting("audio/*", readOptions(options)) }));
}

/** The `response_format`s a transcription answers in plain text rather than JSON. */
const TEXT_FORMATS: unknown[] = ["text", "srt", "vtt"];

/**
 * `client.audio.transcriptions.create()`: a multipart `POST /v1/audio/transcriptions` with a
 * web-standard `FormData`. `file` may be a `Blob`, a `File` (its name is sent), bytes, a
 * `Response`, or an async iterable of bytes such as a Node `fs.ReadStream` (its `path` names
 * it), read once before the first attempt. Resolves to the parsed JSON, or to the text itself
 * for `response_format` `text`, `srt` or `vtt`, which answer in plain text.
 */
export function createTranscription(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  return heard(client, "/v1/audio/transcriptions", params, options);
}

/**
 * `client.audio.translations.create()`: a multipart `POST /v1/audio/translations`, the audio's
 * speech in English; `file` and the answer as for a transcription.
 */
export function createTranslation(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  return heard(client, "/v1/audio/translations", params, options);
}

/** A transcription or translation: the same form, the same answers. */
async function heard(client: Requester, path: string, params: unknown, given: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ file, model }", { model: "a model id with the audio capability" });
  const options = readOptions(given);
  const body = await multipartForm(client, params, { file: { kind: "audio", required: true, most: 1 } }, options);
  // A text answer is a whole body like JSON: read within `timeout`, and retried when cut.
  const spec = TEXT_FORMATS.includes(params.response_format) ? ({ response: "text", options: accepting("text/plain", options) } as const) : { options };
  return outcomeOf(client.request({ method: "POST", path, body, ...spec }));
}

/**
 * The call's options (as `readOptions` read them: a copy, never the caller's object), asking for `type` unless their headers name an
 * `accept` themselves. Options or headers that are not what they must be are passed on as they
 * are, for the pipeline to name the mistake.
 */
export function accepting(type: string, options: CallOptions): CallOptions {
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
