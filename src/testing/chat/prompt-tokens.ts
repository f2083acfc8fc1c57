import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";

/**
 * The mock's count of a chat prompt's tokens: the characters of the messages' text (string
 * contents and text parts; images, audio and tool calls count nothing), four to a token, the
 * usual rule of thumb. The one count the mock routes, bills and reports `prompt_tokens` by.
 * Not the SDK's budget estimate (`src/budget/`), which is an upper bound and counts bytes.
 */
export function mockPromptTokens(params: ChatCompletionCreateParamsBase): number {
  let characters = 0;
  for (const message of params.messages) {
    const { content } = message;
    if (typeof content === "string") characters += content.length;
    else if (Array.isArray(content)) for (const part of content) if (part.type === "text") characters += part.text.length;
  }
  return Math.ceil(characters / 4);
}
