// A/B of the streaming path between two builds: `node bench/stream-ab.mjs <dist folder>` streams
// 200k chunks (16 KiB reads) through create({ stream: true }) 7 times and prints the median.
const dist = process.argv[2];
const { ModelGate } = await import(`${dist}/index.js`);
const enc = new TextEncoder();
const N = 200_000;
const piece = (i) => `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"w${i % 10} "},"finish_reason":null}]}\n\n`;
let body = "";
for (let i = 0; i < N; i++) body += piece(i);
body += `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`;
const bytes = enc.encode(body);
const fetch = async () => new Response(new ReadableStream({ start(c) { for (let o = 0; o < bytes.length; o += 16384) c.enqueue(bytes.subarray(o, o + 16384)); c.close(); } }), { headers: { "content-type": "text/event-stream" } });
const client = new ModelGate({ apiKey: "k-12345", baseURL: "https://x.test", fetch });
const times = [];
for (let r = 0; r < 7; r++) {
  const t = performance.now();
  const s = await client.chat.completions.create({ model: "m", messages: [], stream: true });
  let n = 0; for await (const _ of s) n++;
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(dist.includes("before") ? "before" : "after ", "median ms", times[3].toFixed(1), "min", times[0].toFixed(1));
