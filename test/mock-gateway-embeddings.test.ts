import { describe, expect, it } from "vitest";
import { fromBase64 } from "./fixtures/media.ts";
import { mockGateway } from "./fixtures/mock.ts";

// POST /v1/embeddings at the mock: deterministic unit vectors of the requested dimensions,
// as floats or as base64 little-endian float32, from a model with `embeddings`.

const MODEL = "openai/text-embedding-3-small";

interface Embeddings {
  object: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

async function embeddings(gateway: ReturnType<typeof mockGateway>, body: Record<string, unknown>): Promise<Embeddings> {
  const response = await gateway.call("/v1/embeddings", { body: { model: MODEL, ...body } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Embeddings;
}

const vectorOf = async (body: Record<string, unknown>, gateway = mockGateway()) => (await embeddings(gateway, body)).data[0]!.embedding as number[];
const norm = (vector: number[]) => Math.hypot(...vector);
/** Little-endian float32, read independently of the mock's encoder. */
const float32s = (base64: string) => {
  const bytes = fromBase64(base64);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
};

describe("mock gateway embeddings", () => {
  it("answers a list with one embedding per input, in order, the model and the usage", async () => {
    const body = await embeddings(mockGateway(), { input: ["first text", "a second, longer text"] });
    expect(body).toEqual({
      object: "list",
      data: [
        { object: "embedding", index: 0, embedding: expect.any(Array) },
        { object: "embedding", index: 1, embedding: expect.any(Array) },
      ],
      model: MODEL,
      usage: { prompt_tokens: Math.ceil(10 / 4) + Math.ceil(21 / 4), total_tokens: Math.ceil(10 / 4) + Math.ceil(21 / 4) },
    });
  });

  it("gives vectors of the model's 1,536 dimensions by default, of unit length, in float32 values", async () => {
    const vector = await vectorOf({ input: "hello" });
    expect(vector).toHaveLength(1536);
    expect(norm(vector)).toBeCloseTo(1, 6);
    for (const value of vector) expect(Math.fround(value)).toBe(value);
  });

  it("is deterministic by text: the same text the same vector (whatever the seed), another text another", async () => {
    const a = await vectorOf({ input: "the same text" });
    expect(await vectorOf({ input: "the same text" }, mockGateway({ seed: 7 }))).toEqual(a);
    const b = await vectorOf({ input: "another text" });
    expect(b).not.toEqual(a);
    const batch = await embeddings(mockGateway(), { input: ["another text", "the same text"] });
    expect(batch.data.map((item) => item.embedding)).toEqual([b, a]);
  });

  it("gives `dimensions` values: the start of the full vector, normalised again", async () => {
    const full = await vectorOf({ input: "hello" });
    const short = await vectorOf({ input: "hello", dimensions: 256 });
    expect(short).toHaveLength(256);
    expect(norm(short)).toBeCloseTo(1, 6);
    const start = full.slice(0, 256);
    short.forEach((value, index) => expect(value).toBeCloseTo(start[index]! / norm(start), 6));
  });

  it("sends base64 of little-endian float32 for encoding_format base64, the same values as the floats", async () => {
    const floats = await vectorOf({ input: "hello", dimensions: 8 });
    const encoded = await vectorOf({ input: "hello", dimensions: 8, encoding_format: "base64" });
    expect(typeof encoded).toBe("string");
    expect(float32s(encoded as unknown as string)).toEqual(floats);
  });

  it("sends base64 even when floats were asked for, with embeddingsAsBase64", async () => {
    const floats = await vectorOf({ input: "hello", dimensions: 8 });
    const gateway = mockGateway({ embeddingsAsBase64: true });
    for (const format of [undefined, "float"]) {
      const encoded = await vectorOf({ input: "hello", dimensions: 8, encoding_format: format }, gateway);
      expect(float32s(encoded as unknown as string)).toEqual(floats);
    }
  });

  it.each([
    ["a model without embeddings", { model: "openai/gpt-4.1", input: "x" }, 400, "model"],
    ["an unknown model", { model: "acme/embed", input: "x" }, 404, "model"],
    ["no model", { model: undefined, input: "x" }, 400, "model"],
    ["an empty input", { input: "" }, 400, "input"],
    ["no input", { input: undefined }, 400, "input"],
    ["an empty input list", { input: [] }, 400, "input"],
    ["a token array", { input: [[1, 2, 3]] }, 400, "input[0]"],
    ["dimensions 0", { input: "x", dimensions: 0 }, 400, "dimensions"],
    ["dimensions above the model's", { input: "x", dimensions: 4096 }, 400, "dimensions"],
    ["an unknown encoding_format", { input: "x", encoding_format: "int8" }, 400, "encoding_format"],
  ])("answers %s with %i naming %s", async (_, body, status, param) => {
    const response = await mockGateway().call("/v1/embeddings", { body: { model: MODEL, ...body } });
    expect(response.status).toBe(status);
    expect((await response.json()).error).toMatchObject({ param, message: expect.any(String) });
  });

  it("names the models that make embeddings when the model cannot", async () => {
    const response = await mockGateway().call("/v1/embeddings", { body: { model: "openai/gpt-4.1", input: "x" } });
    expect((await response.json()).error.message).toBe(
      `The model 'openai/gpt-4.1' cannot serve /v1/embeddings: it lacks the embeddings capability. Use ${MODEL}.`,
    );
  });

  it("answers 405 for GET", async () => {
    const response = await mockGateway().call("/v1/embeddings");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
