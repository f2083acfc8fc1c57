import { isRecord } from "../../internal/values.ts";
import { toBase64 } from "../media/base64.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { modelFor } from "../catalogue/lookup.ts";
import { hash, mulberry32 } from "../random.ts";

/** Vector length of an embeddings model that does not say (`MockModel.dimensions`). */
const DEFAULT_DIMENSIONS = 1_536;
/** The most inputs one request may embed, as OpenAI limits it. */
const MAX_INPUTS = 2_048;

/**
 * `POST /v1/embeddings` `{ model, input, dimensions?, encoding_format? }`: one unit-length
 * vector per input (a string, or an array of strings), from a model with `embeddings`.
 * Vectors depend only on the model and the text (not on the gateway's seed), as a real
 * model's do: the same text always gets the same vector. A smaller `dimensions` gives the
 * start of the full vector, normalised again, as OpenAI's text-embedding-3 models shorten
 * theirs. Values are float32 (what a client decodes from base64 is the same number), sent
 * as numbers or, with `encoding_format: "base64"` or when `asBase64` is set, as the base64 of
 * their little-endian bytes.
 */
export function serveEmbeddings(params: unknown, catalogue: readonly MockModel[], asBase64: boolean): Response {
  if (!isRecord(params)) throw new RequestRejected("The request body must be a JSON object.", null);
  const model = modelFor(catalogue, params.model, "embeddings", "/v1/embeddings");
  const inputs = checkInput(params.input);
  const largest = model.dimensions ?? DEFAULT_DIMENSIONS;
  const dimensions = params.dimensions ?? largest;
  if (!(Number.isInteger(dimensions) && (dimensions as number) >= 1 && (dimensions as number) <= largest)) {
    throw new RequestRejected(`\`dimensions\` must be a whole number from 1 to ${largest} for ${model.id}.`, "dimensions");
  }
  const format = params.encoding_format ?? "float";
  if (format !== "float" && format !== "base64") throw new RequestRejected('`encoding_format` must be "float" or "base64".', "encoding_format");
  const data = inputs.map((text, index) => {
    const vector = embed(text, model, largest, dimensions as number);
    return { object: "embedding", index, embedding: format === "base64" || asBase64 ? float32Base64(vector) : vector };
  });
  const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return Response.json({ object: "list", data, model: model.id, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** The inputs as a list: a non-empty string, or 1 to `MAX_INPUTS` of them. */
function checkInput(input: unknown): string[] {
  const inputs = Array.isArray(input) ? input : [input];
  if (inputs.length === 0 || inputs.length > MAX_INPUTS) {
    throw new RequestRejected(`\`input\` must hold 1 to ${MAX_INPUTS} strings.`, "input");
  }
  inputs.forEach((text, index) => {
    if (typeof text !== "string" || text === "") {
      // Token arrays are valid for OpenAI, but the mock embeds text only.
      const where = Array.isArray(input) ? `input[${index}]` : "input";
      throw new RequestRejected(`\`${where}\` must be a non-empty string (the mock gateway embeds text, not token arrays).`, where);
    }
  });
  return inputs as string[];
}

/** A unit vector for `text`: the first `dimensions` of `full` seeded values, scaled to length 1, in float32. */
function embed(text: string, model: MockModel, full: number, dimensions: number): number[] {
  const random = mulberry32(hash(`${model.id}\n${text}`));
  const values = Array.from({ length: full }, () => random() * 2 - 1).slice(0, dimensions);
  const length = Math.hypot(...values);
  return values.map((value) => Math.fround(value / length));
}

/** The base64 of the values as little-endian float32, whatever the platform's byte order. */
function float32Base64(values: number[]): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return toBase64(bytes);
}
