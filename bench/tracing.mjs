// What tracing costs (API.md, "Middleware, tracing and per-tenant clients"):
//   node bench/tracing.mjs <dist of the build before tracing>
// 1. Streaming with nobody subscribed to `modelgate:request`, this build against the one before
//    it: 200k chunks (16 KiB reads) through create({ stream: true }), the two builds
//    interleaved round by round in one process, median and fastest of each and their ratios.
// 2. Per call with a subscriber (an empty one, so only the SDK's side is measured), this build
//    alone, subscribed and not in alternate rounds: a plain call and a 20-chunk stream read whole.
// Run `npm run build` first; for the build before, see bench/README.md.
import { tracingChannel } from "node:diagnostics_channel";
import { fileURLToPath } from "node:url";

const beforeDist = process.argv[2];
if (!beforeDist) throw new Error("usage: node bench/tracing.mjs <dist folder of the build before tracing>");
const afterDist = fileURLToPath(new URL("../dist", import.meta.url));
const Before = (await import(`${beforeDist}/index.js`)).ModelGate;
const After = (await import(`${afterDist}/index.js`)).ModelGate;

const encoder = new TextEncoder();
const chunk = (i, finish = null) => `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"w${i % 10} "},"finish_reason":${finish && `"${finish}"`}}]}\n\n`;
const streamBody = (count) => {
  let body = "";
  for (let i = 0; i < count; i++) body += chunk(i);
  return encoder.encode(`${body}${chunk(count, "stop")}data: [DONE]\n\n`);
};
const sse = (bytes) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 16384) controller.enqueue(bytes.subarray(offset, offset + 16384));
        controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
const completion = JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const messages = [{ role: "user", content: "hi" }];

// --- 1. streaming, nobody subscribed: before vs after --------------------------------------
const big = streamBody(200_000);
const streamer = (ModelGate) => new ModelGate({ apiKey: "k-12345678", baseURL: "https://x.test", fetch: async () => sse(big) });
const clients = { before: streamer(Before), after: streamer(After) };
const times = { before: [], after: [] };
const ROUNDS = 15;
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ["after", "before"] : ["before", "after"]) {
    const start = performance.now();
    const stream = await clients[name].chat.completions.create({ model: "m", messages, stream: true });
    for await (const _chunk of stream);
    times[name].push(performance.now() - start);
  }
}
const [before, after] = [median(times.before), median(times.after)];
const [fastestBefore, fastestAfter] = [Math.min(...times.before), Math.min(...times.after)];
console.log(`streaming 200k chunks, nobody subscribed (${ROUNDS} rounds, interleaved): median before ${before.toFixed(1)} ms, after ${after.toFixed(1)} ms, ratio ${(after / before).toFixed(3)}; fastest ${fastestBefore.toFixed(1)} / ${fastestAfter.toFixed(1)} ms, ratio ${(fastestAfter / fastestBefore).toFixed(3)}`);

// --- 2. per call, with and without a subscriber --------------------------------------------
const small = streamBody(20);
const client = new After({ apiKey: "k-12345678", baseURL: "https://x.test", fetch: async (_url, init) => (init.headers.get("accept") === "text/event-stream" ? sse(small) : new Response(completion, { headers: { "content-type": "application/json" } })) });
const channel = tracingChannel("modelgate:request");
const noop = () => {};
const subscriber = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
const CALLS = 2_000;
const perCall = { plain: { off: [], on: [] }, stream: { off: [], on: [] } };
for (let round = 0; round < 10; round++) {
  for (const state of round % 2 ? ["on", "off"] : ["off", "on"]) {
    if (state === "on") channel.subscribe(subscriber);
    let start = performance.now();
    for (let i = 0; i < CALLS; i++) await client.chat.completions.create({ model: "m", messages });
    perCall.plain[state].push(((performance.now() - start) * 1000) / CALLS);
    start = performance.now();
    for (let i = 0; i < CALLS; i++) for await (const _chunk of await client.chat.completions.create({ model: "m", messages, stream: true }));
    perCall.stream[state].push(((performance.now() - start) * 1000) / CALLS);
    if (state === "on") channel.unsubscribe(subscriber);
  }
}
for (const [kind, { off, on }] of Object.entries(perCall)) {
  const [without, withSubscriber] = [median(off), median(on)];
  console.log(`${kind === "plain" ? "plain call          " : "20-chunk stream     "} per call: ${without.toFixed(1)} µs unsubscribed, ${withSubscriber.toFixed(1)} µs subscribed: +${(withSubscriber - without).toFixed(1)} µs`);
}
