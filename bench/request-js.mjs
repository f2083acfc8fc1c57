// The SDK's own JavaScript per non-streamed request, without the network: `node bench/request-js.mjs
// [dist/index.js path]` (build first). The client's `fetch` answers at once with a canned
// Response, so what is left is the pipeline (options, headers, signal and timer, body reading,
// decoding, gateway info). Each figure is the median of 7 fresh processes, CPU µs per request:
// "cold" is 3,000 requests after 200 (what bench/run.mjs measures: the JIT has not optimised
// everything yet), "warm" 30,000 after 200. "bare" is the same Response read with `json()`.
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COMPLETION_JSON } from "./completion.mjs";

if (process.argv[2] === "--child") {
  const [, , , dist, which, countText] = process.argv;
  const { ModelGate } = await import(dist);
  const bytes = new TextEncoder().encode(COMPLETION_JSON);
  const headers = { "content-type": "application/json", "x-request-id": "req_bench" };
  const answer = () => new Response(bytes, { status: 200, headers });
  const client = new ModelGate({ apiKey: "bench-key", baseURL: "http://127.0.0.1:1", maxRetries: 0, fetch: async () => answer() });
  const call =
    which === "bare"
      ? async () => (await answer().json()).choices[0].message.content
      : async () => (await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] })).choices[0].message.content;
  const count = Number(countText);
  for (let i = 0; i < 200; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) if ((await call()) !== "Hello from the benchmark.") throw new Error("wrong answer");
  const cpu = process.cpuUsage(before);
  console.log((cpu.user + cpu.system) / count);
  process.exit(0);
}

const dist = process.argv[2] ? pathToFileURL(process.argv[2]).href : new URL("../dist/index.js", import.meta.url).href;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const run = (which, count) => Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dist, which, String(count)], { encoding: "utf8" }));
const samples = { "bare cold": [], "modelgate cold": [], "bare warm": [], "modelgate warm": [] };
for (let round = 0; round < 7; round++) {
  for (const [label, count] of [["cold", 3_000], ["warm", 30_000]]) {
    samples[`bare ${label}`].push(run("bare", count));
    samples[`modelgate ${label}`].push(run("modelgate", count));
  }
}
for (const [name, values] of Object.entries(samples)) console.log(`${name}: ${median(values).toFixed(1)} µs per request`);
