import { isRecord } from "../../internal/values.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { modelFor } from "../catalogue/lookup.ts";
import { hash, mulberry32, pick } from "../random.ts";
import { mockPCM16, mockWAV } from "../media/wav.ts";

/** The longest text the speech endpoint reads, as OpenAI limits it. */
const MAX_SPEECH_CHARACTERS = 4_096;

/** What the mock "hears" in an uploaded file. */
const HEARD = [
  "Thanks for calling, this is a test recording.",
  "The weather today is mild with a light breeze.",
  "Please remember to save your work before you leave.",
  "The meeting moves to Thursday at ten.",
  "Let's go over the numbers one more time.",
  "Every word of this transcript was made up by the mock gateway.",
];

/**
 * `POST /v1/audio/speech` `{ model, input, voice, response_format? }` from a model with
 * `audio_generation`: the binary audio, the mock's valid WAV (`audio/wav`, the default here,
 * where OpenAI's is mp3) or its raw samples with `response_format: "pcm"` (`audio/pcm`,
 * 16-bit little-endian mono at 8 kHz). Other formats are refused rather than mislabelled.
 */
export function serveSpeech(params: unknown, catalogue: readonly MockModel[]): Response {
  if (!isRecord(params)) throw new RequestRejected("The request body must be a JSON object.", null);
  modelFor(catalogue, params.model, "audio_generation", "/v1/audio/speech");
  const { input, voice } = params;
  if (typeof input !== "string" || input === "" || input.length > MAX_SPEECH_CHARACTERS) {
    throw new RequestRejected(`\`input\` must be the text to speak: 1 to ${MAX_SPEECH_CHARACTERS} characters.`, "input");
  }
  if (!(typeof voice === "string" || (isRecord(voice) && typeof voice.id === "string"))) {
    throw new RequestRejected("`voice` must be a voice name, or `{ id }` of a custom voice.", "voice");
  }
  const format = params.response_format ?? "wav";
  if (format === "wav") return new Response(mockWAV(), { headers: { "content-type": "audio/wav" } });
  if (format === "pcm") return new Response(mockPCM16(), { headers: { "content-type": "audio/pcm" } });
  throw new RequestRejected(`The mock gateway writes speech as wav or pcm only, not ${String(format)}.`, "response_format");
}

/**
 * `POST /v1/audio/transcriptions`, a multipart form with `file` (the audio), `model` (one with
 * `audio`), and optional `language` and `response_format` (`json`, the default, or `text`):
 * `{ text }`, or the text alone. The text is a sentence or two drawn from the file's name and
 * size, so the same upload always reads the same and another upload differently; `language`
 * is accepted and changes nothing.
 */
export function serveTranscription(form: FormData | undefined, catalogue: readonly MockModel[]): Response {
  if (!form) {
    throw new RequestRejected("Send a multipart/form-data form with the audio as `file` and a `model`.", null);
  }
  const file = form.get("file");
  if (file === null || typeof file === "string") {
    throw new RequestRejected("`file` is required: the audio to transcribe, as a file field of the form.", "file");
  }
  modelFor(catalogue, form.get("model"), "audio", "/v1/audio/transcriptions");
  const format = form.get("response_format") ?? "json";
  if (format !== "json" && format !== "text") throw new RequestRejected('`response_format` must be "json" or "text".', "response_format");
  const name = "name" in file && typeof file.name === "string" ? file.name : "blob";
  const random = mulberry32(hash(`${name}:${file.size}`));
  const text = Array.from({ length: 1 + (file.size % 2) }, () => pick(HEARD, random)).join(" ");
  if (format === "text") return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
  return Response.json({ text });
}
