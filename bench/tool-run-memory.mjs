// What a streamed tool run holds: `node --expose-gc bench/tool-run-memory.mjs [dist folder]`
// (after `npm run build`; the folder defaults to ./dist) runs, against the mock gateway, a
// `runTools({ stream: true })` whose first step calls a tool and whose second streams an
// answer of 1, 2 and 4 MB, each in a fresh process, and prints the heap the run object holds
// once it is done: nobody iterating it, and a reader iterating along without keeping events.
// Reported, not asserted. The answer's text itself (a 1-byte string) is in the heap before.
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolve } from "node:path";

const MB = 1024 * 1024;
const [mode, ...rest] = process.argv.slice(2);

if (mode !== "--child") {
  const dist = resolve(mode ?? "dist");
  const self = fileURLToPath(import.meta.url);
  console.log(`dist: ${dist}`);
  console.log("| answer | chunks | held, not iterated | held, iterated along |");
  console.log("|---:|---:|---:|---:|");
  for (const size of [1, 2, 4]) {
    const run = (how) => JSON.parse(execFileSync(process.execPath, ["--expose-gc", self, "--child", dist, String(size), how], { encoding: "utf8" }));
    const idle = run("idle");
    const along = run("along");
    const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
    console.log(`| ${size} MB | ${along.chunks.toLocaleString("en")} | ${mb(idle.held)} | ${mb(along.held)} |`);
  }
} else {
  const [dist, size, how] = rest;
  const { ModelGate, tool, jsonSchema } = await import(pathToFileURL(`${dist}/index.js`).href);
  const { createMockGateway, MOCK_API_KEY } = await import(pathToFileURL(`${dist}/testing/index.js`).href);
  const words = [];
  for (let length = 0; length < Number(size) * MB; length += 8) words.push(`w${String(words.length % 1e6).padStart(6, "0")}`);
  const answer = words.join(" ");
  words.length = 0;

  const gateway = createMockGateway({ chunkDelayMs: 0, keepAliveEvery: 0 });
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
  const lookUp = tool({ name: "look_up", parameters: jsonSchema({ type: "object", properties: { q: { type: "string" } } }), run: () => "found" });
  // Loads the runner and warms the mock once, so the figure is the run's and not the code's.
  gateway.inject({ type: "reply", content: "warm" }, 1);
  await client.chat.completions.runTools({ model: "auto", messages: [{ role: "user", content: "warm up" }], tools: [lookUp], stream: true });

  gateway.inject({ type: "reply", toolCalls: [{ name: "look_up", arguments: '{"q":"x"}' }] }, 1);
  gateway.inject({ type: "reply", content: answer }, 1);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const run = client.chat.completions.runTools({ model: "auto", messages: [{ role: "user", content: "Write it all." }], tools: [lookUp], stream: true });
  let chunks = 0;
  if (how === "along") for await (const event of run) if (event.type === "chunk") chunks++;
  const result = await run;
  if (result.message.content !== answer) throw new Error("the answer came back different");
  // The mock's request log and its queues are not the run's: let them go before measuring.
  gateway.reset();
  globalThis.gc();
  const held = process.memoryUsage().heapUsed - before;
  // Both stay reachable until here: what is measured is what a caller holding them holds.
  if (!run || !result) throw new Error("unreachable");
  process.stdout.write(JSON.stringify({ held, chunks }));
}
