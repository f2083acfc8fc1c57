// How many tokens a prompt may take, without a tokenizer: an estimate meant to be an upper
// bound, since a budget is kept by the worst case. Loaded lazily with the budget code.

/** Tokens an image part is counted as: providers charge 85 to about 1,600 for common sizes. */
export const IMAGE_TOKENS = 2_000;
/** Per message: the role and the separators around it. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** UTF-8 bytes per token assumed: tokenizers average about 4 for English, 3 for code, 2–3 for CJK. */
const BYTES_PER_TOKEN = 2;

const encoder = new TextEncoder();

/**
 * The prompt of a chat request, in tokens, estimated from above: the UTF-8 size of everything
 * the model reads (messages as JSON, tools, the response schema) at 2 bytes a token, 4 per
 * message, and 2,000 per image. For ordinary text that is about 2× the real count in English,
 * 1.5× in code and close to 1× in Chinese or Japanese; only unusual text (long runs of rare
 * symbols or composed emoji) can take more tokens than it says.
 */
export function estimatePromptTokens(params: Record<string, unknown>): number {
  let images = 0;
  const messages = Array.isArray(params.messages) ? params.messages : [];
  // Image data is not text the model reads: each image counts as IMAGE_TOKENS instead.
  const text = JSON.stringify([messages, params.tools ?? null, params.response_format ?? null], (key, value: unknown) => {
    if (key === "image_url") {
      images++;
      return undefined;
    }
    return value;
  });
  return Math.ceil(encoder.encode(text).length / BYTES_PER_TOKEN) + messages.length * MESSAGE_OVERHEAD_TOKENS + images * IMAGE_TOKENS;
}
