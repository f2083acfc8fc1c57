import { describe, expect, it } from "vitest";
import { decodeDataURL, ModelGate } from "../src/index.ts";
import { chunk, DONE, sseData } from "./fixtures/chunks.ts";

// Large media stays linear through the stream: an image whose data: URL is one event of
// millions of characters, and a spoken reply in thousands of fragments. Work that grows with
// the square of the size (re-joining the line on every read, re-copying the joined audio on
// every fragment) would make 4× the size take about 16× the time; linear work takes about 4×.
// The bound is 8×, on the fastest of several runs of each size, so a slow or busy machine
// does not fail it while quadratic work does. `node bench/media.mjs` prints the figures.

const MB = 1_000_000;
const RUNS = 5;

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

/** The fastest of RUNS runs of each, after a warm-up, interleaved so a busy moment hits both alike. */
async function fastest(small: () => Promise<void>, large: () => Promise<void>): Promise<[number, number]> {
  await small();
  await large();
  const best: [number, number] = [Infinity, Infinity];
  for (let run = 0; run < RUNS; run++) {
    for (const [index, each] of [small, large].entries()) {
      const started = performance.now();
      await each();
      best[index] = Math.min(best[index]!, performance.now() - started);
    }
  }
  return best;
}

describe("large media takes time linear in its size", () => {
  it.each([
    ["an image's data: URL in one event, through finalChatCompletion() and decodeDataURL()", image],
    ["a spoken reply's fragments, through finalChatCompletion()", audio],
  ])("%s: 4 MB takes less than 8× the time of 1 MB", async (_name, make) => {
    const [small, large] = await fastest(make(1 * MB), make(4 * MB));
    expect(large / small, `1 MB: ${small.toFixed(1)} ms, 4 MB: ${large.toFixed(1)} ms`).toBeLessThan(8);
  });
});
