import type { ChatCompletion, ChatCompletionChunk, ChatCompletionChunkDelta, ChatCompletionMessage } from "../../types/index.ts";
import { audioFragments, type AudioFragment, type PlannedAudio } from "./beyond-text.ts";
import type { StreamScript } from "../http/event-stream.ts";
import { streamError } from "../http/faults.ts";
import { mulberry32 } from "../random.ts";
import type { PlannedChoice, ReplyPlan } from "./replies.ts";

/** How the answer is spelled, where providers differ. */
export interface WireOptions {
  /** The field of the reasoning text: ModelGate's `reasoning`, or `reasoning_content` as DeepSeek and others write it. */
  reasoningField: "reasoning" | "reasoning_content";
}

/** ModelGate's fields of a message beyond the OpenAI-style types. */
interface BeyondText {
  reasoning?: string;
  reasoning_content?: string;
  images?: { type: "image_url"; image_url: { url: string } }[];
  videos?: { type: "video_url"; video_url: { url: string } }[];
}

/** The plan as a non-streamed `ChatCompletion`, as the wire carries it (the SDK adds `gateway`). */
export function toCompletion(plan: ReplyPlan, options: WireOptions): Omit<ChatCompletion, "gateway"> {
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    provider: plan.provider,
    choices: plan.choices.map((choice) => {
      const message: ChatCompletionMessage & BeyondText & { audio?: PlannedAudio } = {
        role: "assistant",
        content: choice.text,
        ...(choice.refusal === undefined ? {} : { refusal: choice.refusal }),
        ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
        ...(choice.audio ? { audio: choice.audio } : {}),
        ...beyondText(choice, options),
      };
      return { index: choice.index, message, finish_reason: choice.finishReason };
    }),
    usage: plan.usage,
  };
}

/** The reasoning (unless excluded), images and videos of a choice, as a message holds them (and a delta, each whole). */
function beyondText(choice: PlannedChoice, options: WireOptions): BeyondText {
  const fields: BeyondText = {};
  if (choice.reasoning?.shown) fields[options.reasoningField] = choice.reasoning.text;
  if (choice.images) fields.images = choice.images.map((url) => ({ type: "image_url", image_url: { url } }));
  if (choice.videos) fields.videos = choice.videos.map((url) => ({ type: "video_url", video_url: { url } }));
  return fields;
}

type ChunkChoice = Omit<ChatCompletionChunk["choices"][number], "delta"> & { delta: ChatCompletionChunkDelta & BeyondText & { audio?: AudioFragment } };

/**
 * The plan as the chunks a provider streams: per choice a role chunk (`content: ""`), the
 * text in pieces of one to three words, each tool call as a first fragment (index, id, type,
 * name, empty arguments) followed by its arguments in two to four pieces, then a chunk with
 * the finish reason. Generated JSON (text or arguments) comes in pieces of two to six
 * characters instead, so a client sees it partial across many chunks, as it would from a
 * model; a refusal comes as `delta.refusal` pieces after a role chunk with `content: null`.
 * With `n` > 1 the choices are interleaved, one chunk each in turn, as providers do. A
 * usage-only chunk (`choices: []`) ends the list when `includeUsage`. The split depends only
 * on `seed`, so one request always streams the same bytes.
 *
 * Beyond text: reasoning comes first, in pieces of words (`delta.reasoning`, or
 * `reasoning_content` as `options` says); each image, and each video, whole in one chunk
 * after the text; speech as `delta.audio` fragments (see `audioFragments`) after a role chunk
 * with `content: null`.
 */
export function toChunks(plan: ReplyPlan, includeUsage: boolean, seed: number, options: WireOptions): ChatCompletionChunk[] {
  const chunk = (choices: ChunkChoice[]): ChatCompletionChunk => ({
    id: plan.id,
    object: "chat.completion.chunk",
    created: plan.created,
    model: plan.model,
    provider: plan.provider,
    choices,
  });
  const perChoice = plan.choices.map((choice) => {
    const random = mulberry32(seed + choice.index);
    const { index } = choice;
    const deltas: ChunkChoice[] = [{ index, delta: { role: "assistant", content: choice.refusal !== undefined || choice.audio ? null : "" }, finish_reason: null }];
    const add = (delta: ChunkChoice["delta"]) => deltas.push({ index, delta, finish_reason: null });
    if (choice.reasoning?.shown) for (const piece of wordPieces(choice.reasoning.text, random)) add({ [options.reasoningField]: piece });
    if (choice.text !== null) {
      const pieces = choice.json ? jsonPieces(choice.text, random) : wordPieces(choice.text, random);
      for (const piece of pieces) add({ content: piece });
    }
    if (choice.refusal !== undefined) for (const piece of wordPieces(choice.refusal, random)) add({ refusal: piece });
    const { images, videos } = beyondText(choice, options);
    for (const image of images ?? []) add({ images: [image] });
    for (const video of videos ?? []) add({ videos: [video] });
    if (choice.audio) for (const fragment of audioFragments(choice.audio, wordPieces(choice.audio.transcript, random))) add({ audio: fragment });
    choice.toolCalls.forEach((call, callIndex) => {
      const opening = { index: callIndex, id: call.id, type: "function" as const, function: { name: call.function.name, arguments: "" } };
      add({ tool_calls: [opening] });
      const args = call.function.arguments;
      for (const fragment of choice.json ? jsonPieces(args, random) : characterPieces(args, 2 + Math.floor(random() * 3))) {
        add({ tool_calls: [{ index: callIndex, function: { arguments: fragment } }] });
      }
    });
    deltas.push({ index, delta: {}, finish_reason: choice.finishReason });
    return deltas;
  });

  const chunks: ChatCompletionChunk[] = [];
  const longest = Math.max(...perChoice.map((deltas) => deltas.length));
  for (let step = 0; step < longest; step++) {
    for (const deltas of perChoice) if (step < deltas.length) chunks.push(chunk([deltas[step]!]));
  }
  if (includeUsage) chunks.push({ ...chunk([]), usage: plan.usage });
  return chunks;
}

/**
 * `chunks` as a chat stream: each a `data:` event, `data: [DONE]` last. A `stream-error`
 * fault is reported as providers do, by a chunk carrying `error: { code, message }` with
 * `finish_reason: "error"` (`as: "chunk"`), or by an `event: error` frame (`as: "event"`).
 */
export function chunkStream(chunks: readonly ChatCompletionChunk[]): StreamScript {
  return {
    events: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
    done: true,
    errorFrame(fault) {
      const error = streamError(fault);
      if (fault.as === "event") return `event: error\ndata: ${JSON.stringify({ error })}\n\n`;
      const chunk = { ...chunks[0]!, choices: [{ index: 0, delta: {}, finish_reason: "error" }], error };
      return `data: ${JSON.stringify(chunk)}\n\n`;
    },
  };
}

/** Pieces of one to three words, each keeping the spaces that follow it, as tokenisers emit them. */
function wordPieces(text: string, random: () => number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text === "" ? [] : [text]);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; ) {
    const take = 1 + Math.floor(random() * 3);
    pieces.push(words.slice(i, i + take).join(""));
    i += take;
  }
  return pieces;
}

/** Pieces of two to six characters, the size of the tokens a model writes JSON in. */
function jsonPieces(text: string, random: () => number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 2 + Math.floor(random() * 5);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** `text` in at most `parts` pieces of about equal length (fewer when it is shorter). */
function characterPieces(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}
