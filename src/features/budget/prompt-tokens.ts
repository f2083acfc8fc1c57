// How many tokens a prompt may take, without a tokenizer. A budget is kept by the worst
// case, so this is a bound from above, never a guess: every allowance below is at least what
// the providers publish for what it stands for.
import { ModelGateError } from "../../errors/index.ts";
import { isRecord } from "../../internal/values.ts";

/**
 * UTF-8 bytes per token assumed: one. Byte-level BPE tokenizers (GPT, Llama 3, and the
 * byte-fallback SentencePiece ones) never make more than one token of a byte, so this bounds
 * the text whatever it is; real averages are about 4 bytes a token for English, 3 for code.
 */
const BYTES_PER_TOKEN = 1;
/** Per message: the role and the separators a chat template puts around it. */
export const MESSAGE_TOKENS = 4;
/**
 * Per image part (its URL or data is not counted: the model reads pixels, not the URL). The
 * largest counts published for one image: 3,779 on GPT-4.1 nano (1,536 patches × 2.46),
 * about 1,600 on Claude, 4,128 on Gemini 2.x (16 tiles of 258).
 */
export const IMAGE_TOKENS = 6_000;
/**
 * Per file part (a PDF by `file_id`, or its bytes in `file_data`, which count as text on top):
 * the most pages OpenAI and Anthropic read from one file (100), at up to 3,000 tokens a page
 * (its text and its picture); Gemini reads up to 1,000 pages at 258. Like the whole prompt,
 * it never counts for more than the model's context (see `promptTokensOn`).
 */
export const FILE_TOKENS = 300_000;
/**
 * Once per request with `tools`: the instructions a provider adds to explain tool use
 * (Anthropic publishes 313 to 346 tokens for Claude's), beyond the tools' own JSON.
 */
export const TOOL_USE_TOKENS = 1_000;

const encoder = new TextEncoder();

/**
 * The fields beside `messages` whose text the model reads: the tools it may call (and the
 * legacy `functions`), which one it must call (`tool_choice`, `function_call`: a forced
 * call's name is put in the prompt), the response format (its schema), and Predicted
 * Outputs' `prediction` (processed with the prompt).
 */
const READ_FIELDS = ["tools", "functions", "tool_choice", "function_call", "response_format", "prediction"] as const;

/**
 * The most tokens the prompt of a chat request may take: one token per UTF-8 byte of every
 * part the model reads (each message as JSON, audio data included; every field of
 * `READ_FIELDS`), plus `MESSAGE_TOKENS` per message, `IMAGE_TOKENS` per image, `FILE_TOKENS`
 * per file and `TOOL_USE_TOKENS` when tools (or functions) are offered. For text it runs
 * about 4× high in English, 3× in code, 1–2× in other scripts; audio sent as base64 counts
 * far higher than it is.
 */
export function promptTokensAtMost(params: Record<string, unknown>): number {
  let images = 0;
  let files = 0;
  const messages: unknown[] = Array.isArray(params.messages) ? params.messages : [];
  const parts = (_key: string, value: unknown): unknown => {
    if (!isRecord(value)) return value;
    if (value.type === "image_url" && "image_url" in value) {
      images++;
      // The image is counted as IMAGE_TOKENS; its URL or base64 data is not text the model reads.
      return { type: "image_url" };
    }
    if (value.type === "file" && "file" in value) files++;
    return value;
  };
  const offered = (field: unknown) => Array.isArray(field) && field.length > 0;
  const tools = offered(params.tools) || offered(params.functions);
  const bytes = utf8Length(messages, parts) + utf8Length(READ_FIELDS.filter((field) => params[field] != null).map((field) => params[field]));
  return (
    Math.ceil(bytes / BYTES_PER_TOKEN) + messages.length * MESSAGE_TOKENS + images * IMAGE_TOKENS + files * FILE_TOKENS + (tools ? TOOL_USE_TOKENS : 0)
  );
}

/**
 * The most reply tokens Predicted Outputs may add to each choice: one per UTF-8 byte of
 * `prediction` (0 without one). The prediction's tokens the reply does not repeat are billed
 * at completion prices on top of what the reply holds (OpenAI: "rejected prediction
 * tokens"), and no reply limit is documented to cut them.
 */
export function predictedTokensAtMost(params: Record<string, unknown>): number {
  return params.prediction == null ? 0 : Math.ceil(utf8Length(params.prediction) / BYTES_PER_TOKEN);
}

/**
 * The bound above on a model with `contextLength` tokens of context: a prompt longer than the
 * context is refused (or cut to it) by the provider, never served and billed whole.
 */
export function promptTokensOn(promptTokens: number, contextLength: unknown): number {
  return typeof contextLength === "number" && contextLength > 0 ? Math.min(promptTokens, contextLength) : promptTokens;
}

/** UTF-8 size of `value` as JSON, as the pipeline will send it. */
function utf8Length(value: unknown, replacer?: (key: string, value: unknown) => unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch (error) {
    // The pipeline would refuse it the same way; said here, before the catalogue is fetched.
    throw new ModelGateError(`The request body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return text === undefined ? 0 : encoder.encode(text).length;
}
