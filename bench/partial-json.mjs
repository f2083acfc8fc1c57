// What streaming a structured output costs. `node bench/partial-json.mjs [runs]` prints medians
// in ms of two things.
//
// 1. The incremental parser next to one JSON.parse of the finished text, on a ~1 MB reply (an
//    array of records with strings, numbers and nested objects), and each one's ratio to
//    JSON.parse:
//    - JSON.parse of the whole text, once;
//    - PartialJSONParser fed in 10-character deltas, push() only;
//    - the same with snapshot() after every delta, as a UI that renders each delta would.
// 2. Partials on a wide object, end to end: parse({ stream: true }) over a hand-made event
//    stream of a flat object of 5,000 to 40,000 keys in 16-character deltas (16 KiB network
//    reads), read with `for await (const partial of stream.partialObjectStream)`, for growing
//    sizes. Twice: with every read already received (a fast model behind a buffering proxy),
//    and with each read a macrotask after the one before (a network that makes the SDK wait
//    between reads, so every read ends in a partial). It prints the partials, the entries they
//    copied (a partial copies the open containers on the path to the change: here the whole
//    object) and the time per 100,000 characters of answer, which stays flat when the work is
//    linear.
// The SDK is internal here (the parser is not in the package's exports), so its source is
// bundled with esbuild and imported from memory; nothing is written to disk.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const CHUNK = 10;
const RUNS = Number(process.argv[2] ?? 7);

/** Bundles `entry` (relative to this file) and imports it from memory. */
async function load(entry) {
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);
}
const { PartialJSONParser } = await load("../src/features/structured/partial-json.ts");
const { ModelGate } = await load("../src/index.ts");

/** A deterministic reply: the same text on every run and machine. */
function reply(targetLength) {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const words = ["model", "gateway", "token", "stream", "schema", "naïve", "café", "日本語", "emoji 🚀", 'quote "x"', "tab\there", "line\nbreak"];
  const sentence = (count) => Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(" ");
  const records = [];
  let length = 2;
  while (length < targetLength) {
    const record = {
      id: records.length,
      name: sentence(3),
      score: Math.round(random() * 1e6) / 1e3,
      ratio: random() * 1e-3,
      active: random() < 0.5,
      tags: Array.from({ length: 1 + Math.floor(random() * 4) }, () => sentence(1)),
      address: { street: sentence(2), city: sentence(1), zip: Math.floor(random() * 99_999), geo: { lat: random() * 180 - 90, lon: random() * 360 - 180 } },
      notes: random() < 0.3 ? null : sentence(12),
    };
    records.push(record);
    // Indented as models often write it; "[\n" and "\n]" around it stand for the ",\n" after it.
    length += JSON.stringify([record], null, 1).length - 2;
  }
  return JSON.stringify(records, null, 1);
}

const text = reply(1_000_000);
const chunks = [];
for (let i = 0; i < text.length; i += CHUNK) chunks.push(text.slice(i, i + CHUNK));

const variants = {
  "JSON.parse, whole text": () => JSON.parse(text),
  [`push() per ${CHUNK}-char delta`]: () => {
    const parser = new PartialJSONParser();
    for (const chunk of chunks) parser.push(chunk);
    return parser.end();
  },
  [`push() + snapshot() per ${CHUNK}-char delta`]: () => {
    const parser = new PartialJSONParser();
    for (const chunk of chunks) {
      parser.push(chunk);
      parser.snapshot();
    }
    return parser.end();
  },
};

// Every variant must produce the same value, or its timing means nothing.
const expected = JSON.stringify(JSON.parse(text));
for (const [name, run] of Object.entries(variants)) {
  if (JSON.stringify(run()) !== expected) throw new Error(`${name} returned a different value`);
}

// Interleaved rounds, so that a slow moment of the machine hits every variant alike.
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < RUNS; round++) {
  for (const [name, run] of Object.entries(variants)) {
    const started = performance.now();
    run();
    samples[name].push(performance.now() - started);
  }
}
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const baseline = median(samples["JSON.parse, whole text"]);
console.log(`reply: ${(text.length / 1e6).toFixed(2)} M characters, ${chunks.length.toLocaleString("en")} deltas; median of ${RUNS} runs, Node ${process.version}`);
for (const [name, values] of Object.entries(samples)) {
  const ms = median(values);
  console.log(`${name.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms ${(ms / baseline).toFixed(1).padStart(7)}×`);
}

// 2. Partials on a wide object, end to end.
const DELTA = 16;
const READ = 16 * 1024;
const KEYS = [5_000, 10_000, 20_000, 40_000];

const event = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench/wide", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** A flat object of `keys` string entries, and its event stream in DELTA-character deltas. */
function wide(keys) {
  const answer = JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, index) => [`key${index}`, `value ${index}`])));
  let wire = "";
  for (let at = 0; at < answer.length; at += DELTA) wire += event({ content: answer.slice(at, at + DELTA) });
  wire += `${event({}, "stop")}data: [DONE]\n\n`;
  return { answer, bytes: new TextEncoder().encode(wire) };
}

/** A client whose one answer is `bytes` in READ-byte network reads, each a macrotask after the last when `paced`. */
function clientAnswering(bytes, paced) {
  const body = () => {
    let at = 0;
    return new ReadableStream(
      {
        async pull(controller) {
          if (paced) await new Promise((resolve) => setImmediate(resolve));
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(at, (at += READ)));
        },
      },
      { highWaterMark: 0 },
    );
  };
  return new ModelGate({ apiKey: "bench", baseURL: "https://bench.invalid", maxRetries: 0, fetch: async () => new Response(body(), { headers: { "content-type": "text/event-stream" } }) });
}

/** The entries `next` copied next to `previous`: the width of each container that is not the same object as before. */
function copiedEntries(previous, next) {
  if (typeof next !== "object" || next === null || next === previous) return 0;
  const before = typeof previous === "object" && previous !== null ? previous : undefined;
  let copied = 0;
  for (const key of Object.keys(next)) copied += 1 + copiedEntries(before?.[key], next[key]);
  return copied;
}

const params = {
  model: "bench/wide",
  messages: [{ role: "user", content: "wide" }],
  response_format: { type: "json_schema", json_schema: { name: "wide", schema: { type: "object" } } },
  stream: true,
};

/** Reads every partial; with `count`, also the entries they copied. */
async function readPartials(client, count) {
  const stream = await client.chat.completions.parse(params);
  let partials = 0;
  let copied = 0;
  let last;
  for await (const partial of stream.partialObjectStream) {
    partials++;
    if (count) copied += copiedEntries(last, partial);
    last = partial;
  }
  return { partials, copied, last };
}

console.log(`\npartials on a wide object, ${DELTA}-character deltas in ${READ / 1024} KiB reads; median of ${RUNS} runs`);
// A warm-up of both paths, so that the first size is not timed while the JIT is still compiling.
for (const paced of [false, true]) await readPartials(clientAnswering(wide(KEYS[0]).bytes, paced), false);
for (const paced of [false, true]) {
  console.log(paced ? "each read a macrotask after the one before (one partial per read):" : "every read already received:");
  const perChar = [];
  for (const keys of KEYS) {
    const { answer, bytes } = wide(keys);
    const client = clientAnswering(bytes, paced);
    const { partials, copied, last } = await readPartials(client, true);
    if (JSON.stringify(last) !== answer) throw new Error("the last partial is not the answer");
    const ms = [];
    for (let round = 0; round < RUNS; round++) {
      const started = performance.now();
      await readPartials(client, false);
      ms.push(performance.now() - started);
    }
    const time = median(ms);
    perChar.push(time / (answer.length / 1e5));
    console.log(
      `  ${keys.toLocaleString("en").padStart(6)} keys, ${(answer.length / 1e3).toFixed(0).padStart(4)} k characters: ${String(partials).padStart(4)} partials, ${copied.toLocaleString("en").padStart(11)} entries copied, ${time.toFixed(1).padStart(7)} ms, ${perChar.at(-1).toFixed(1).padStart(5)} ms per 100 k characters`,
    );
  }
  console.log(`  ${KEYS.at(-1) / KEYS[0]}× the keys: ${(perChar.at(-1) / perChar[0]).toFixed(2)}× the time per character (linear: about 1)`);
}
