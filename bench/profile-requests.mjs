// Where a non-streamed request's client time goes: `node bench/profile-requests.mjs [n]` runs the
// `complete()` loop of bench/clients/raw.mjs and of bench/clients/modelgate.mjs (the built
// dist/: `npm run build` first), each in a fresh process, against bench/server.mjs (its own
// process) under V8's sampling profiler, and prints per request: modelgate's functions with the
// most self time, and what modelgate spends beyond the raw loop, function by function.
import { execFileSync, fork } from "node:child_process";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

if (process.argv[2] === "--child") {
  const [, , , name, baseURL, countText] = process.argv;
  console.log(JSON.stringify(await profileClient(name, baseURL, Number(countText))));
  process.exit(0);
}

const count = Number(process.argv[2] ?? 5_000);
const server = fork(`${here}server.mjs`, [], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
const port = await new Promise((resolve) => server.stdout.once("data", (line) => resolve(JSON.parse(String(line)).port)));
const run = (name) => JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", name, `http://127.0.0.1:${port}`, String(count)], { encoding: "utf8", maxBuffer: 1 << 24 }));
let raw;
let sdk;
try {
  raw = run("raw");
  sdk = run("modelgate");
} finally {
  server.kill();
}

const busy = (result) => Object.entries(result.self).reduce((sum, [key, us]) => (key.startsWith("(idle)") ? sum : sum + us), 0);
console.log(`${count} requests each, client CPU per request (process.cpuUsage, profiler on): raw ${raw.cpuUs.toFixed(0)} µs, modelgate ${sdk.cpuUs.toFixed(0)} µs`);
console.log(`sampled busy time per request: raw ${busy(raw).toFixed(1)} µs, modelgate ${busy(sdk).toFixed(1)} µs; modelgate's own code (dist/ frames, inclusive) ${sdk.inDistUs.toFixed(1)} µs\n`);
const top = (entries, n) => entries.sort((a, b) => b[1] - a[1]).slice(0, n);
console.log("modelgate, self time per request:\n\n| µs | % of busy | function (file:line) |\n|---:|---:|---|");
for (const [key, us] of top(Object.entries(sdk.self).filter(([key]) => !key.startsWith("(idle)")), 25)) {
  console.log(`| ${us.toFixed(1)} | ${((us / busy(sdk)) * 100).toFixed(1)} | ${key} |`);
}
console.log("\nmodelgate minus raw, self time per request (largest differences):\n\n| µs | function (file:line) |\n|---:|---|");
console.log("\nby where the code is, self time per request:\n\n| where | raw µs | modelgate µs | difference |\n|---|---:|---:|---:|");
const raws = byPlace(raw.self);
const sdks = byPlace(sdk.self);
for (const place of [...new Set([...Object.keys(sdks), ...Object.keys(raws)])].sort((a, b) => (sdks[b] ?? 0) - (raws[b] ?? 0) - ((sdks[a] ?? 0) - (raws[a] ?? 0)))) {
  console.log(`| ${place} | ${(raws[place] ?? 0).toFixed(1)} | ${(sdks[place] ?? 0).toFixed(1)} | ${((sdks[place] ?? 0) - (raws[place] ?? 0)).toFixed(1)} |`);
}
const keys = new Set([...Object.keys(sdk.self), ...Object.keys(raw.self)]);
const diff = [...keys].filter((key) => !key.startsWith("(idle)")).map((key) => [key, (sdk.self[key] ?? 0) - (raw.self[key] ?? 0)]);
for (const [key, us] of top(diff, 25)) console.log(`| ${us.toFixed(1)} | ${key} |`);

/** Sums self time by the file a function is in: the SDK, undici (fetch), abort signals, streams, GC... */
function byPlace(self) {
  const places = {};
  for (const [key, us] of Object.entries(self)) {
    const file = /\((.*):\d+\)$/.exec(key)?.[1] ?? key;
    const place = file.startsWith("dist/")
      ? "modelgate (dist/)"
      : file.startsWith("bench/")
        ? "the bench client"
        : /undici/.test(file)
          ? "undici (fetch)"
          : /abort_controller|event_target|node:events/.test(file)
            ? "AbortSignal, events"
            : /webstreams/.test(file)
              ? "web streams"
              : /timers/.test(file)
                ? "timers"
                : /transferable/.test(file)
                  ? "makeTransferable (AbortSignal, streams)"
                  : file.startsWith("node:")
                    ? "other Node internals"
                    : file;
    places[place] = (places[place] ?? 0) + us;
  }
  return places;
}

/** Self time per function in µs per request, and the inclusive time under SDK frames. */
async function profileClient(name, baseURL, n) {
  const client = await import(`./clients/${name}.mjs`);
  for (let i = 0; i < 500; i++) await client.complete(baseURL); // warm up the JIT and the connection
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < n; i++) await client.complete(baseURL);
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = await session.post("Profiler.stop");

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const self = {};
  let inDist = 0;
  // Each sample's time is the delta to the next one.
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index + 1] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^.*\/(node_modules\/|dist\/|bench\/)/, "$1");
    const key = `${functionName || "(anonymous)"}${file ? ` (${file}:${lineNumber + 1})` : ""}`;
    self[key] = (self[key] ?? 0) + us;
    for (let node = byId.get(id); node; node = parents.get(node.id)) {
      if (node.callFrame.url.includes("/dist/")) {
        inDist += us;
        break;
      }
    }
  });
  for (const key in self) self[key] /= n;
  return { self, cpuUs: (cpu.user + cpu.system) / n, inDistUs: inDist / n };
}
