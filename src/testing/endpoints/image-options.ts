import { RequestRejected } from "../http/error-response.ts";

/** The most images one request may ask for: the mock's limit (OpenAI's is 10). */
const MAX_IMAGES = 4;
/** The most partial images a streamed request may ask for, as OpenAI limits `partial_images`. */
const MAX_PARTIAL_IMAGES = 3;
const RESPONSE_FORMATS = ["url", "b64_json"];
const QUALITIES = ["standard", "hd", "low", "medium", "high", "auto"];
const BACKGROUNDS = ["transparent", "opaque", "auto"];

/** What an image request asks for besides its prompt (and, for an edit, its images), checked. */
export interface ImageOptions {
  n: number;
  /** `WIDTHxHEIGHT` or `auto`. @default "1024x1024" */
  size: string;
  /** How each image comes back when not streamed; a stream always carries `b64_json`. */
  responseFormat: "url" | "b64_json";
  stream: boolean;
  /** Partial images before each final one, when streamed. */
  partialImages: number;
  quality: string;
  background: string;
}

/**
 * Reads and checks the options the image endpoints share, each a 400 naming its field when
 * it is not what OpenAI accepts: `n` (1 to 4 here), `size`, `response_format` (`url` or
 * `b64_json`), `stream`, `partial_images` (0 to 3), `quality`, `background`, and
 * `output_format`, which must be `png` (the mock writes PNG only and would rather refuse than
 * mislabel). `field(name)` gives the raw value: JSON's, or a form's text, which is then read
 * as the number or boolean it spells (`"2"`, `"true"`), as multipart carries them. A field
 * sent as `null` counts as absent.
 */
export function readImageOptions(field: (name: string) => unknown, form: boolean): ImageOptions {
  const value = (name: string): unknown => field(name) ?? undefined;
  const number = (name: string): unknown => {
    const raw = value(name);
    return form && typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  };
  const n = number("n") ?? 1;
  if (!(Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_IMAGES)) {
    throw new RequestRejected(`\`n\` must be a whole number from 1 to ${MAX_IMAGES}.`, "n");
  }
  const size = value("size") ?? "1024x1024";
  if (typeof size !== "string" || !(size === "auto" || /^[1-9]\d{0,4}x[1-9]\d{0,4}$/.test(size))) {
    throw new RequestRejected('`size` must be "WIDTHxHEIGHT" (such as "1024x1024") or "auto".', "size");
  }
  const responseFormat = oneOf(value("response_format") ?? "url", RESPONSE_FORMATS, "response_format") as ImageOptions["responseFormat"];
  const rawStream = value("stream") ?? false;
  const stream = form && (rawStream === "true" || rawStream === "false") ? rawStream === "true" : rawStream;
  if (typeof stream !== "boolean") throw new RequestRejected("`stream` must be a boolean.", "stream");
  const partialImages = number("partial_images") ?? 0;
  if (!(Number.isInteger(partialImages) && (partialImages as number) >= 0 && (partialImages as number) <= MAX_PARTIAL_IMAGES)) {
    throw new RequestRejected(`\`partial_images\` must be a whole number from 0 to ${MAX_PARTIAL_IMAGES}.`, "partial_images");
  }
  const outputFormat = value("output_format") ?? "png";
  if (outputFormat !== "png") {
    throw new RequestRejected(`The mock gateway writes images as png only, not ${String(outputFormat)}.`, "output_format");
  }
  return {
    n: n as number,
    size,
    responseFormat,
    stream,
    partialImages: partialImages as number,
    quality: oneOf(value("quality") ?? "auto", QUALITIES, "quality"),
    background: oneOf(value("background") ?? "auto", BACKGROUNDS, "background"),
  };
}

/** `value` when it is one of `allowed`, else a 400 naming `param` and listing them. */
function oneOf(value: unknown, allowed: readonly string[], param: string): string {
  if (typeof value === "string" && allowed.includes(value)) return value;
  throw new RequestRejected(`\`${param}\` must be one of ${allowed.map((name) => `"${name}"`).join(", ")}.`, param);
}
