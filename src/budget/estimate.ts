// How many tokens a prompt may take, without a tokenizer: an estimate meant to be an upper
// bound, since a budget is kept by the worst case. Loaded lazily with the budget code.

/** Tokens an image part is counted as: providers charge 85 to about 1,600 for common sizes. */
export const IMAGE_TOKENS = 2_000;
/** Per message: the role and the separators around it. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/**
 * UTF-8 bytes per token assumed: one. Byte-level BPE tokenizers (GPT, Llama 3, and the
 * byte-fallback SentencePiece ones) never make more than one token of a byte, so this is an
 * upper bound whatever the text; averages are about 4 bytes for English and 3 for code.
 */
const BYTES_PER_TOKEN = 1;

const encoder = new TextEncoder();

/**
 * The prompt of a chat request, in tokens, estimated from above: the UTF-8 size of everything
 * the model reads (messages as JSON, tools, the response schema) at one token a byte, 4 per
 * message, and 2,000 per image. For a byte-level tokenizer the text part is never below the
 * real count (it is about 4× the real count in English, 3× in code, 1–2× in other scripts);
 * an image can take more than 2,000 tokens on some vision models.
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
