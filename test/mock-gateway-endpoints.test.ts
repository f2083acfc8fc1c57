import { describe, expect, it } from "vitest";
import { MOCK_API_KEY } from "../src/testing/index.ts";
import { fromBase64, readPNG, readWAV } from "./fixtures/media.ts";
import { MOCK_URL, mockGateway } from "./fixtures/mock.ts";

// The mock's endpoints besides chat: image generation, speech (binary WAV) and transcription
// (a multipart upload).

describe("mock gateway endpoints: /v1/images/generations", () => {
  it("answers b64_json with the base64 of a valid PNG for response_format b64_json", async () => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a cat", n: 2, response_format: "b64_json" } });
    const body = await response.json();
    expect(body).toEqual({ created: expect.any(Number), data: [{ b64_json: expect.any(String) }, { b64_json: expect.any(String) }] });
    expect(readPNG(fromBase64(body.data[0].b64_json))).toMatchObject({ width: 2, height: 2 });
  });

  it("keeps numbering URLs for response_format url, the default", async () => {
    const { call } = mockGateway();
    await call("/v1/images/generations", { body: { prompt: "a cat" } });
    const body = await (await call("/v1/images/generations", { body: { prompt: "a dog", response_format: "url" } })).json();
    expect(body.data).toEqual([{ url: "https://mock.modelgate.invalid/images/2.png" }]);
  });

  it("takes an image model, and answers 400 or 404 naming model for another", async () => {
    const { call } = mockGateway();
    expect((await call("/v1/images/generations", { body: { prompt: "a cat", model: "openai/gpt-image-1" } })).status).toBe(200);
    const other = await call("/v1/images/generations", { body: { prompt: "a cat", model: "openai/gpt-4.1" } });
    expect(other.status).toBe(400);
    expect((await other.json()).error).toMatchObject({ param: "model", message: expect.stringContaining("image_generation") });
    expect((await call("/v1/images/generations", { body: { prompt: "a cat", model: "acme/paint" } })).status).toBe(404);
  });

  it("answers 400 naming response_format for an unknown one", async () => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a cat", response_format: "svg" } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe("response_format");
  });
});

describe("mock gateway endpoints: /v1/audio/speech", () => {
  const speech = { model: "openai/gpt-4o-audio-preview", input: "Hello there", voice: "alloy" };

  it("answers binary audio/wav, a valid 16-bit mono WAV", async () => {
    const response = await mockGateway().call("/v1/audio/speech", { body: speech });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const wav = readWAV(new Uint8Array(await response.arrayBuffer()));
    expect(wav).toMatchObject({ format: 1, channels: 1, bitsPerSample: 16, sampleRate: 8000 });
    expect(wav.samples.length).toBeGreaterThanOrEqual(200);
  });

  it("answers the same samples without a header, as audio/pcm, for response_format pcm", async () => {
    const { call } = mockGateway();
    const wav = new Uint8Array(await (await call("/v1/audio/speech", { body: speech })).arrayBuffer());
    const pcm = await call("/v1/audio/speech", { body: { ...speech, response_format: "pcm" } });
    expect(pcm.headers.get("content-type")).toBe("audio/pcm");
    expect(new Uint8Array(await pcm.arrayBuffer())).toEqual(wav.subarray(44));
  });

  it.each([
    ["mp3, which the mock cannot write", { response_format: "mp3" }, 400, "response_format"],
    ["a model that cannot speak", { model: "openai/gpt-4.1" }, 400, "model"],
    ["no input", { input: "" }, 400, "input"],
    ["no voice", { voice: undefined }, 400, "voice"],
  ])("answers %s with %i naming %s", async (_, extra, status, param) => {
    const response = await mockGateway().call("/v1/audio/speech", { body: { ...speech, ...extra } });
    expect(response.status).toBe(status);
    expect((await response.json()).error.param).toBe(param);
  });
});

describe("mock gateway endpoints: /v1/audio/transcriptions", () => {
  const upload = (fields: Record<string, string | Blob | [Blob, string]>, gateway = mockGateway().gateway) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (Array.isArray(value)) form.append(name, value[0], value[1]);
      else form.append(name, value);
    }
    return gateway(new Request(`${MOCK_URL}/v1/audio/transcriptions`, { method: "POST", headers: { authorization: `Bearer ${MOCK_API_KEY}` }, body: form }));
  };
  const audio = (size: number) => new Blob([new Uint8Array(size)], { type: "audio/wav" });

  it("answers { text } for a multipart upload, the same text for the same file", async () => {
    const file: [Blob, string] = [audio(1000), "meeting.wav"];
    const first = await upload({ file, model: "google/gemini-2.5-flash" });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toEqual({ text: expect.stringMatching(/\w+/) });
    expect(await (await upload({ file, model: "google/gemini-2.5-flash", language: "en" })).json()).toEqual(body);
  });

  it("derives the text from the file's name and size", async () => {
    const texts = new Set<string>();
    for (const [size, name] of [[1000, "a.wav"], [1001, "a.wav"], [1000, "b.wav"], [3000, "c.wav"]] as const) {
      texts.add((await (await upload({ file: [audio(size), name], model: "google/gemini-2.5-flash" })).json()).text);
    }
    expect(texts.size).toBeGreaterThan(1);
  });

  it("answers the text alone, as text/plain, for response_format text", async () => {
    const file: [Blob, string] = [audio(1000), "meeting.wav"];
    const json = await (await upload({ file, model: "google/gemini-2.5-flash" })).json();
    const text = await upload({ file, model: "google/gemini-2.5-flash", response_format: "text" });
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await text.text()).toBe(json.text);
  });

  it("logs the form's fields, a file by its name, type and size", async () => {
    const { gateway } = mockGateway();
    await upload({ file: [audio(1000), "meeting.wav"], model: "google/gemini-2.5-flash" }, gateway);
    expect(gateway.requests[0]?.body).toEqual({ file: { name: "meeting.wav", type: "audio/wav", size: 1000 }, model: "google/gemini-2.5-flash" });
  });

  it("answers 400 naming file, with a message that says how to send it, when the form has no file", async () => {
    const response = await upload({ model: "google/gemini-2.5-flash" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ param: "file", message: "`file` is required: the audio to transcribe, as a file field of the form." });
    const asText = await upload({ file: "not a file", model: "google/gemini-2.5-flash" });
    expect((await asText.json()).error.param).toBe("file");
  });

  it("answers 400 for a JSON body, and names model for a model that does not take audio", async () => {
    const json = await mockGateway().call("/v1/audio/transcriptions", { body: { model: "google/gemini-2.5-flash" } });
    expect(json.status).toBe(400);
    expect((await json.json()).error.message).toMatch(/multipart\/form-data/);
    const model = await upload({ file: [audio(10), "a.wav"], model: "openai/gpt-4.1" });
    expect(model.status).toBe(400);
    expect((await model.json()).error).toMatchObject({ param: "model", message: expect.stringContaining("google/gemini-2.5-flash") });
  });
});
