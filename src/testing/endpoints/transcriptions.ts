import { modelFor } from "../catalogue/lookup.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { hash, mulberry32 } from "../random.ts";
import { spokenDuration, timeSentences, toSegments, toSRT, toVTT } from "./timed-text.ts";

/** What the mock "hears" in an uploaded file (already in English, so a translation reads the same way). */
const HEARD = [
  "Thanks for calling, this is a test recording.",
  "The weather today is mild with a light breeze.",
  "Please remember to save your work before you leave.",
  "The meeting moves to Thursday at ten.",
  "Let's go over the numbers one more time.",
  "Every word of this transcript was made up by the mock gateway.",
];

/** The `response_format`s both endpoints answer in, as OpenAI documents them. */
const FORMATS = ["json", "verbose_json", "text", "srt", "vtt"];

/** The language `verbose_json` names for an ISO-639-1 `language`: OpenAI writes it out in English. */
const LANGUAGES: Record<string, string> = {
  en: "english",
  de: "german",
  es: "spanish",
  fr: "french",
  it: "italian",
  ja: "japanese",
  nl: "dutch",
  pt: "portuguese",
  zh: "chinese",
};

/**
 * OpenAI answers `text`, `srt` and `vtt` alike as `text/plain; charset=utf-8` (what its API
 * sends, though its OpenAPI description lists only JSON), so a client must not rely on
 * `text/vtt` or `application/x-subrip`.
 */
const PLAIN_TEXT = { "content-type": "text/plain; charset=utf-8" };

type Task = "transcribe" | "translate";

/**
 * `POST /v1/audio/transcriptions`, a multipart form with `file` (the audio), `model` (one with
 * `audio`), and optional `language`, `prompt`, `temperature`, `timestamp_granularities[]` and
 * `response_format`: `json` (the default, `{ text }`), `verbose_json` (`{ task, language,
 * duration, text, segments, usage }`, and `words` when the granularities ask for `word`),
 * `text` (the text alone), `srt` or `vtt` (subtitles, one cue a sentence). The text is a
 * sentence or two drawn from the file's name and size, so the same upload always reads the
 * same and another upload differently; the times are those of speech at a steady pace, the
 * same in every format.
 */
export function serveTranscription(form: FormData | undefined, catalogue: readonly MockModel[]): Response {
  return serveHeard("transcribe", form, catalogue);
}

/**
 * `POST /v1/audio/translations`: the same form as a transcription (without `language` and
 * `timestamp_granularities`) and the same formats, answered in English: `verbose_json` is
 * `{ task: "translate", language: "english", duration, text, segments }`. The text is drawn as
 * a transcription's is, from a seed of its own.
 */
export function serveTranslation(form: FormData | undefined, catalogue: readonly MockModel[]): Response {
  return serveHeard("translate", form, catalogue);
}

function serveHeard(task: Task, form: FormData | undefined, catalogue: readonly MockModel[]): Response {
  const endpoint = task === "transcribe" ? "/v1/audio/transcriptions" : "/v1/audio/translations";
  if (!form) {
    throw new RequestRejected("Send a multipart/form-data form with the audio as `file` and a `model`.", null);
  }
  const file = form.get("file");
  if (file === null || typeof file === "string") {
    throw new RequestRejected(`\`file\` is required: the audio to ${task}, as a file field of the form.`, "file");
  }
  modelFor(catalogue, form.get("model"), "audio", endpoint);
  const format = form.get("response_format") ?? "json";
  if (typeof format !== "string" || !FORMATS.includes(format)) {
    throw new RequestRejected(`\`response_format\` must be one of ${FORMATS.map((name) => `"${name}"`).join(", ")}.`, "response_format");
  }
  const temperature = numberField(form, "temperature", 0, 1) ?? 0;
  const granularities = task === "transcribe" ? timestampGranularities(form) : ["segment"];

  const name = "name" in file && typeof file.name === "string" ? file.name : "blob";
  // Transcriptions keep the seed they always had, so their texts do not change.
  const random = mulberry32(hash(task === "transcribe" ? `${name}:${file.size}` : `translate:${name}:${file.size}`));
  const sentences = timeSentences(heard(1 + (file.size % 2), random));
  const text = sentences.map((sentence) => sentence.text).join(" ");

  if (format === "text") return new Response(text, { headers: PLAIN_TEXT });
  if (format === "srt") return new Response(toSRT(sentences), { headers: PLAIN_TEXT });
  if (format === "vtt") return new Response(toVTT(sentences), { headers: PLAIN_TEXT });
  if (format === "json") return Response.json({ text });
  const duration = spokenDuration(sentences);
  const language = task === "translate" ? "english" : spokenLanguage(form.get("language"));
  return Response.json({
    task,
    language,
    duration,
    text,
    ...(granularities.includes("word") ? { words: sentences.flatMap((sentence) => sentence.words) } : {}),
    ...(granularities.includes("segment") ? { segments: toSegments(sentences, temperature) } : {}),
    // Billed by the second of audio, as OpenAI bills its Whisper transcriptions.
    ...(task === "transcribe" ? { usage: { type: "duration", seconds: Math.ceil(duration) } } : {}),
  });
}

/** `count` different sentences of `HEARD`, in the order `random` draws them. */
function heard(count: number, random: () => number): string[] {
  const left = [...HEARD];
  return Array.from({ length: count }, () => left.splice(Math.floor(random() * left.length), 1)[0]!);
}

/**
 * `timestamp_granularities[]` (or without the brackets), each `word` or `segment`; `segment`
 * alone when none is sent, OpenAI's default. They shape `verbose_json` only; other formats
 * ignore them.
 */
function timestampGranularities(form: FormData): string[] {
  const given = [...form.getAll("timestamp_granularities[]"), ...form.getAll("timestamp_granularities")];
  for (const value of given) {
    if (value !== "word" && value !== "segment") {
      throw new RequestRejected('Each of `timestamp_granularities` must be "word" or "segment".', "timestamp_granularities");
    }
  }
  return given.length > 0 ? (given as string[]) : ["segment"];
}

/** A number field of the form between `min` and `max`, `undefined` when absent; a 400 naming it otherwise. */
function numberField(form: FormData, name: string, min: number, max: number): number | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new RequestRejected(`\`${name}\` must be a number from ${min} to ${max}.`, name);
  return number;
}

/** The spoken language as `verbose_json` names it: from `language` when the mock knows the code, else English. */
function spokenLanguage(code: FormDataEntryValue | null): string {
  const key = typeof code === "string" ? code.toLowerCase() : "";
  return Object.hasOwn(LANGUAGES, key) ? LANGUAGES[key]! : "english";
}
