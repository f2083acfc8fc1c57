// What large media costs on the way through a stream. `node bench/media.mjs [runs]` times, for
// 1 MB and 5 MB of media bytes (deterministic, the same on every run):
// - an image whose base64 data: URL arrives in ONE Server-Sent Event (a line of 1.4 M or 7 M
//   characters, split into 64 KB network reads), read by a real `Stream` over a hand-made
//   Response body, assembled by `finalChatCompletion()`, then turned back into bytes by
//   `decodeDataURL()`;
//   (and decodeDataURL() alone, for its share);
// - a spoken reply whose base64 data arrives in 2,000 `delta.audio` fragments (one chunk each,
//   with a transcript piece), assembled by `finalChatCompletion()`.
// It prints medians in ms and MB/s of media bytes, and the 5 MB / 1 MB ratio of the times:
// about 5 means linear; quadratic work would show as about 25.
// The SDK's source is bundled with esbuild and imported from memory, as bench/partial-json.mjs
// does; nothing is written to disk and no build is needed.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const RUNS = Number(process.argv[2] ?? 7);
const MB = 1_000_000;
const READ = 64 * 1024;
const FRAGMENTS = 2_000;

const { outputFiles } = await build({
  entryPoints: [fileURLToPath(new URL("../src/index.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  write: false,
  logLevel: "silent",
});
const { ModelGate, decodeDataURL } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);

/** `size` deterministic bytes that do not compress to anything (a PNG signature first, for show). */
function media(size) {
  const bytes = new Uint8Array(size);
  let seed = 42;
  for (let i = 0; i < size; i++) bytes[i] = (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24;
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

const chunk = (delta, finish = null) => ({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench/media", choices: [{ index: 0, delta, finish_reason: finish }] });
const event = (data) => `data: ${JSON.stringify(data)}\n\n`;

/** The wire bytes of a stream of `chunks`, then [DONE]. */
function wire(chunks) {
  return new TextEncoder().encode(chunks.map(event).join("") + "data: [DONE]\n\n");
}

/** A client whose one answer is `bytes`, sent as an event stream in 64 KB reads. */
function clientAnswering(bytes) {
  const body = () => {
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, (at += READ)));
      },
    });
  };
  return new ModelGate({ apiKey: "bench", baseURL: "https://bench.invalid", fetch: async () => new Response(body(), { headers: { "content-type": "text/event-stream" } }) });
}

const ask = { model: "bench/media", messages: [{ role: "user", content: "media" }], stream: true };

/** An image in one event; returns a run that streams, assembles and decodes it, and checks the bytes. */
function imageCase(size) {
  const bytes = media(size);
  const url = `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
  const client = clientAnswering(wire([chunk({ role: "assistant", content: "Here it is." }), chunk({ images: [{ type: "image_url", image_url: { url } }] }), chunk({}, "stop")]));
  return {
    characters: url.length,
    run: async () => {
      const stream = await client.chat.completions.create(ask);
      const completion = await stream.finalChatCompletion();
      const decoded = decodeDataURL(completion.choices[0].message.images[0].image_url.url);
      if (decoded.bytes.length !== size || decoded.bytes[size - 1] !== bytes[size - 1]) throw new Error("the image came back different");
    },
  };
}

/** decodeDataURL() alone, on the same URL as `imageCase`: the share of the image's time that is decoding. */
function decodeCase(size) {
  const url = `data:image/png;base64,${Buffer.from(media(size)).toString("base64")}`;
  return {
    characters: url.length,
    run: async () => {
      if (decodeDataURL(url).bytes.length !== size) throw new Error("decoded to another size");
    },
  };
}

/** A spoken reply in FRAGMENTS fragments; returns a run that streams and assembles it, and checks the data. */
function audioCase(size) {
  const data = Buffer.from(media(size)).toString("base64");
  // Whole base64 quads per fragment, so each piece decodes on its own, as a player needs.
  const piece = Math.ceil(data.length / FRAGMENTS / 4) * 4;
  const chunks = [chunk({ role: "assistant", content: null }), chunk({ audio: { id: "audio_bench" } })];
  for (let at = 0; at < data.length; at += piece) chunks.push(chunk({ audio: { data: data.slice(at, at + piece), transcript: "word " } }));
  chunks.push(chunk({ audio: { expires_at: 1 } }, "stop"));
  const client = clientAnswering(wire(chunks));
  return {
    fragments: chunks.length - 3,
    run: async () => {
      const stream = await client.chat.completions.create({ ...ask, modalities: ["audio", "text"], audio: { voice: "alloy", format: "wav" } });
      const { audio } = (await stream.finalChatCompletion()).choices[0].message;
      if (audio.data !== data || audio.format !== "wav") throw new Error("the audio came back different");
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Median ms of `RUNS` runs after one warm-up, interleaving the cases so a slow moment hits them alike. */
async function time(cases) {
  for (const each of cases) await each.run();
  const samples = cases.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (const [index, each] of cases.entries()) {
      const started = performance.now();
      await each.run();
      samples[index].push(performance.now() - started);
    }
  }
  return samples.map(median);
}

console.log(`median of ${RUNS} runs, Node ${process.version}; MB/s counts media bytes (1 MB = 10^6 B)`);
for (const [name, make, describe] of [
  ["image, one event", imageCase, (each) => `${(each.characters / MB).toFixed(2)} M-character data: URL`],
  ["of which decodeDataURL() alone", decodeCase, (each) => `${(each.characters / MB).toFixed(2)} M characters`],
  [`audio, ${FRAGMENTS.toLocaleString("en")} fragments`, audioCase, (each) => `${each.fragments.toLocaleString("en")} delta.audio fragments`],
]) {
  const sizes = [1 * MB, 5 * MB];
  const cases = sizes.map(make);
  const ms = await time(cases);
  sizes.forEach((size, index) => {
    const line = `${name}, ${size / MB} MB (${describe(cases[index])})`;
    console.log(`${line.padEnd(72)} ${ms[index].toFixed(1).padStart(7)} ms ${((size / MB) / (ms[index] / 1000)).toFixed(0).padStart(5)} MB/s`);
  });
  console.log(`${`${name}: 5 MB takes ${(ms[1] / ms[0]).toFixed(1)}× the time of 1 MB (linear: about 5)`}`);
}
