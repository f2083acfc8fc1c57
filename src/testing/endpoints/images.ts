import { isRecord } from "../../internal/values.ts";
import { toBase64 } from "../media/base64.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { modelFor } from "../catalogue/lookup.ts";
import { mockPNG } from "../media/png.ts";

/** The mock's fixed clock: its output must not change from one run to the next. */
const CREATED = 1_767_225_600;

/**
 * `POST /v1/images/generations` `{ prompt, model?, n?, response_format? }`: `n` (1 to 4)
 * images, as deterministic URLs (`https://mock.modelgate.invalid/images/<n>.png`, numbered by
 * `nextImage`) or, with `response_format: "b64_json"`, as `b64_json`, the base64 of the
 * mock's valid PNG. A `model`, when given, must be one with `image_generation`.
 */
export function serveImageGenerations(params: unknown, catalogue: readonly MockModel[], nextImage: () => number): Response {
  if (!isRecord(params) || typeof params.prompt !== "string" || params.prompt === "") {
    throw new RequestRejected("`prompt` is required and must be a non-empty string.", "prompt");
  }
  if (params.model != null) modelFor(catalogue, params.model, "image_generation", "/v1/images/generations");
  const n = params.n ?? 1;
  if (!(Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 4)) throw new RequestRejected("`n` must be a whole number from 1 to 4.", "n");
  const format = params.response_format ?? "url";
  if (format !== "url" && format !== "b64_json") throw new RequestRejected('`response_format` must be "url" or "b64_json".', "response_format");
  const image = () => (format === "b64_json" ? { b64_json: toBase64(mockPNG()) } : { url: `https://mock.modelgate.invalid/images/${nextImage()}.png` });
  return Response.json({ created: CREATED, data: Array.from({ length: n as number }, image) });
}
