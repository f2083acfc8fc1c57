import { describe, expect, it } from "vitest";
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from "../src/index.ts";
import { chooseModel, DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { dataURLBytes, fromBase64, readPNG, readWAV } from "./fixtures/media.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// Chat replies beyond text, as API.md's "Beyond text" describes them: images
// (`modalities: ["image", "text"]`), speech (`["audio", "text"]` with `audio`), videos from a
// video model, and the routing that sends such requests, and only them, to generators.

const draw = [{ role: "user", content: "Draw a lighthouse at dusk" }];
const speech = { modalities: ["audio", "text"], audio: { voice: "alloy", format: "wav" } };

// What the mock's message and delta carry beyond the SDK's types.
interface Media {
  images?: { type: string; image_url: { url: string } }[];
  videos?: { type: string; video_url: { url: string } }[];
  audio?: { id?: string; data?: string; transcript?: string; format?: string; expires_at?: number };
}
type Message = { role: string; content: string | null } & Media;
type Delta = ChatCompletionChunk["choices"][number]["delta"] & Media;

async function reply(response: Response) {
  expect(response.status, await response.clone().text()).toBe(200);
  const body = await response.json();
  return body as { model: string; created: number; choices: { index: number; message: Message; finish_reason: string }[]; usage: { completion_tokens: number } };
}

async function deltas(response: Response): Promise<Delta[]> {
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const { chunks, done } = parseEventStream(await response.text());
  expect(done).toBe(true);
  return chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.index === 0).map((choice) => choice.delta as Delta));
}

describe("mock gateway media: images", () => {
  it("answers modalities image with message.images holding one valid 2×2 PNG as a data: URL, and a short caption", async () => {
    const { choices, model } = await reply(await mockGateway().chat({ model: "auto", messages: draw, modalities: ["image", "text"] }));
    expect(model).toBe("google/gemini-2.5-flash-image");
    const { message, finish_reason } = choices[0]!;
    expect(finish_reason).toBe("stop");
    expect(message.content).toBe('Here is the image you asked for: "Draw a lighthouse at dusk".');
    expect(message.images).toEqual([{ type: "image_url", image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } }]);
    const png = readPNG(dataURLBytes(message.images![0]!.image_url.url, "image/png"));
    expect(png).toMatchObject({ width: 2, height: 2, bitDepth: 8, colorType: 2, chunks: ["IHDR", "IDAT", "IEND"] });
    // Two rows of a filter byte and two RGB pixels.
    expect(png.scanlines).toHaveLength(2 * (1 + 2 * 3));
  });

  it("streams each image whole in one chunk's delta.images, after the caption", async () => {
    const { chat } = mockGateway();
    const whole = await reply(await chat({ model: "auto", messages: draw, modalities: ["image", "text"] }));
    const streamed = await deltas(await chat({ model: "auto", messages: draw, modalities: ["image", "text"], stream: true }));
    const withImages = streamed.filter((delta) => delta.images);
    expect(withImages).toHaveLength(1);
    expect(withImages[0]!.images).toEqual(whole.choices[0]!.message.images);
    expect(streamed.map((delta) => delta.content ?? "").join("")).toBe(whole.choices[0]!.message.content);
    const lastContent = Math.max(...streamed.map((delta, index) => (delta.content ? index : -1)));
    expect(streamed.findIndex((delta) => delta.images)).toBeGreaterThan(lastContent);
  });

  it("gives every choice of n its image", async () => {
    const { choices } = await reply(await mockGateway().chat({ model: "auto", messages: draw, modalities: ["image", "text"], n: 2 }));
    expect(choices.map((choice) => choice.message.images?.length)).toEqual([1, 1]);
  });

  it("answers 400 naming modalities when the named model cannot make images", async () => {
    const response = await mockGateway().chat({ model: "openai/gpt-4.1", messages: draw, modalities: ["image", "text"] });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ param: "modalities", message: expect.stringContaining("image_generation") });
  });
});

describe("mock gateway media: speech", () => {
  it("answers modalities audio with message.audio: a valid WAV in base64, its transcript, format and expiry; content null", async () => {
    const { choices, model, created } = await reply(await mockGateway().chat({ model: "auto", messages: draw, ...speech }));
    expect(model).toBe("openai/gpt-4o-audio-preview");
    const { message } = choices[0]!;
    expect(message.content).toBeNull();
    expect(message.audio).toEqual({ id: expect.stringMatching(/^audio_[0-9a-f]{8}$/), data: expect.any(String), transcript: expect.any(String), format: "wav", expires_at: created + 3600 });
    expect(message.audio!.transcript).toContain('You asked: "Draw a lighthouse at dusk".');
    const wav = readWAV(fromBase64(message.audio!.data!));
    expect(wav).toMatchObject({ format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16 });
    expect(wav.samples.length).toBeGreaterThanOrEqual(200);
    // A tone, not silence: it swings both ways.
    expect(Math.max(...wav.samples)).toBeGreaterThan(10_000);
    expect(Math.min(...wav.samples)).toBeLessThan(-10_000);
  });

  it("counts the transcript's words as completion tokens", async () => {
    const { choices, usage } = await reply(await mockGateway().chat({ model: "auto", messages: draw, ...speech }));
    expect(usage.completion_tokens).toBe(choices[0]!.message.audio!.transcript!.split(/\s+/).length);
  });

  it("streams delta.audio fragments: the id first, then transcript and data pieces, expires_at last, and never the format", async () => {
    const { chat } = mockGateway();
    const whole = (await reply(await chat({ model: "auto", messages: draw, ...speech }))).choices[0]!.message.audio!;
    const streamed = await deltas(await chat({ model: "auto", messages: draw, ...speech, stream: true }));
    expect(streamed[0]).toEqual({ role: "assistant", content: null });
    const fragments = streamed.filter((delta) => delta.audio).map((delta) => delta.audio!);
    expect(fragments[0]).toEqual({ id: whole.id });
    expect(fragments.at(-1)).toEqual({ expires_at: whole.expires_at });
    const middle = fragments.slice(1, -1);
    for (const fragment of middle) expect(Object.keys(fragment).length === 1 && ("data" in fragment || "transcript" in fragment)).toBe(true);
    expect(fragments.some((fragment) => "format" in fragment)).toBe(false);
    const dataPieces = middle.flatMap((fragment) => (fragment.data === undefined ? [] : [fragment.data]));
    expect(dataPieces.length).toBeGreaterThan(1);
    // Each piece decodes on its own: a whole number of base64 quads.
    for (const piece of dataPieces) expect(piece.length % 4).toBe(0);
    expect(dataPieces.join("")).toBe(whole.data);
    expect(middle.map((fragment) => fragment.transcript ?? "").join("")).toBe(whole.transcript);
    expect(streamed.some((delta) => typeof delta.content === "string" && delta.content !== "")).toBe(false);
  });

  it("sends raw 16-bit samples, no WAV header, for format pcm16", async () => {
    const { choices } = await reply(await mockGateway().chat({ model: "auto", messages: draw, modalities: ["audio", "text"], audio: { voice: "alloy", format: "pcm16" } }));
    const bytes = fromBase64(choices[0]!.message.audio!.data!);
    expect(choices[0]!.message.audio!.format).toBe("pcm16");
    expect(bytes.length % 2).toBe(0);
    expect(Buffer.from(bytes).toString("latin1", 0, 4)).not.toBe("RIFF");
  });

  it.each([
    ["no audio parameter", { modalities: ["audio", "text"] }, "audio"],
    ["an audio format the mock cannot write", { modalities: ["audio", "text"], audio: { voice: "alloy", format: "mp3" } }, "audio.format"],
    ["an unknown audio format", { modalities: ["audio", "text"], audio: { voice: "alloy", format: "ogg" } }, "audio.format"],
    ["an audio without a voice", { modalities: ["audio", "text"], audio: { format: "wav" } }, "audio.voice"],
    ["a model that cannot speak", { model: "openai/gpt-4.1", ...speech }, "modalities"],
    ["an unknown modality", { modalities: ["smell"] }, "modalities[0]"],
  ])("answers 400 for %s, naming %s", async (_, extra, param) => {
    const response = await mockGateway().chat({ model: "auto", messages: draw, ...extra });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe(param);
  });
});

describe("mock gateway media: videos", () => {
  it("answers a video model's chat with message.videos, numbered URLs that reset() restarts", async () => {
    const { gateway, chat } = mockGateway();
    const urls = [];
    for (let i = 0; i < 2; i++) {
      const { choices } = await reply(await chat({ model: "google/veo-3.1", messages: draw }));
      expect(choices[0]!.message.content).toBe('Here is the video you asked for: "Draw a lighthouse at dusk".');
      urls.push(choices[0]!.message.videos);
    }
    expect(urls).toEqual([
      [{ type: "video_url", video_url: { url: "https://mock.modelgate.invalid/videos/1.mp4" } }],
      [{ type: "video_url", video_url: { url: "https://mock.modelgate.invalid/videos/2.mp4" } }],
    ]);
    gateway.reset();
    expect((await reply(await chat({ model: "google/veo-3.1", messages: draw }))).choices[0]!.message.videos![0]!.video_url.url).toMatch(/\/1\.mp4$/);
  });

  it("streams each video whole in one chunk's delta.videos", async () => {
    const streamed = await deltas(await mockGateway().chat({ model: "google/veo-3.1", messages: draw, stream: true }));
    const withVideos = streamed.filter((delta) => delta.videos);
    expect(withVideos).toHaveLength(1);
    expect(withVideos[0]!.videos).toEqual([{ type: "video_url", video_url: { url: "https://mock.modelgate.invalid/videos/1.mp4" } }]);
  });
});

describe("mock gateway media: routing to generators", () => {
  const chosen = (extra: Record<string, unknown>) => {
    const result = chooseModel({ model: "auto", messages: draw, ...extra } as unknown as ChatCompletionCreateParamsBase, DEFAULT_CATALOGUE);
    return "model" in result ? result.model.id : result.code;
  };

  it("picks a generator for auto only when the request asks for what it makes", () => {
    expect(chosen({ modalities: ["image", "text"] })).toBe("google/gemini-2.5-flash-image");
    expect(chosen({ modalities: ["audio", "text"] })).toBe("openai/gpt-4o-audio-preview");
    expect(chosen({ route: { capabilities: ["video_generation"] } })).toBe("google/veo-3.1");
    expect(chosen({ modalities: ["video"] })).toBe("google/veo-3.1");
    for (const sort of ["price", "quality", "latency"]) {
      const plain = chosen({ route: { sort } });
      const generators = DEFAULT_CATALOGUE.filter((model) => model.capabilities.some((capability) => capability.endsWith("_generation") || capability === "embeddings"));
      expect(generators.map((model) => model.id), `sort ${sort}`).not.toContain(plain);
    }
  });

  it("has generators of each kind in the catalogue, and an embeddings model", () => {
    for (const capability of ["image_generation", "audio_generation", "video_generation", "reasoning", "embeddings"]) {
      expect(DEFAULT_CATALOGUE.some((model) => model.capabilities.includes(capability)), capability).toBe(true);
    }
  });

  it("never sends chat to an embeddings model: auto finds none, and a named one is a 400 naming model", async () => {
    expect(chosen({ route: { capabilities: ["embeddings"] } })).toBe("no_route_available");
    const response = await mockGateway().chat({ model: "openai/text-embedding-3-small", messages: draw });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ param: "model", message: expect.stringContaining("/v1/embeddings") });
  });

  it("answers a plain chat with text only, even from a model that can make images", async () => {
    const { choices } = await reply(await mockGateway().chat({ model: "google/gemini-2.5-flash-image", messages: draw }));
    expect(choices[0]!.message.images).toBeUndefined();
    expect(choices[0]!.message.content).toContain("Draw a lighthouse at dusk");
  });
});
