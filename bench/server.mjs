// The benchmark's gateway, run in its own process so its work is not counted against the
// client. Streams OpenAI-shaped chunks as fast as the socket takes them, and answers small
// non-streamed completions. Listens on 127.0.0.1 and reports its port on stdout.
import { createServer } from "node:http";

import { COMPLETION_JSON } from "./completion.mjs";
import { WORDS } from "./words.mjs";
const BATCH = 1024; // a multiple of WORDS.length, so every batch is the same bytes

const event = (content, finish) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1, model: "bench/model", choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const batch = Buffer.from(Array.from({ length: BATCH }, (_, i) => event(WORDS[i % WORDS.length], null)).join(""));
const ending = Buffer.from(event(null, "stop") + "data: [DONE]\n\n");
const completion = COMPLETION_JSON;

function stream(response, chunks) {
  response.writeHead(200, { "content-type": "text/event-stream", "x-request-id": "req_bench" });
  let sent = 0;
  const pump = () => {
    while (sent < chunks) {
      const count = Math.min(BATCH, chunks - sent);
      const bytes = count === BATCH ? batch : batch.subarray(0, batchOffset(count));
      sent += count;
      if (!response.write(bytes)) return void response.once("drain", pump);
    }
    response.end(ending);
  };
  pump();
}

// Byte offset of the end of the first `count` events of a batch.
const offsets = [0];
for (let i = 0, at = 0; i < BATCH; i++) offsets.push((at = batch.indexOf("\n\n", at) + 2));
const batchOffset = (count) => offsets[count];

const server = createServer((request, response) => {
  let body = "";
  request.on("data", (part) => (body += part));
  request.on("end", () => {
    const params = body ? JSON.parse(body) : {};
    if (!params.stream) {
      response.writeHead(200, { "content-type": "application/json", "x-request-id": "req_bench" });
      return void response.end(completion);
    }
    stream(response, Number(params.metadata?.chunks ?? 1000));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
process.on("disconnect", () => process.exit(0));
