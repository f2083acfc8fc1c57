import { describe, expect, it } from "vitest";
import { decodeDataURL, ModelGate } from "../src/index.ts";
import { chunk, DONE, sseData } from "./fixtures/chunks.ts";
import { describeWork, meterWorkAsync } from "./fixtures/work-meter.ts";

// Large media stays linear through the stream: an image whose data: URL is one event of
// millions of characters, and a spoken reply in thousands of fragments. The work is counted,
// not timed: the characters and bytes that decoding, searching, slicing, joining and parsing
// read or produce (test/fixtures/work-meter.ts). Work that grows with the square of the size
// (re-joining the line on every read, re-copying the joined audio on every fragment) would
// make 4× the size cost about 4× as much per byte; linear work costs the same per byte.
// `node bench/media.mjs` prints the times.

const MB = 1_000_000;

/** `size` bytes that do not repeat in any short period. */
function media(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let seed = 42;
  for (let i = 0; i < size; i++) bytes[i] = (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) >>> 24;
  return bytes;
}

/** A client answering `wire` as an event stream in 64 KB network reads. */
function clientAnswering(wire: string) {
  const bytes = new TextEncoder().encode(wire);
  const body = () => {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, (at += 64 * 1024)));
      },
    });
  };
  return new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", fetch: async () => new Response(body(), { headers: { "content-type": "text/event-stream" } }) });
}

/** An image of `size` bytes in one event: streamed, assembled by finalChatCompletion() and decoded. */
function image(size: number) {
  const bytes = media(size);
  const url = `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
  const client = clientAnswering(sseData(chunk({ images: [{ type: "image_url", image_url: { url } }] })) + sseData(chunk({}, { finish: "stop" })) + DONE);
  return async () => {
    const stream = await client.chat.completions.create({ model: "m", messages: [], stream: true });
    const completion = await stream.finalChatCompletion();
    const decoded = decodeDataURL(completion.choices[0]!.message.images![0]!.image_url.url);
    expect(decoded.bytes).toHaveLength(size);
  };
}

/** A spoken reply of `size` bytes in fragments of 2,000 base64 characters (so 4× the size is 4× the fragments). */
function audio(size: number) {
  const data = Buffer.from(media(size)).toString("base64");
  let wire = sseData(chunk({ audio: { id: "audio_1" } }));
  for (let at = 0; at < data.length; at += 2_000) wire += sseData(chunk({ audio: { data: data.slice(at, at + 2_000), transcript: "word " } }));
  const client = clientAnswering(wire + sseData(chunk({}, { finish: "stop" })) + DONE);
  return async () => {
    const stream = await client.chat.completions.create({ model: "m", messages: [], stream: true });
    expect((await stream.finalChatCompletion()).choices[0]!.message.audio?.data).toHaveLength(data.length);
  };
}

/** The work per media byte of one run of `make(size)`, after a first run (so that lazily loaded code is in). */
async function workPerByte(make: (size: number) => () => Promise<void>, size: number) {
  const run = make(size);
  await run();
  const work = await meterWorkAsync(run);
  return { perByte: work.total / size, described: describeWork(work) };
}

describe("large media costs work linear in its size", () => {
  it.each([
    ["an image's data: URL in one event, through finalChatCompletion() and decodeDataURL()", image],
    ["a spoken reply's fragments, through finalChatCompletion()", audio],
  ])("%s: 4 MB costs no more work per byte than 1 MB", async (_name, make) => {
    const small = await workPerByte(make, 1 * MB);
    const large = await workPerByte(make, 4 * MB);
    // 10% above covers what the test runner does while the stream is awaited (a few hundred characters).
    expect(large.perByte, `1 MB: ${small.described}; 4 MB: ${large.described}`).toBeLessThan(small.perByte * 1.1);
  });
});
