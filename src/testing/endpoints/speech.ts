import { isRecord } from "../../internal/values.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { modelFor } from "../catalogue/lookup.ts";
import { mockPCM16, mockWAV } from "../media/wav.ts";

/** The longest text the speech endpoint reads, as OpenAI limits it. */
const MAX_SPEECH_CHARACTERS = 4_096;

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
