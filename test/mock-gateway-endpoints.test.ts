import { describe, expect, it } from "vitest";
import { ModelGate } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { readWAV } from "./fixtures/media.ts";
import { MOCK_URL, mockGateway, postForm, type FormFields } from "./fixtures/mock.ts";
import { inOrder, readSRT, readVTT } from "./fixtures/subtitles.ts";

// The mock's audio endpoints: speech (binary WAV), transcription and translation (multipart
// uploads, in every response_format OpenAI documents). Images: mock-gateway-images.test.ts.

const HEARING = "google/gemini-2.5-flash";

/** A WAV upload of `size` zero bytes, named `name`. */
const audio = (size: number, name = "audio.wav") => new File([new Uint8Array(size)], name, { type: "audio/wav" });

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
  const upload = (fields: FormFields, gateway = mockGateway().gateway) => postForm(gateway, "/v1/audio/transcriptions", fields);

  it("answers { text } for a multipart upload, the same text for the same file", async () => {
    const file = audio(1000, "meeting.wav");
    const first = await upload({ file, model: "google/gemini-2.5-flash" });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toEqual({ text: expect.stringMatching(/\w+/) });
    expect(await (await upload({ file, model: "google/gemini-2.5-flash", language: "en" })).json()).toEqual(body);
  });

  it("derives the text from the file's name and size", async () => {
    const texts = new Set<string>();
    for (const [size, name] of [[1000, "a.wav"], [1001, "a.wav"], [1000, "b.wav"], [3000, "c.wav"]] as const) {
      texts.add((await (await upload({ file: audio(size, name), model: "google/gemini-2.5-flash" })).json()).text);
    }
    expect(texts.size).toBeGreaterThan(1);
  });

  it("answers the text alone, as text/plain, for response_format text", async () => {
    const file = audio(1000, "meeting.wav");
    const json = await (await upload({ file, model: "google/gemini-2.5-flash" })).json();
    const text = await upload({ file, model: "google/gemini-2.5-flash", response_format: "text" });
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await text.text()).toBe(json.text);
  });

  it("answers srt as SubRip: cues numbered from 1, in order, one a sentence, whose text is the json text", async () => {
    // 1001 bytes: the mock hears two sentences in a file of odd size.
    const file = audio(1001, "meeting.wav");
    const { text } = await (await upload({ file, model: HEARING })).json();
    const srt = await upload({ file, model: HEARING, response_format: "srt" });
    expect(srt.status).toBe(200);
    const cues = readSRT(await srt.text());
    expect(cues).toHaveLength(2);
    expect(inOrder(cues)).toBe(true);
    expect(cues.map((cue) => cue.text).join(" ")).toBe(text);
  });

  it("answers vtt as WebVTT with the same cues as srt", async () => {
    const file = audio(1001, "meeting.wav");
    const srt = readSRT(await (await upload({ file, model: HEARING, response_format: "srt" })).text());
    const vtt = readVTT(await (await upload({ file, model: HEARING, response_format: "vtt" })).text());
    expect(vtt).toEqual(srt);
  });

  it.each(["text", "srt", "vtt"])("answers %s as text/plain; charset=utf-8, as OpenAI does", async (format) => {
    const response = await upload({ file: audio(1000, "a.wav"), model: HEARING, response_format: format });
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("answers verbose_json with task, language, duration, text, segments timed as the srt cues, and usage in seconds", async () => {
    const file = audio(1001, "meeting.wav");
    const cues = readSRT(await (await upload({ file, model: HEARING, response_format: "srt" })).text());
    const response = await upload({ file, model: HEARING, response_format: "verbose_json", language: "de", temperature: "0.3" });
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["duration", "language", "segments", "task", "text", "usage"]);
    expect(body).toMatchObject({ task: "transcribe", language: "german", text: cues.map((cue) => cue.text).join(" ") });
    expect(body.segments.map((segment: { start: number; end: number; text: string }) => ({ start: segment.start, end: segment.end, text: segment.text.trim() }))).toEqual(cues);
    expect(body.segments[1]).toEqual({
      id: 1,
      seek: 0,
      start: expect.any(Number),
      end: expect.any(Number),
      text: expect.any(String),
      tokens: expect.arrayContaining([expect.any(Number)]),
      temperature: 0.3,
      avg_logprob: expect.any(Number),
      compression_ratio: expect.any(Number),
      no_speech_prob: expect.any(Number),
    });
    expect(body.duration).toBeGreaterThan(cues.at(-1)!.end);
    expect(body.usage).toEqual({ type: "duration", seconds: Math.ceil(body.duration) });
  });

  it("adds words for timestamp_granularities[] word, and segments only when segment is asked for too", async () => {
    const file = audio(1000, "a.wav");
    const words = await (await upload({ file, model: HEARING, response_format: "verbose_json", "timestamp_granularities[]": ["word"] })).json();
    expect(words.segments).toBeUndefined();
    expect(words.words.map((word: { word: string }) => word.word).join(" ")).toBe(words.text);
    expect(words.words.every((word: { start: number; end: number }) => word.start < word.end)).toBe(true);
    const both = await (await upload({ file, model: HEARING, response_format: "verbose_json", "timestamp_granularities[]": ["word", "segment"] })).json();
    expect(both).toMatchObject({ words: words.words, segments: [expect.objectContaining({ id: 0 })] });
    expect(both.language).toBe("english");
  });

  it.each([
    ["an unknown response_format", { response_format: "diarized_json" }, "response_format"],
    ["a temperature above 1", { temperature: "1.5" }, "temperature"],
    ["an unknown timestamp granularity", { "timestamp_granularities[]": ["sentence"] }, "timestamp_granularities"],
  ])("answers 400 naming the field for %s", async (_, extra, param) => {
    const response = await upload({ file: audio(10, "a.wav"), model: HEARING, ...extra });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe(param);
  });

  it("logs a field sent more than once as the list of its values", async () => {
    const { gateway } = mockGateway();
    await upload({ file: audio(10, "a.wav"), model: HEARING, "timestamp_granularities[]": ["word", "segment"] }, gateway);
    expect(gateway.requests[0]?.body).toMatchObject({ "timestamp_granularities[]": ["word", "segment"] });
  });

  it("logs the form's fields, a file by its name, type and size", async () => {
    const { gateway } = mockGateway();
    await upload({ file: audio(1000, "meeting.wav"), model: "google/gemini-2.5-flash" }, gateway);
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
    const model = await upload({ file: audio(10, "a.wav"), model: "openai/gpt-4.1" });
    expect(model.status).toBe(400);
    expect((await model.json()).error).toMatchObject({ param: "model", message: expect.stringContaining("google/gemini-2.5-flash") });
  });
});

describe("mock gateway endpoints: /v1/audio/translations", () => {
  const upload = (fields: FormFields, gateway = mockGateway().gateway) => postForm(gateway, "/v1/audio/translations", fields);
  const file = audio(1001, "german.wav");

  it("answers { text } for a multipart upload, the same text for the same file", async () => {
    const first = await upload({ file, model: HEARING });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toEqual({ text: expect.stringMatching(/\w+/) });
    expect(await (await upload({ file, model: HEARING, prompt: "A phone call." })).json()).toEqual(body);
  });

  it("answers verbose_json as a translation into English, with segments and no usage", async () => {
    const body = await (await upload({ file, model: HEARING, response_format: "verbose_json" })).json();
    expect(Object.keys(body).sort()).toEqual(["duration", "language", "segments", "task", "text"]);
    expect(body).toMatchObject({ task: "translate", language: "english" });
    expect(body.segments.map((segment: { text: string }) => segment.text.trim()).join(" ")).toBe(body.text);
  });

  it("answers text, srt and vtt as well-formed text/plain bodies with the json text", async () => {
    const { text } = await (await upload({ file, model: HEARING })).json();
    const read = async (format: string) => {
      const response = await upload({ file, model: HEARING, response_format: format });
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      return response.text();
    };
    expect(await read("text")).toBe(text);
    expect(readSRT(await read("srt")).map((cue) => cue.text).join(" ")).toBe(text);
    expect(readVTT(await read("vtt")).map((cue) => cue.text).join(" ")).toBe(text);
  });

  it("answers 400 naming file without a file, and 405 naming POST for a GET", async () => {
    const response = await upload({ model: HEARING });
    expect((await response.json()).error).toMatchObject({ param: "file", message: expect.stringContaining("the audio to translate") });
    const get = await mockGateway().call("/v1/audio/translations");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("client.audio.transcriptions.create() against the mock, in the text formats", () => {
  const client = () => new ModelGate({ apiKey: MOCK_API_KEY, baseURL: MOCK_URL, fetch: createMockGateway(), maxRetries: 0 });
  const file = new File([new Uint8Array(1001)], "meeting.wav", { type: "audio/wav" });

  it.each([
    ["srt", readSRT],
    ["vtt", readVTT],
  ] as const)("resolves to the %s body itself, well formed, holding the json text", async (format, read) => {
    const text: string = await client().audio.transcriptions.create({ model: HEARING, file, response_format: format });
    const json = await client().audio.transcriptions.create({ model: HEARING, file });
    expect(read(text).map((cue) => cue.text).join(" ")).toBe(json.text);
  });

  it("resolves to the text itself for response_format text", async () => {
    const text: string = await client().audio.transcriptions.create({ model: HEARING, file, response_format: "text" });
    expect(text).toBe((await client().audio.transcriptions.create({ model: HEARING, file })).text);
  });
});
