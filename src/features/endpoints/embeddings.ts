import { ModelGateError } from "../../errors/index.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import type { Outcome } from "../../pipeline/api-promise.ts";
import { outcomeOf } from "../../pipeline/outcome-of.ts";
import type { Requester } from "../../resources/requester.ts";
import type { CreateEmbeddingResponse } from "../../types/endpoints.ts";
import { assertParams, readOptions, type CallOptions } from "./checks.ts";

/**
 * `client.embeddings.create()`: asks for floats unless told otherwise, and decodes base64
 * vectors (little-endian float32) when a server sends them although floats were asked for.
 * The answer is checked: one vector per input, of the requested `dimensions`.
 */
export function createEmbeddings(client: Requester, params: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  assertParams(params, "{ model, input }", { model: "a model id with the embeddings capability" });
  const { input, dimensions } = params;
  // Array.from, so that a hole in a sparse array counts (every() would skip it).
  if (!(typeof input === "string" || (Array.isArray(input) && Array.from(input).every((text) => typeof text === "string")))) {
    throw invalidArgument("input", "a string or an array of strings", input);
  }
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && (dimensions as number) > 0)) throw invalidArgument("dimensions", "a positive whole number", dimensions);
  const asked = params.encoding_format ?? "float";
  if (asked !== "float" && asked !== "base64") throw invalidArgument("encoding_format", '"float" or "base64"', asked);
  const call = client.request<CreateEmbeddingResponse<unknown>>({ method: "POST", path: "/v1/embeddings", body: { ...params, encoding_format: asked }, options: readOptions(options) });
  return outcomeOf(call, (answer) => {
    const count = typeof input === "string" ? 1 : input.length;
    const data = isRecord(answer) && Array.isArray(answer.data) ? answer.data : undefined;
    if (!data || data.length !== count) throw new ModelGateError(`The embeddings answer has ${data ? data.length : "no"} vectors for ${count} input(s).`);
    // One vector per input, each input's at its own index, in order.
    data.sort((a, b) => (a?.index as number) - (b?.index as number));
    if (data.some((entry, position) => entry?.index !== position)) {
      throw new ModelGateError(`The embeddings answer does not give one vector for each of the ${count} input(s): its indexes are ${data.map((entry) => describeIndex(entry?.index)).join(", ")}.`);
    }
    if (asked !== "float") return answer;
    for (const entry of data) {
      if (typeof entry?.embedding === "string") entry.embedding = decodeFloat32(entry.embedding, entry.index);
      const vector = entry?.embedding;
      if (!Array.isArray(vector) || vector.some((value) => typeof value !== "number")) {
        throw new ModelGateError(`Embedding ${entry?.index} is not a list of numbers.`);
      }
      if (dimensions !== undefined && vector.length !== dimensions) {
        throw new ModelGateError(`Embedding ${entry.index} has ${vector.length} dimensions; ${dimensions} were asked for.`);
      }
    }
    return answer;
  });
}

/** Base64 of little-endian float32 values, as OpenAI-style servers send `encoding_format: "base64"`. */
export function decodeFloat32(base64: string, position: unknown): number[] {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    // atob's own DOMException would not be a ModelGateError.
    throw new ModelGateError(`Embedding ${position} is a string that is not valid base64.`);
  }
  if (binary.length % 4 !== 0) throw new ModelGateError(`Embedding ${position} holds ${binary.length} bytes of base64, not a whole number of float32 values.`);
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) view.setUint8(index, binary.charCodeAt(index));
  return Array.from({ length: binary.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}

/** An index as a message shows it: a number as it is, anything else by its type (a server may echo anything there, the key included). */
function describeIndex(index: unknown): string {
  return typeof index === "number" ? String(index) : index === null ? "null" : typeof index;
}
