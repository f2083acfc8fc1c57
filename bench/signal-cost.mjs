// Why non-streamed requests/s sits near 0.9× the raw loop: the cost of passing an AbortSignal
// (which every SDK attempt needs, for its timeout and the caller's signal) to Node's fetch.
// `node bench/signal-cost.mjs` prints µs per request with and without one, interleaved.
import { createServer } from "node:http";

const body = JSON.stringify({ id: "x", choices: [{ message: { content: "hi" } }] });
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const init = { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer x" }, body: "{}" };

const variants = {
  "no signal": async () => (await fetch(url, init)).json(),
  "AbortSignal + timer": async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 600_000);
    const json = await (await fetch(url, { ...init, signal: controller.signal })).json();
    clearTimeout(timer);
    return json;
  },
};
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < 8; round++) {
  for (const [name, call] of Object.entries(variants)) {
    for (let i = 0; i < 100; i++) await call();
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) await call();
    samples[name].push(((performance.now() - started) / 1_000) * 1_000);
  }
}
for (const [name, values] of Object.entries(samples)) {
  values.sort((a, b) => a - b);
  console.log(`${name}: median ${values[values.length >> 1].toFixed(0)} µs/request`);
}
server.close();
