import type { ChatCompletionCreateParamsBase, ModelCapability } from "../../types/index.ts";
import { toBase64 } from "../media/base64.ts";
import { pngDataURL } from "../media/png.ts";
import { mockPCM16, mockWAV } from "../media/wav.ts";

/** What a chat reply holds besides (or instead of) its text. */
export type ReplyOutput = "text" | "image" | "audio" | "video";

/** A spoken reply: `message.audio` as the gateway sends it. */
export interface PlannedAudio {
  id: string;
  /** Base64 of the audio in `format`. */
  data: string;
  transcript: string;
  format: string;
  /** Unix time in seconds after which the audio cannot be referred to. */
  expires_at: number;
}

/** One `delta.audio` of a stream. */
export type AudioFragment = Partial<Omit<PlannedAudio, "format">>;

/** The audio formats the mock can write; asked for another, it refuses (see `unsupportedFeature`). */
export const AUDIO_FORMATS_WRITTEN = ["wav", "pcm16"];

/**
 * What the model answers with: speech when `modalities` asks for audio, an image when it asks
 * for image, a video from a video model (asked or not: it is what such a model makes), else
 * text. Routing has made sure the model can (see `unsupportedFeature`).
 */
export function replyOutput(params: ChatCompletionCreateParamsBase, capabilities: readonly ModelCapability[]): ReplyOutput {
  const modalities: readonly string[] = params.modalities ?? [];
  if (modalities.includes("audio")) return "audio";
  if (modalities.includes("image")) return "image";
  if (capabilities.includes("video_generation")) return "video";
  return "text";
}

/** The short text beside an image or a video, quoting what the user asked for. */
export function caption(output: "image" | "video", userText: string): string {
  const topic = userText.trim().split(/\s+/).slice(0, 8).join(" ");
  return topic ? `Here is the ${output} you asked for: "${topic}".` : `Here is your ${output}.`;
}

/** The generated image: always the mock's small PNG, as a `data:` URL. */
export function generatedImage(): string {
  return pngDataURL();
}

/** Where a generated video can be fetched; `number` counts the gateway's videos from 1. */
export function videoURL(number: number): string {
  return `https://mock.modelgate.invalid/videos/${number}.mp4`;
}

/** A spoken `transcript`: the mock's tone as WAV (or as raw samples for `pcm16`), with a random-looking id. */
export function spokenReply(transcript: string, format: string, random: () => number, created: number): PlannedAudio {
  const bytes = format === "pcm16" ? mockPCM16() : mockWAV();
  const id = `audio_${Math.floor(random() * 2 ** 32).toString(16).padStart(8, "0")}`;
  // An hour, as OpenAI keeps a spoken reply for follow-up turns.
  return { id, data: toBase64(bytes), transcript, format, expires_at: created + 3_600 };
}

/**
 * The reply as `delta.audio` fragments, as OpenAI streams them: the id first, then pieces of
 * the transcript and of the data in turn, `expires_at` last. `format` is in none of them:
 * a client must take it from the request's `audio.format`. Each data piece is a whole number
 * of base64 quads, so it decodes on its own, as a player that starts early needs.
 */
export function audioFragments(audio: PlannedAudio, transcriptPieces: readonly string[]): AudioFragment[] {
  const size = Math.max(4, Math.ceil(audio.data.length / 16) * 4);
  const dataPieces: string[] = [];
  for (let at = 0; at < audio.data.length; at += size) dataPieces.push(audio.data.slice(at, at + size));
  const fragments: AudioFragment[] = [{ id: audio.id }];
  for (let i = 0; i < Math.max(transcriptPieces.length, dataPieces.length); i++) {
    if (i < transcriptPieces.length) fragments.push({ transcript: transcriptPieces[i]! });
    if (i < dataPieces.length) fragments.push({ data: dataPieces[i]! });
  }
  fragments.push({ expires_at: audio.expires_at });
  return fragments;
}
