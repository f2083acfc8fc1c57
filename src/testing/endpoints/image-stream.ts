import type { StreamScript } from "../http/event-stream.ts";
import { streamError } from "../http/faults.ts";
import { toBase64 } from "../media/base64.ts";
import { mockPNG, partialPNG } from "../media/png.ts";
import type { ImageOptions } from "./image-options.ts";

/** The mock's fixed clock: its output must not change from one run to the next. */
export const CREATED = 1_767_225_600;

/** Tokens of one generated image by `quality`, as OpenAI counts a 1024×1024 image of gpt-image-1; others count as medium. */
const OUTPUT_TOKENS: Record<string, number> = { low: 272, medium: 1_056, high: 4_160 };
/** Tokens of one input image of an edit: the mock's flat figure. */
const INPUT_IMAGE_TOKENS = 85;

/** The token usage of an image request, in the shape of OpenAI's `ImagesUsage`. */
export interface ImagesUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
}

/** What making one image from `prompt` (and `inputImages` images to edit) uses: the prompt at four characters a token. */
export function imageUsage(prompt: string, inputImages: number, quality: string): ImagesUsage {
  const text = Math.ceil(prompt.length / 4);
  const images = inputImages * INPUT_IMAGE_TOKENS;
  const output = OUTPUT_TOKENS[quality] ?? OUTPUT_TOKENS.medium!;
  return { total_tokens: text + images + output, input_tokens: text + images, output_tokens: output, input_tokens_details: { text_tokens: text, image_tokens: images } };
}

/**
 * A streamed image answer as OpenAI sends it: for each of the `n` images in turn,
 * `partial_images` events `<kind>.partial_image` (`partial_image_index` from 0, each a valid
 * PNG nearer the final one, see `partialPNG`) and then `<kind>.completed` with the final
 * image and `usage` (each image is made from the whole prompt, so each counts it). Every
 * event has an `event:` line naming its `type`, carries `b64_json`, `created_at`, `size`,
 * `quality`, `background` and `output_format`, and the stream ends after the last
 * `completed`, without `data: [DONE]`, as OpenAI's image streams do. `kind` is
 * `image_generation` for `/v1/images/generations` and `image_edit` for `/v1/images/edits`.
 * A `stream-error` fault sends `event: error` with `{ type: "error", error: { code, message } }`.
 */
export function imageStream(kind: "image_generation" | "image_edit", options: ImageOptions, usage: ImagesUsage): StreamScript {
  const settings = { created_at: CREATED, size: options.size, quality: options.quality, background: options.background, output_format: "png" };
  const events: string[] = [];
  for (let image = 0; image < options.n; image++) {
    for (let index = 0; index < options.partialImages; index++) {
      const b64_json = toBase64(partialPNG(index, options.partialImages));
      events.push(frame({ type: `${kind}.partial_image`, b64_json, ...settings, partial_image_index: index }));
    }
    events.push(frame({ type: `${kind}.completed`, b64_json: toBase64(mockPNG()), ...settings, usage }));
  }
  return { events, done: false, errorFrame: (fault) => frame({ type: "error", error: streamError(fault) }) };
}

/** An event with its `event:` line, named after its `type` as OpenAI names them. */
function frame(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
