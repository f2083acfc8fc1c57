// One measurement in a fresh process: `node bench/worker.mjs <client> <metric> <baseURL> <n>`.
// Prints one JSON line. Each client is imported here, timed, so the import is cold.
import { WORDS } from "./words.mjs";

const [name, metric, baseURL, countText] = process.argv.slice(2);
const count = Number(countText);

const importStarted = performance.now();
const client = await import(`./clients/${name}.mjs`);
const importMs = performance.now() - importStarted;

const expectedText = (chunks) => {
  let text = "";
  for (let i = 0; i < chunks; i++) text += WORDS[i % WORDS.length];
  return text;
};

async function measureStream() {
  await client.streamText(baseURL, 2_000); // warm up the JIT and the connection
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const text = await client.streamText(baseURL, count);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (text !== expectedText(count)) throw new Error(`${name}: streamed text differs (length ${text.length})`);
  return { chunksPerSecond: count / seconds, cpuMsPer10k: ((cpu.user + cpu.system) / 1000 / count) * 10_000 };
}

async function measurePeakRSS() {
  const text = await client.streamText(baseURL, count);
  if (text.length !== expectedText(count).length) throw new Error(`${name}: streamed text differs`);
  return { peakRSSMB: process.resourceUsage().maxRSS / 1024 };
}

async function measureRequests() {
  for (let i = 0; i < 200; i++) await client.complete(baseURL); // warm up the JIT and the connection
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    if ((await client.complete(baseURL)) !== "Hello from the benchmark.") throw new Error(`${name}: wrong answer`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { requestsPerSecond: count / seconds, cpuUsPerRequest: (cpu.user + cpu.system) / count };
}

async function measureFirstDelta() {
  for (let i = 0; i < 20; i++) await client.streamText(baseURL, 20);
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    let first = 0;
    await client.streamText(baseURL, 20, () => (first = performance.now() - started));
    samples.push(first);
  }
  samples.sort((a, b) => a - b);
  return { firstDeltaMs: samples[Math.floor(samples.length / 2)] };
}

const measure = { stream: measureStream, rss: measurePeakRSS, requests: measureRequests, ttfd: measureFirstDelta, import: async () => ({ importMs }) };
console.log(JSON.stringify(await measure[metric]()));
process.exit(0);
