// What `tee()` costs when one side lags the other by the whole stream: the left side reads
// every chunk first, then the right side reads them all from the buffer. `node bench/tee.mjs`
// (after `npm run build`) prints the median ms of 5 runs for 40k, 80k and 160k chunks, and each
// size's time per chunk: a linear tee() keeps that figure flat as the stream grows.
// Reported, not asserted (test/stream.test.ts proves linearity by counting work).
import { Stream } from "../dist/index.js";

const SIZES = (process.argv[2] ?? "40000,80000,160000").split(",").map(Number);
const RUNS = 5;

/** A stream of `count` small chunks that are all there already: only tee()'s own cost is timed. */
function chunks(count) {
  let sent = 0;
  const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }] };
  return new Stream(() => ({ next: async () => (sent++ < count ? { value: chunk, done: false } : { value: undefined, done: true }) }), new AbortController(), undefined);
}

async function lagging(count) {
  const [left, right] = chunks(count).tee();
  const started = performance.now();
  let seen = 0;
  for await (const _ of left) seen++;
  for await (const _ of right) seen++;
  const ms = performance.now() - started;
  if (seen !== 2 * count) throw new Error(`saw ${seen} chunks, expected ${2 * count}`);
  return ms;
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log("chunks   ms (median of 5)   µs per chunk");
for (const size of SIZES) {
  const times = [];
  for (let run = 0; run < RUNS; run++) times.push(await lagging(size));
  const ms = median(times);
  console.log(`${String(size).padStart(6)}   ${ms.toFixed(1).padStart(16)}   ${((ms * 1000) / size).toFixed(2).padStart(12)}`);
}
