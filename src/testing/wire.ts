import type { ChatCompletion, ChatCompletionChunk } from "../types/index.ts";
import { mulberry32 } from "./random.ts";
import type { ReplyPlan } from "./replies.ts";

/** The plan as a non-streamed `ChatCompletion`. */
export function toCompletion(plan: ReplyPlan): ChatCompletion {
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    provider: plan.provider,
    choices: plan.choices.map((choice) => ({
      index: choice.index,
      message: {
        role: "assistant",
        content: choice.text,
        ...(choice.refusal === undefined ? {} : { refusal: choice.refusal }),
        ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
      },
      finish_reason: choice.finishReason,
    })),
    usage: plan.usage,
  };
}

type ChunkChoice = ChatCompletionChunk["choices"][number];

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
 */
export function toChunks(plan: ReplyPlan, includeUsage: boolean, seed: number): ChatCompletionChunk[] {
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
    const deltas: ChunkChoice[] = [{ index, delta: { role: "assistant", content: choice.refusal === undefined ? "" : null }, finish_reason: null }];
    if (choice.text !== null) {
      const pieces = choice.json ? jsonPieces(choice.text, random) : wordPieces(choice.text, random);
      for (const piece of pieces) deltas.push({ index, delta: { content: piece }, finish_reason: null });
    }
    if (choice.refusal !== undefined) for (const piece of wordPieces(choice.refusal, random)) deltas.push({ index, delta: { refusal: piece }, finish_reason: null });
    choice.toolCalls.forEach((call, callIndex) => {
      const opening = { index: callIndex, id: call.id, type: "function" as const, function: { name: call.function.name, arguments: "" } };
      deltas.push({ index, delta: { tool_calls: [opening] }, finish_reason: null });
      const args = call.function.arguments;
      for (const fragment of choice.json ? jsonPieces(args, random) : characterPieces(args, 2 + Math.floor(random() * 3))) {
        deltas.push({ index, delta: { tool_calls: [{ index: callIndex, function: { arguments: fragment } }] }, finish_reason: null });
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
