import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  ModelGate,
  ModelGateError,
  NotFoundError,
  RateLimitError,
  type ClientOptions,
} from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGatewayOptions } from "../src/testing/index.ts";
import { streamedBody } from "./fixtures/body.ts";
import { fromBase64, readPNG, readWAV } from "./fixtures/media.ts";

// The endpoints beside chat (API.md, "Beyond text"): client.embeddings.create,
// client.images.generate, client.audio.speech.create and client.audio.transcriptions.create,
// against the mock gateway and, where the wire case is the point, hand-made answers.

const EMBEDDER = "openai/text-embedding-3-small";
const SPEAKER = "openai/gpt-4o-audio-preview";
const PAINTER = "openai/gpt-image-1";
const wav = () => new Blob([Uint8Array.of(82, 73, 70, 70, 0, 0, 0, 0)], { type: "audio/wav" });

function mocked(options: MockGatewayOptions = {}, clientOptions: ClientOptions = {}) {
  const gateway = createMockGateway(options);
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, ...clientOptions });
  return { gateway, client };
}

/** A client whose every request gets `respond()`. */
function answering(respond: () => Response | Promise<Response>) {
  return new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => respond() });
}

/** An embeddings answer holding `vectors` as given. */
const embeddingsAnswer = (vectors: unknown[]) => () =>
  Response.json({ object: "list", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), model: EMBEDDER, usage: { prompt_tokens: 1, total_tokens: 1 } });

/** Little-endian float32 bytes of `values`, as base64. */
const float32Base64 = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString("base64");

describe("bad params: a rejected promise naming the field, never a synchronous throw, nothing sent", () => {
  type Call = (client: ModelGate) => Promise<unknown>;
  const cases: [field: string, call: Call][] = [
    ["params", (client) => client.embeddings.create(undefined as never)],
    ["model", (client) => client.embeddings.create({ input: "a" } as never)],
    ["input", (client) => client.embeddings.create({ model: EMBEDDER, input: 5 } as never)],
    ["input", (client) => client.embeddings.create({ model: EMBEDDER, input: ["a", 1] } as never)],
    ["dimensions", (client) => client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 0 })],
    ["encoding_format", (client) => client.embeddings.create({ model: EMBEDDER, input: "a", encoding_format: "int8" } as never)],
    ["timeout", (client) => client.embeddings.create({ model: EMBEDDER, input: "a" }, { timeout: -1 })],
    ["params", (client) => client.images.generate("a lighthouse" as never)],
    ["prompt", (client) => client.images.generate({ model: PAINTER, prompt: "" })],
    ["model", (client) => client.images.generate({ prompt: "a lighthouse" } as never)],
    ["n", (client) => client.images.generate({ model: PAINTER, prompt: "a lighthouse", n: 1.5 })],
    ["voice", (client) => client.audio.speech.create({ model: SPEAKER, input: "Hi" } as never)],
    ["input", (client) => client.audio.speech.create({ model: SPEAKER, input: "", voice: "alloy" })],
    ["maxRetries", (client) => client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }, { maxRetries: -1 })],
    ["file", (client) => client.audio.transcriptions.create({ model: SPEAKER, file: "audio.wav" } as never)],
    ["model", (client) => client.audio.transcriptions.create({ file: wav() } as never)],
  ];

  it.each(cases)("`%s`", async (field, call) => {
    const { client, gateway } = mocked();
    let failure: Promise<unknown> | undefined;
    expect(() => (failure = call(client)), "threw synchronously").not.toThrow();
    await expect(failure).rejects.toBeInstanceOf(ModelGateError);
    await expect(failure).rejects.toThrow(`\`${field}\` must be`);
    expect(gateway.requests).toHaveLength(0);
  });
});
