// `npm run bench [-- --quick | --requests]`: raw fetch loop vs modelgate vs openai, interleaved,
// medians. `--requests` runs only the non-streamed request scenario (requests/s and client CPU
// per request) with more rounds, for work on the request path.
// The gateway runs in a separate process; every client measurement runs in a fresh one.
import { execFileSync, fork, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { bundleSize } from "./bundle.mjs";

const quick = process.argv.includes("--quick");
const requestsOnly = process.argv.includes("--requests");
const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));
// `--requests` adds the loop that also keeps API.md's per-request promises (raw-with-timeout.mjs).
const CLIENTS = requestsOnly ? ["raw", "raw-with-timeout", "modelgate", "openai"] : ["raw", "modelgate", "openai"];
const plan = quick
  ? { rounds: 3, streamChunks: 20_000, rssChunks: 100_000, requests: 300, firstDeltas: 50, imports: 5 }
  : requestsOnly
    ? { rounds: 9, requests: 3_000 }
    : { rounds: 5, streamChunks: 200_000, rssChunks: 1_000_000, requests: 2_000, firstDeltas: 200, imports: 15 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function startServer() {
  const server = fork(`${here}server.mjs`, [], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const port = await new Promise((resolve, reject) => {
    server.stdout.once("data", (line) => resolve(JSON.parse(String(line)).port));
    server.once("exit", () => reject(new Error("benchmark server exited")));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => server.kill() };
}

function worker(client, metric, url, count) {
  const output = execFileSync(process.execPath, [`${here}worker.mjs`, client, metric, url, String(count)], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(output.trim().split("\n").at(-1));
}

/**
 * Runs `metric` for every client, `rounds` times, rotating the order each round; returns the
 * median of each reported field per client: `{ field: { raw, modelgate, openai } }`.
 */
function interleaved(metric, url, count, rounds) {
  const samples = Object.fromEntries(CLIENTS.map((client) => [client, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < CLIENTS.length; i++) {
      const client = CLIENTS[(i + round) % CLIENTS.length];
      samples[client].push(worker(client, metric, url, count));
    }
  }
  const fields = Object.keys(samples.raw[0]);
  return Object.fromEntries(
    fields.map((field) => [field, Object.fromEntries(CLIENTS.map((client) => [client, median(samples[client].map((sample) => sample[field]))]))]),
  );
}

function coldProcessImportMs(runs) {
  const time = (args) => {
    const started = performance.now();
    spawnSync(process.execPath, args, { cwd: root });
    return performance.now() - started;
  };
  const specifier = { raw: `${here}clients/raw.mjs`, modelgate: `${root}dist/index.js`, openai: "openai" };
  const samples = { bare: [], raw: [], modelgate: [], openai: [] };
  for (let run = 0; run < runs; run++) {
    samples.bare.push(time(["-e", ""]));
    for (const client of CLIENTS) samples[client].push(time(["--input-type=module", "-e", `await import(${JSON.stringify(specifier[client])})`]));
  }
  const bare = median(samples.bare);
  return Object.fromEntries(CLIENTS.map((client) => [client, median(samples[client]) - bare]));
}

const server = await startServer();
const started = performance.now();
const rows = [];
try {
  if (requestsOnly) await requestRows();
  else await allRows();
} finally {
  server.stop();
}

async function requestRows() {
  const requests = interleaved("requests", server.url, plan.requests, plan.rounds);
  rows.push([`non-streamed requests/s, keep-alive, ${plan.requests.toLocaleString("en-US")} per run (higher is better)`, requests.requestsPerSecond]);
  rows.push(["client CPU µs per non-streamed request", requests.cpuUsPerRequest]);
}

async function allRows() {
  const stream = interleaved("stream", server.url, plan.streamChunks, plan.rounds);
  rows.push([`stream throughput, ${plan.streamChunks / 1000}k chunks (chunks/s, higher is better)`, stream.chunksPerSecond]);
  rows.push(["client CPU ms per 10k chunks", stream.cpuMsPer10k]);
  rows.push([`peak RSS streaming ${plan.rssChunks / 1000}k chunks (MB)`, interleaved("rss", server.url, plan.rssChunks, 1).peakRSSMB]);
  const requests = interleaved("requests", server.url, plan.requests, plan.rounds);
  rows.push(["non-streamed requests/s, keep-alive (higher is better)", requests.requestsPerSecond]);
  rows.push(["client CPU µs per non-streamed request", requests.cpuUsPerRequest]);
  rows.push(["time to first delta (ms, median)", interleaved("ttfd", server.url, plan.firstDeltas, plan.rounds).firstDeltaMs]);
  rows.push(["in-process cold import (ms)", interleaved("import", server.url, 0, plan.imports).importMs]);
  rows.push(["cold process import over bare node (ms)", coldProcessImportMs(plan.imports)]);
  // The same streamed chat page for each client: bench/apps/raw.mjs, chat-for-await.mjs, openai.mjs.
  const page = { raw: "raw", modelgate: "chat-for-await", openai: "openai" };
  const sizes = Object.fromEntries(await Promise.all(CLIENTS.map(async (client) => [client, await bundleSize(page[client])])));
  for (const [field, label] of [["minifiedBytes", "minified"], ["gzipBytes", "gzip"], ["brotliBytes", "brotli"]]) {
    rows.push([`streamed-chat app bundle, ${label} (bytes)`, Object.fromEntries(CLIENTS.map((client) => [client, sizes[client][field]]))]);
  }
}

const format = (value) => (value >= 1000 ? Math.round(value).toLocaleString("en-US") : value.toFixed(value >= 10 ? 1 : 2));
const ratio = (value, raw) => (raw ? `${(value / raw).toFixed(2)}×` : "—");
console.log(`\nmodelgate benchmark${quick ? " (--quick)" : requestsOnly ? " (--requests)" : ""}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}`);
console.log(`${plan.rounds} interleaved rounds, each client in a fresh process, medians; took ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
if (requestsOnly) {
  console.log("| metric | raw | raw + timeout | modelgate | openai | modelgate / raw | openai / raw | modelgate / raw + timeout | openai / raw + timeout |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [label, values] of rows) {
    const guarded = values["raw-with-timeout"];
    console.log(`| ${label} | ${format(values.raw)} | ${format(guarded)} | ${format(values.modelgate)} | ${format(values.openai)} | ${ratio(values.modelgate, values.raw)} | ${ratio(values.openai, values.raw)} | ${ratio(values.modelgate, guarded)} | ${ratio(values.openai, guarded)} |`);
  }
} else {
  console.log("| metric | raw | modelgate | openai | modelgate / raw | openai / raw |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [label, values] of rows) {
    console.log(`| ${label} | ${format(values.raw)} | ${format(values.modelgate)} | ${format(values.openai)} | ${ratio(values.modelgate, values.raw)} | ${ratio(values.openai, values.raw)} |`);
  }
}
