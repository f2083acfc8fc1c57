import { isRecord } from "../../internal/values.ts";
import { modelFor } from "../catalogue/lookup.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import type { StreamScript } from "../http/event-stream.ts";
import { toBase64 } from "../media/base64.ts";
import { mockPNG } from "../media/png.ts";
import { readImageOptions, type ImageOptions } from "./image-options.ts";
import { CREATED, imageStream, imageUsage } from "./image-stream.ts";

/** What the image endpoints need from the gateway. */
export interface ImageContext {
  catalogue: readonly MockModel[];
  /** The number of the next image URL, counted from 1 over the gateway's life (until `reset()`). */
  nextImage: () => number;
  /** The answer for a streamed request: `script` paced and broken as the gateway's other streams are. */
  stream: (script: StreamScript) => Response;
}

/** The most images one edit may start from, as OpenAI limits `image`. */
const MAX_INPUT_IMAGES = 16;
/** The image types OpenAI's image models read. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];

/**
 * `POST /v1/images/generations` `{ prompt, model?, n?, size?, response_format?, stream?,
 * partial_images?, quality?, background?, output_format? }` (see `readImageOptions`): `n`
 * images, as deterministic URLs (`https://mock.modelgate.invalid/images/<n>.png`, numbered by
 * `nextImage`) or, with `response_format: "b64_json"`, as `b64_json`, the base64 of the mock's
 * valid PNG; with `stream: true`, as `image_generation.*` events (see `imageStream`). A
 * `model`, when given, must be one with `image_generation`.
 */
export function serveImageGenerations(params: unknown, context: ImageContext): Response {
  if (!isRecord(params) || typeof params.prompt !== "string" || params.prompt === "") {
    throw new RequestRejected("`prompt` is required and must be a non-empty string.", "prompt");
  }
  if (params.model != null) modelFor(context.catalogue, params.model, "image_generation", "/v1/images/generations");
  const options = readImageOptions((name) => (Object.hasOwn(params, name) ? params[name] : undefined), false);
  return imagesAnswer("image_generation", params.prompt, 0, options, context);
}

/**
 * `POST /v1/images/edits`, a multipart form: `image` (one file, or several as repeated `image`
 * or `image[]` fields, up to 16; PNG, JPEG or WebP), an optional `mask` (a PNG), `prompt`,
 * an optional `model` (one with `image_generation`), and the options of a generation (see
 * `readImageOptions`). Answered as a generation is: URLs numbered with the generations',
 * `b64_json`, or `image_edit.*` events when streamed. The mock does not look at the pictures:
 * every edit is its own small PNG.
 */
export function serveImageEdits(form: FormData | undefined, context: ImageContext): Response {
  if (!form) {
    throw new RequestRejected("Send a multipart/form-data form with the picture as `image` (several as `image[]`), a `prompt`, and optionally a `mask`.", null);
  }
  const images = [...form.getAll("image"), ...form.getAll("image[]")];
  if (images.length === 0) {
    throw new RequestRejected("`image` is required: the picture to edit, as a file field of the form (several as `image[]`).", "image");
  }
  if (images.length > MAX_INPUT_IMAGES) throw new RequestRejected(`\`image\` takes at most ${MAX_INPUT_IMAGES} pictures, not ${images.length}.`, "image");
  for (const image of images) checkUpload(image, "image", IMAGE_TYPES);
  const mask = form.get("mask");
  if (mask !== null) checkUpload(mask, "mask", ["image/png"]);
  const prompt = form.get("prompt");
  if (typeof prompt !== "string" || prompt === "") throw new RequestRejected("`prompt` is required: a non-empty text field of the form.", "prompt");
  const model = form.get("model");
  if (model !== null) modelFor(context.catalogue, model, "image_generation", "/v1/images/edits");
  const options = readImageOptions((name) => form.get(name), true);
  return imagesAnswer("image_edit", prompt, images.length, options, context);
}

/** The answer both endpoints give: the images as URLs or base64, or streamed. */
function imagesAnswer(kind: "image_generation" | "image_edit", prompt: string, inputImages: number, options: ImageOptions, context: ImageContext): Response {
  if (options.stream) return context.stream(imageStream(kind, options, imageUsage(prompt, inputImages, options.quality)));
  const image = () =>
    options.responseFormat === "b64_json" ? { b64_json: toBase64(mockPNG()) } : { url: `https://mock.modelgate.invalid/images/${context.nextImage()}.png` };
  return Response.json({ created: CREATED, data: Array.from({ length: options.n }, image) });
}

/**
 * A 400 naming `param` unless `value` is a non-empty file whose type, when the upload gives
 * one, is among `types` (an upload without a type is taken on trust, as bytes often come).
 */
function checkUpload(value: FormDataEntryValue, param: string, types: readonly string[]): void {
  if (typeof value === "string") throw new RequestRejected(`\`${param}\` must be a file field of the form, not text.`, param);
  if (value.size === 0) throw new RequestRejected(`\`${param}\` is an empty file.`, param);
  const type = value.type.split(";")[0]!.trim().toLowerCase();
  if (type !== "" && type !== "application/octet-stream" && !types.includes(type)) {
    throw new RequestRejected(`\`${param}\` must be ${types.map((name) => name.slice("image/".length).toUpperCase()).join(" or ")}, not ${type}.`, param);
  }
}
