import { isRecord } from "../../internal/values.ts";
import type { ChatCompletionChunk } from "../../types/chat-completion.ts";
import type { ChatCompletionMessageParam } from "../../types/chat-params.ts";

/*
 * openai's frame for a message of a tool run on the bridge (its streaming runner's
 * `toReadableStream()` writes one for each tool message): a chunk without choices whose
 * `object` carries the message, so a reader that knows no frames (an older SDK, a plain
 * `Stream`) skips it as an empty chunk, and one that knows them rebuilds `messages`:
 *
 *   {"id":"chatcmpl-1","choices":[],"created":1,"model":"m",
 *    "object":"chat.completion.chunk.message:{\"type\":\"message\",\"message\":{\"role\":\"tool\",...},\"tool_call_ids\":[\"call_1\"]}"}
 *
 * `tool_call_ids` are the ids of the calls of the assistant turn before it, in call order: the
 * reader puts them on the calls it assembled from the chunks (a provider that sent no ids got
 * made-up ones in the run, which the tool messages answer). Written and read in this one place,
 * in openai's exact format, so openai's reader and ours read each other's bodies.
 */

const PREFIX = "chat.completion.chunk.message:";

/** The frame of `message`, after `last` (the step's last chunk, whose id, time and model it repeats). */
export function messageFrame(last: ChatCompletionChunk, message: ChatCompletionMessageParam, toolCallIDs: string[] | undefined): ChatCompletionChunk {
  const payload = { type: "message", message, ...(toolCallIDs ? { tool_call_ids: toolCallIDs } : {}) };
  return { id: last.id, choices: [], created: last.created, model: last.model, object: `${PREFIX}${JSON.stringify(payload)}` } as unknown as ChatCompletionChunk;
}

/** What a frame carries; `undefined` for a chunk that is no frame (openai's reader takes `{ type: "message", message }` items as frames too). */
export function readMessageFrame(item: unknown): { message: ChatCompletionMessageParam; toolCallIDs: unknown[] | undefined } | undefined {
  if (!isRecord(item)) return undefined;
  let payload: unknown = item;
  if (typeof item.object === "string" && item.object.startsWith(PREFIX)) {
    try {
      payload = JSON.parse(item.object.slice(PREFIX.length));
    } catch {
      // Not openai's frame after all: read as the chunk it looks like.
      return undefined;
    }
  }
  if (!isRecord(payload) || payload.type !== "message" || !isRecord(payload.message)) return undefined;
  return { message: payload.message as unknown as ChatCompletionMessageParam, toolCallIDs: Array.isArray(payload.tool_call_ids) ? payload.tool_call_ids : undefined };
}
