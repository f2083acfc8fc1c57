// One client loop in this fresh process, for counting instructions per request
// (bench/instructions.sh): `N=<requests> node bench/loop-variants.mjs <port> <variant>`.
// Each variant adds one thing to the raw loop of clients/raw.mjs; `as-sent` sends what modelgate
// sends, by hand; `modelgate` is the built dist/.
const [port, name] = process.argv.slice(2);
const url = `http://127.0.0.1:${port}/v1/chat/completions`;
const headers = { authorization: "Bearer bench-key", "content-type": "application/json" };
const body = () => JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }] });
const TIMEOUT_MS = 600_000;

/** The loop with a signal given to fetch and a timer that would abort it: a per-attempt timeout. */
async function guarded(extraHeaders) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(url, { method: "POST", headers: { ...headers, ...extraHeaders }, body: body(), signal: controller.signal });
    return (await response.json()).choices[0].message.content;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What modelgate puts on the wire for `create()`, written by hand: the same five headers in the
 * same order (the `Authorization` key, `Accept`, `Content-Type`, a fresh `Idempotency-Key` per
 * call, the SDK's `User-Agent`), the same body, a signal given to fetch with a timer that would
 * abort it (the client's default `timeout`), and the body read as the SDK reads it
 * (`arrayBuffer()`, one shared `TextDecoder`, `JSON.parse`). The floor for a client that sends
 * these bytes and keeps API.md's timeout; `modelgate / as-sent` is what the SDK's own code costs.
 */
const { version } = JSON.parse(await (await import("node:fs/promises")).readFile(new URL("../package.json", import.meta.url), "utf8"));
const userAgent = `modelgate-js/${version} (node ${process.versions.node})`;
const utf8 = new TextDecoder();
async function asSent() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: "Bearer bench-key",
        accept: "application/json",
        "content-type": "application/json",
        "idempotency-key": `modelgate-${crypto.randomUUID()}`,
        "user-agent": userAgent,
      },
      body: body(),
      signal: controller.signal,
    });
    const text = utf8.decode(await response.arrayBuffer());
    return JSON.parse(text).choices[0].message.content;
  } finally {
    clearTimeout(timer);
  }
}

let client;
if (name === "modelgate") {
  const { ModelGate } = await import("../dist/index.js");
  client = new ModelGate({ apiKey: "bench-key", baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
}

const variants = {
  raw: async () => (await (await fetch(url, { method: "POST", headers, body: body() })).json()).choices[0].message.content,
  "signal+timer": () => guarded({}),
  "signal+timer+idempotency-key": () => guarded({ "idempotency-key": crypto.randomUUID() }),
  "as-sent": asSent,
  modelgate: async () => (await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] })).choices[0].message.content,
};
const call = variants[name];
if (!call) throw new Error(`unknown variant ${name}: ${Object.keys(variants).join(", ")}`);
// Warm-up (JIT tiers, connection, heap growth), then the counted requests: bench/instructions.sh
// subtracts a run of N = 300 from one of N = 1300. With the default warm-up of 300 requests, V8
// still compiles the SDK inside that window (bench/README.md); WARMUP=4000 counts the steady state.
const warmUp = Number(process.env.WARMUP ?? 300);
for (let i = 0; i < warmUp + Number(process.env.N ?? 1000); i++) if ((await call()) !== "Hello from the benchmark.") throw new Error("wrong answer");
process.exit(0);
