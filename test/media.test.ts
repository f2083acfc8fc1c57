import { describe, expect, it } from "vitest";
import {
  decodeDataURL,
  ModelGateError,
  ModelGate,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionChunkDelta,
  type ChatCompletionCreateParamsBase,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
  type ChatCompletionMessageParam,
} from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { fromBase64, readPNG, readWAV } from "./fixtures/media.ts";
import { recordingClient } from "./fixtures/client.ts";

// Chat replies beyond text, as the SDK hands them over (API.md, "Beyond text"): images,
// videos and spoken replies in messages, their streamed fragments, and what
// finalChatCompletion() joins them into. Hand-made answers pin the wire cases; the mock
// gateway checks the whole round trip.

const speak: Pick<ChatCompletionCreateParamsBase, "modalities" | "audio"> = { modalities: ["audio", "text"], audio: { voice: "alloy", format: "wav" } };
const draw: ChatCompletionMessageParam = { role: "user", content: "Draw a lighthouse at dusk" };
const png = "data:image/png;base64,iVBORw0KGgo=";


/** A client of a fresh mock gateway. */
function mocked() {
  const gateway = createMockGateway();
  return { gateway, client: new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway }) };
}

/** The completion a stream of `deltas` (one chunk each, choice 0 unless given) amounts to. */
async function streamed(deltas: (ChatCompletionChunkDelta | [ChatCompletionChunkDelta, number])[], params: Partial<ChatCompletionCreateParamsStreaming> = {}) {
  const chunks = deltas.map((delta) => (Array.isArray(delta) ? chunk(delta[0], { index: delta[1] }) : chunk(delta)));
  const choices = new Set(chunks.map((each) => each.choices[0]!.index));
  const finishes = [...choices].map((index) => chunk({}, { index, finish: "stop" }));
  const { client, sent } = recordingClient(() => sseResponse([...[...chunks, ...finishes].map(sseData), DONE]));
  const stream = await client.chat.completions.create({ model: "m", messages: [draw], ...params, stream: true });
  return { completion: await stream.finalChatCompletion(), sent };
}

describe("images, videos and audio in a non-streamed message", () => {
  it("passes message.images, message.videos and message.audio through as the server sent them", async () => {
    const body = completionBody("Here you are.") as ChatCompletion;
    const message = body.choices[0]!.message;
    message.images = [{ type: "image_url", image_url: { url: png } }];
    message.videos = [{ type: "video_url", video_url: { url: "https://cdn.test/v.mp4" } }];
    message.audio = { id: "audio_1", data: "UklGRg==", transcript: "Here you are.", expires_at: 1_700_003_600, format: "wav" };
    const { client } = recordingClient(() => Response.json(body));
    const completion = await client.chat.completions.create({ model: "m", messages: [draw] });
    expect(completion.choices[0]!.message).toEqual(message);
  });

  it("answers modalities image with message.images, a data: URL that decodeDataURL() turns into a valid PNG", async () => {
    const { client } = mocked();
    const completion = await client.chat.completions.create({ model: "auto", messages: [draw], modalities: ["image", "text"] });
    const [image] = completion.choices[0]!.message.images!;
    expect(image?.type).toBe("image_url");
    const { mediaType, bytes } = decodeDataURL(image!.image_url.url);
    expect(mediaType).toBe("image/png");
    expect(readPNG(bytes)).toMatchObject({ width: 2, height: 2 });
  });

  it("gives a video model's reply as message.videos with the video's URL", async () => {
    const { client } = mocked();
    const completion = await client.chat.completions.create({ model: "google/veo-3.1", messages: [{ role: "user", content: "A wave breaking" }] });
    expect(completion.choices[0]!.message.videos).toEqual([{ type: "video_url", video_url: { url: "https://mock.modelgate.invalid/videos/1.mp4" } }]);
  });

  it("gives a spoken reply as message.audio: base64 WAV data, its transcript and format, and content null", async () => {
    const { client } = mocked();
    const completion = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Say hi" }], ...speak });
    const { message } = completion.choices[0]!;
    expect(message.content).toBeNull();
    expect(message.audio).toMatchObject({ id: expect.stringMatching(/^audio_/), format: "wav", transcript: expect.any(String), expires_at: expect.any(Number) });
    expect(readWAV(fromBase64(message.audio!.data))).toMatchObject({ channels: 1, sampleRate: 8_000, bitsPerSample: 16 });
  });
});

describe("streamed media and finalChatCompletion()", () => {
  it("joins delta.audio data and transcript fragments in order, keeping the first id and the expiry", async () => {
    const { completion } = await streamed([
      { role: "assistant", content: null },
      { audio: { id: "audio_1" } },
      { audio: { transcript: "Hel" } },
      { audio: { data: "AAEC" } },
      { audio: { transcript: "lo." } },
      { audio: { data: "AwQF" } },
      { audio: { expires_at: 1_700_003_600 } },
    ]);
    expect(completion.choices[0]!.message.audio).toEqual({ id: "audio_1", data: "AAECAwQF", transcript: "Hello.", expires_at: 1_700_003_600 });
  });

  it("takes the audio format from the request's audio.format when no fragment names one", async () => {
    const { completion, sent } = await streamed([{ audio: { id: "audio_1", data: "AAEC" } }, { audio: { data: "AwQF" } }], speak);
    expect(sent[0]).toMatchObject({ modalities: ["audio", "text"], audio: { voice: "alloy", format: "wav" } });
    expect(completion.choices[0]!.message.audio).toMatchObject({ data: "AAECAwQF", format: "wav" });
  });

  it("gives the request's format to the first audio delta a reader sees, for a player that starts before the end", async () => {
    const { client } = recordingClient(() => sseResponse([sseData(chunk({ audio: { id: "a", data: "AAEC" } })), sseData(chunk({ audio: { data: "AwQF" } }, { finish: "stop" })), DONE]));
    const stream = await client.chat.completions.create({ model: "m", messages: [draw], ...speak, stream: true });
    const fragments = [];
    for await (const each of stream) fragments.push(each.choices[0]!.delta.audio);
    expect(fragments).toEqual([{ id: "a", data: "AAEC", format: "wav" }, { data: "AwQF" }]);
  });

  it("keeps a format the fragments name over the request's, on the first fragment or a later one", async () => {
    const first = await streamed([{ audio: { id: "a", format: "pcm16" } }, { audio: { data: "AAEC" } }], speak);
    expect(first.completion.choices[0]!.message.audio?.format).toBe("pcm16");
    const later = await streamed([{ audio: { id: "a" } }, { audio: { data: "AAEC", format: "mp3" } }], speak);
    expect(later.completion.choices[0]!.message.audio?.format).toBe("mp3");
  });

  it("gives every choice of n = 2 the request's audio format", async () => {
    const { completion } = await streamed([[{ audio: { id: "a" } }, 0], [{ audio: { id: "b" } }, 1], [{ audio: { data: "AAEC" } }, 0], [{ audio: { data: "AwQF" } }, 1]], { ...speak, n: 2 });
    expect(completion.choices.map((choice) => [choice.message.audio?.id, choice.message.audio?.data, choice.message.audio?.format])).toEqual([
      ["a", "AAEC", "wav"],
      ["b", "AwQF", "wav"],
    ]);
  });

  it("leaves format out when neither the request nor the fragments name one", async () => {
    const { completion } = await streamed([{ audio: { id: "a", data: "AAEC" } }]);
    expect(completion.choices[0]!.message.audio).toEqual({ id: "a", data: "AAEC", transcript: "", expires_at: 0 });
  });

  it("keeps each image and video whole and in order, however many chunks they came in", async () => {
    const second = "data:image/png;base64,AAAA";
    const { completion } = await streamed([
      { content: "Two pictures" },
      { images: [{ type: "image_url", image_url: { url: png } }] },
      { content: " and a clip." },
      { images: [{ type: "image_url", image_url: { url: second } }], videos: [{ type: "video_url", video_url: { url: "https://cdn.test/v.mp4" } }] },
    ]);
    const { message } = completion.choices[0]!;
    expect(message.content).toBe("Two pictures and a clip.");
    expect(message.images?.map((image) => image.image_url.url)).toEqual([png, second]);
    expect(message.videos).toEqual([{ type: "video_url", video_url: { url: "https://cdn.test/v.mp4" } }]);
  });

  it("joins a stream that interleaves reasoning, content and audio fragments, each in its own order", async () => {
    const { completion } = await streamed(
      [
        { role: "assistant", content: "" },
        { reasoning: "The user " },
        { audio: { id: "audio_9", transcript: "Hi" } },
        { content: "Hi" },
        { reasoning: "wants a greeting." },
        { audio: { data: "AAEC" } },
        { content: " there." },
        { audio: { transcript: " there.", data: "AwQF" } },
        { reasoning: " Done." },
      ],
      speak,
    );
    expect(completion.choices[0]!.message).toEqual({
      role: "assistant",
      content: "Hi there.",
      reasoning: "The user wants a greeting. Done.",
      audio: { id: "audio_9", data: "AAECAwQF", transcript: "Hi there.", expires_at: 0, format: "wav" },
    });
  });

  it("gives an audio-only reply content null, as the non-streamed reply has it", async () => {
    const { completion } = await streamed([{ role: "assistant", content: null }, { audio: { id: "a", data: "AAEC", transcript: "Hi" } }], speak);
    expect(completion.choices[0]!.message.content).toBeNull();
  });

  it.each<[string, Partial<ChatCompletionCreateParamsNonStreaming>]>([
    ["an image", { messages: [draw], modalities: ["image", "text"] }],
    ["a spoken reply", { messages: [{ role: "user", content: "Say hi" }], ...speak }],
    ["a video", { model: "google/veo-3.1", messages: [{ role: "user", content: "A wave breaking" }] }],
  ])("assembles %s from the mock gateway's stream exactly as the non-streamed reply", async (_name, extra) => {
    const params: ChatCompletionCreateParamsNonStreaming = { model: "auto", messages: [], ...extra };
    const whole = await mocked().client.chat.completions.create(params);
    const assembled = await (await mocked().client.chat.completions.create({ ...params, stream: true })).finalChatCompletion();
    expect(assembled.model).toBe(whole.model);
    expect(assembled.choices).toEqual(whole.choices);
  });

  it("streams the mock gateway's speech as fragments that decode, joined, to a valid WAV, whose transcript is the text", async () => {
    const { client } = mocked();
    const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Say hi" }], ...speak, stream: true });
    const [forChunks, forCompletion] = stream.tee();
    const fragments: ChatCompletionChunk["choices"][number]["delta"]["audio"][] = [];
    const reading = (async () => {
      for await (const each of forChunks) if (each.choices[0]?.delta.audio) fragments.push(each.choices[0].delta.audio);
    })();
    const { audio } = (await forCompletion.finalChatCompletion()).choices[0]!.message;
    await reading;
    expect(fragments.length).toBeGreaterThan(4);
    expect(fragments.filter((fragment) => fragment?.data).length).toBeGreaterThan(1);
    expect(audio?.format).toBe("wav");
    expect(readWAV(fromBase64(audio!.data)).samples.length).toBe(400);
    expect(audio?.transcript).toBe(fragments.map((fragment) => fragment?.transcript ?? "").join(""));
  });
});

describe("decodeDataURL()", () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const rejects = (url: unknown) => {
    try {
      decodeDataURL(url as string);
    } catch (error) {
      expect(error, `${String(url)} threw another class`).toBeInstanceOf(ModelGateError);
      expect((error as ModelGateError).param, "the parameter the error names").toBe("url");
      return (error as Error).message;
    }
    throw new Error(`${String(url)} was decoded`);
  };

  it("decodes a base64 data: URL to its media type, as written without ;base64, and its bytes", () => {
    expect(decodeDataURL("data:image/png;base64,iVBORw0KGgo=")).toEqual({ mediaType: "image/png", bytes: Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) });
    expect(decodeDataURL("data:audio/wav;codecs=1;base64,UklGRg==")).toEqual({ mediaType: "audio/wav;codecs=1", bytes: new TextEncoder().encode("RIFF") });
  });

  it("reads DATA: and ;BASE64 in any case, skips whitespace in base64 and accepts it without padding", () => {
    expect(text(decodeDataURL("DATA:text/plain;BASE64,SGVs\nbG8g d29y\r\nbGQ").bytes)).toBe("Hello world");
    expect(decodeDataURL("data:;base64,AAA").bytes).toEqual(Uint8Array.of(0, 0));
    expect(decodeDataURL("data:;base64,AA").bytes).toEqual(Uint8Array.of(0));
    expect(decodeDataURL("data:;base64,QQ%3D%3D").bytes).toEqual(new TextEncoder().encode("A"));
  });

  it("decodes percent-encoded data byte by byte, a character split over several escapes included", () => {
    // "€" is E2 82 AC and "🚀" F0 9F 9A 80 in UTF-8: each byte is its own escape.
    expect(text(decodeDataURL("data:text/plain;charset=utf-8,caf%C3%A9 %E2%82%AC %F0%9F%9A%80").bytes)).toBe("café € 🚀");
    expect(decodeDataURL("data:,Hello%2C%20World%21")).toEqual({ mediaType: "text/plain;charset=US-ASCII", bytes: new TextEncoder().encode("Hello, World!") });
    // Half a character stays the two bytes it is, not a replacement character.
    expect(decodeDataURL("data:application/octet-stream,%E2%82").bytes).toEqual(Uint8Array.of(0xe2, 0x82));
    // Characters written as they are count as their UTF-8 bytes; "%" not followed by two hex digits is a "%".
    expect(decodeDataURL("data:,€%zz%4").bytes).toEqual(Uint8Array.of(0xe2, 0x82, 0xac, 0x25, 0x7a, 0x7a, 0x25, 0x34));
  });

  it("gives text/plain;charset=US-ASCII when the media type is empty, and text/plain before parameters alone", () => {
    expect(decodeDataURL("data:,")).toEqual({ mediaType: "text/plain;charset=US-ASCII", bytes: new Uint8Array() });
    expect(decodeDataURL("data:;base64,")).toEqual({ mediaType: "text/plain;charset=US-ASCII", bytes: new Uint8Array() });
    expect(decodeDataURL("data:;charset=utf-8,x").mediaType).toBe("text/plain;charset=utf-8");
  });

  it("rejects an https: URL with a ModelGateError that says to fetch it", () => {
    expect(rejects("https://cdn.test/image.png")).toMatch(/got a https: URL, which has to be downloaded \(fetch it\)/);
  });

  it.each([
    ["no comma", "data:image/png;base64", /no comma/],
    ["a character that is not base64", "data:image/png;base64,iVBOR*w0", /not valid base64/],
    ["one character past a whole quad", "data:;base64,AAAAA", /not valid base64/],
    ["padding that does not end a quad", "data:;base64,AA=", /not valid base64/],
    ["padding after a single character (atob throws a DOMException there)", "data:;base64,A==", /not valid base64/],
    ["padding in the middle", "data:;base64,AA==AAAA", /not valid base64/],
    ["three padding characters", "data:;base64,A===", /not valid base64/],
    ["a malformed percent-escape in base64", "data:;base64,%E2%82", /malformed percent-escape/],
    ["no scheme at all", "just text", /must be a data: URL; got "just text"/],
    ["a number", 42, /must be a data: URL string; got number 42/],
  ])("rejects %s with a ModelGateError", (_name, url, message) => {
    expect(rejects(url)).toMatch(message);
  });

  it("reads data: URLs as a URL parser does: no fragment, no surrounding spaces, no tabs or line breaks", () => {
    const text = (url: string) => new TextDecoder().decode(decodeDataURL(url).bytes);
    expect(text("data:text/plain,hello#frag")).toBe("hello");
    expect(text("data:;base64,aGk=#frag")).toBe("hi");
    expect(text(" data:,lead ")).toBe("lead");
    expect(text("data:,a\tb\nc")).toBe("abc");
  });
});
