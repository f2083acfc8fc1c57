// What streaming a structured output costs next to one JSON.parse of the finished text.
// `node bench/partial-json.mjs` builds a ~1 MB reply (an array of records with strings,
// numbers and nested objects) and prints medians in ms, and each one's ratio to JSON.parse:
// - JSON.parse of the whole text, once;
// - PartialJSONParser fed in 10-character deltas, push() only;
// - the same with snapshot() after every delta, as a UI that renders each delta would.
// The parser is internal (not in the package's exports), so its source is bundled with
// esbuild and imported from memory; nothing is written to disk.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const CHUNK = 10;
const RUNS = Number(process.argv[2] ?? 7);

const { outputFiles } = await build({
  entryPoints: [fileURLToPath(new URL("../src/structured/partial-json.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  write: false,
  logLevel: "silent",
});
const { PartialJSONParser } = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);

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
