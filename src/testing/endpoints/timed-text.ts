import { hash } from "../random.ts";

/** A word the mock "heard", with when it was said, in seconds from the start of the audio. */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** A sentence the mock "heard": its words and when it starts and ends. */
export interface TimedSentence {
  text: string;
  start: number;
  end: number;
  words: TimedWord[];
}

/** Seconds before the first word: recordings rarely start on a syllable. */
const LEAD_IN = 0.2;
/** Seconds of a word: a base and a little more per letter, so long words last longer. */
const WORD_BASE = 0.12;
const WORD_PER_CHARACTER = 0.05;
/** Seconds of silence between words and between sentences. */
const WORD_GAP = 0.06;
const SENTENCE_GAP = 0.4;

/**
 * Times `sentences` as speech at a steady pace (about three words a second), each word's
 * length growing with its letters. Times are rounded to the millisecond, which both subtitle
 * formats write, so what `verbose_json` says and what `srt` or `vtt` say agree exactly.
 */
export function timeSentences(sentences: readonly string[]): TimedSentence[] {
  let clock = LEAD_IN;
  return sentences.map((text, index) => {
    if (index > 0) clock += SENTENCE_GAP;
    const words = text.split(/\s+/).filter(Boolean).map((word, at) => {
      if (at > 0) clock += WORD_GAP;
      const start = milliseconds(clock);
      clock += WORD_BASE + WORD_PER_CHARACTER * word.length;
      return { word, start, end: milliseconds(clock) };
    });
    return { text, start: words[0]?.start ?? milliseconds(clock), end: words.at(-1)?.end ?? milliseconds(clock), words };
  });
}

/** The audio's length: the last word's end and a moment of silence after it. */
export function spokenDuration(sentences: readonly TimedSentence[]): number {
  return milliseconds((sentences.at(-1)?.end ?? 0) + LEAD_IN);
}

/**
 * The sentences as SubRip subtitles: numbered cues from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`
 * (a comma before the milliseconds, as SRT has it), the text, and a blank line after each.
 */
export function toSRT(sentences: readonly TimedSentence[]): string {
  return sentences.map((sentence, index) => `${index + 1}\n${timestamp(sentence.start, ",")} --> ${timestamp(sentence.end, ",")}\n${sentence.text}\n\n`).join("");
}

/**
 * The sentences as WebVTT: the `WEBVTT` signature line and a blank line, then per cue
 * `HH:MM:SS.mmm --> HH:MM:SS.mmm` (a full stop before the milliseconds, as VTT requires), the
 * text, and a blank line.
 */
export function toVTT(sentences: readonly TimedSentence[]): string {
  return `WEBVTT\n\n${sentences.map((sentence) => `${timestamp(sentence.start, ".")} --> ${timestamp(sentence.end, ".")}\n${sentence.text}\n\n`).join("")}`;
}

/**
 * The sentences as `verbose_json` segments, with the fields OpenAI's `TranscriptionSegment`
 * requires. `tokens` are made-up ids, one a word, stable for a word; the quality figures are
 * those of a clear recording. The text starts with a space, as Whisper's segments do.
 */
export function toSegments(sentences: readonly TimedSentence[], temperature: number) {
  return sentences.map((sentence, id) => ({
    id,
    seek: 0,
    start: sentence.start,
    end: sentence.end,
    text: ` ${sentence.text}`,
    tokens: sentence.words.map(({ word }) => 1_000 + (hash(word) % 49_000)),
    temperature,
    avg_logprob: -0.25,
    compression_ratio: 1.2,
    no_speech_prob: 0.01,
  }));
}

function milliseconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** `HH:MM:SS` and the milliseconds after `separator`. */
function timestamp(seconds: number, separator: "," | "."): string {
  const total = Math.round(seconds * 1000);
  const two = (value: number) => String(value).padStart(2, "0");
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const secs = Math.floor(total / 1000) % 60;
  return `${two(hours)}:${two(minutes)}:${two(secs)}${separator}${String(total % 1000).padStart(3, "0")}`;
}
