import { invalidArgument } from "../../errors/invalid-argument.ts";
import type { Outcome } from "../../pipeline/api-promise.ts";
import { outcomeOf } from "../../pipeline/outcome-of.ts";
import type { Requester } from "../../resources/requester.ts";
import { assertParams, readOptions, type CallOptions } from "./checks.ts";
import { multipartForm } from "./form.ts";
import { imageEventStream } from "./image-stream.ts";

/** The most pictures one edit may start from, as OpenAI limits `image`. */
const MAX_INPUT_IMAGES = 16;

/**
 * `client.images.generate()`: `POST /v1/images/generations`, resolving to the parsed JSON, or
 * with `stream: true` to a `Stream` of `image_generation.*` events (see `imageEventStream`).
 */
export function generateImages(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ model, prompt }", { model: "a model id with the image_generation capability", prompt: "a non-empty string" });
  return send(client, "/v1/images/generations", imageOptions(params), params, readOptions(options));
}

/**
 * `client.images.edit()`: a multipart `POST /v1/images/edits` with `image` (one upload, or a
 * list of up to 16 sent as `image[]`), an optional `mask` upload and the prompt; each upload
 * read into a `Blob` before the first attempt (see `multipartForm`). Answered as a generation is.
 */
export async function editImages(client: Requester, params: unknown, given: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ image, prompt }", { prompt: "a non-empty string" });
  // The model may be left to the server's default, as OpenAI's is; one given must be a name.
  if (params.model != null && typeof params.model !== "string") throw invalidArgument("model", "a model id with the image_generation capability", params.model);
  // Checked before the uploads are read: a mistake costs no reading of a large file.
  const asked = imageOptions(params);
  const options = readOptions(given);
  const form = await multipartForm(client, params, { image: { kind: "image", required: true, most: MAX_INPUT_IMAGES }, mask: { kind: "image", required: false, most: 1 } }, options);
  return send(client, "/v1/images/edits", asked, form, options);
}

/** What an image request asks for that decides how its answer is read. */
interface ImageOptions {
  /** How many images (`n`, default 1): a stream ends once each has its `completed` event. */
  count: number;
  stream: boolean;
}

/** Checks `n` and `stream` of an image request's params. */
function imageOptions(params: Record<string, unknown>): ImageOptions {
  const n = params.n ?? 1;
  const { stream } = params;
  if (!(Number.isInteger(n) && (n as number) > 0)) throw invalidArgument("n", "a positive whole number", n);
  if (stream != null && typeof stream !== "boolean") throw invalidArgument("stream", "a boolean", stream);
  return { count: n as number, stream: stream === true };
}

/** Sends an image request: the parsed JSON, or a `Stream` of its events (OpenAI sends no [DONE] after the last image). */
function send(client: Requester, path: string, asked: ImageOptions, body: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  if (!asked.stream) return outcomeOf(client.request({ method: "POST", path, body, options }));
  return outcomeOf(client.request({ method: "POST", path, body, response: "sse", stream: imageEventStream(asked.count), options }));
}
