import type { ChatCompletionChunk } from "../types/chat-completion.ts";
import { isRecord } from "../internal/values.ts";

/**
 * The non-empty `delta[field]` texts of choice 0: `textStream` (`"content"`) and
 * `reasoningStream` (`"reasoning"`).
 */
export async function* deltaTexts(chunks: AsyncIterable<ChatCompletionChunk>, field: "content" | "reasoning"): AsyncGenerator<string, void, undefined> {
  for await (const chunk of chunks) {
    // A stream of the SDK's own never yields a non-object, but a rebuilt one may.
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) continue;
    for (const choice of chunk.choices) {
      const index = typeof choice?.index === "number" ? choice.index : 0;
      const text = choice?.delta?.[field];
      if (index === 0 && typeof text === "string" && text !== "") yield text;
    }
  }
}
