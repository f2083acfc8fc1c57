import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIConnectionError, ModelGate } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { serveNode, type NodeServer } from "../src/testing/node.ts";
import { count, eventually } from "./fixtures/mock-stream.ts";

// serveNode() over real loopback sockets, called with Node's own fetch: what a socket adds
// (backpressure, a client that leaves, a cut connection) is what these tests are about.

const gateway = createMockGateway({ reply: "Served over a real socket." });
let server: NodeServer;

beforeAll(async () => {
  server = await serveNode(gateway);
});
afterAll(async () => {
  await server.close();
});

const client = () => new ModelGate({ apiKey: MOCK_API_KEY, baseURL: server.url, maxRetries: 0 });
const streamRequest = (url: string, signal?: AbortSignal) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${MOCK_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true }),
    signal,
  });

describe("serveNode(mock gateway)", () => {
  it("listens on 127.0.0.1 and a free port by default", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it("serves a streamed reply over a real socket, headers and body as the handler made them", async () => {
    const response = await streamRequest(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-request-id")).toMatch(/^req_mock_/);
    const text = await response.text();
    expect(text).toMatch(/^: PROCESSING\n\n/);
    expect(text).toMatch(/data: \[DONE\]\n\n$/);
    expect(gateway.requests.at(-1)?.body).toMatchObject({ model: "auto", stream: true });
  });

  it("works as the client's base URL, streamed and not", async () => {
    const stream = await client().chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    expect(await stream.text()).toBe("Served over a real socket.");
    expect(stream.requestID).toMatch(/^req_mock_/);
    const models = await client().models.retrieve("openai/gpt-4.1-mini");
    expect(models.id).toBe("openai/gpt-4.1-mini");
  });

  it("cuts the socket on a cut fault, so the client sees a broken stream, never [DONE]", async () => {
    gateway.inject({ type: "cut", afterChunks: 2 });
    const raw = await streamRequest(server.url);
    // Node's fetch reports a cut either as an error or as an early clean end: both lack [DONE].
    const text = await raw.text().catch(() => "");
    expect(text).not.toContain("[DONE]");

    gateway.inject({ type: "cut", afterChunks: 2 });
    const stream = await client().chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    await expect(stream.text()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("cancels the handler's stream when the client goes away, so its timers stop", async () => {
    gateway.inject({ type: "stall", afterChunks: 1, keepAliveMs: 5 });
    const controller = new AbortController();
    const response = await streamRequest(server.url, controller.signal);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (count(text, ": PROCESSING") < 3) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(gateway.activeStreams).toBe(1);
    controller.abort();
    expect(await eventually(() => gateway.activeStreams === 0), "the gateway's streams all stopped").toBe(true);
  });

  it("aborts the request's signal when the client leaves before the answer", async () => {
    let aborted = false;
    const waiting = await serveNode(
      (request) =>
        new Promise<Response>((resolve) => {
          request.signal.addEventListener("abort", () => {
            aborted = true;
            resolve(new Response("too late"));
          });
        }),
    );
    await expect(fetch(waiting.url, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    expect(await eventually(() => aborted), "the handler saw the request aborted").toBe(true);
    await waiting.close();
  });

  it("answers 500 when the handler throws", async () => {
    const failing = await serveNode(() => {
      throw new Error("handler bug");
    });
    const response = await fetch(`${failing.url}/anything`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("handler bug");
    await failing.close();
  });

  it("passes request bodies and headers through, and keeps several set-cookie headers apart", async () => {
    const echo = await serveNode(async (request) => {
      const headers = new Headers({ "content-type": "application/json" });
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      return new Response(JSON.stringify({ method: request.method, url: request.url, body: await request.text(), custom: request.headers.get("x-custom") }), { headers });
    });
    const response = await fetch(`${echo.url}/path?q=1`, { method: "PUT", body: "payload", headers: { "x-custom": "yes" } });
    expect(await response.json()).toEqual({ method: "PUT", url: `${echo.url}/path?q=1`, body: "payload", custom: "yes" });
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    await echo.close();
  });

  it("reads the handler's body only as fast as the client takes it (backpressure)", async () => {
    const piece = new Uint8Array(64 * 1024);
    const pieces = 512; // 32 MiB, far more than the socket buffers hold
    let pulled = 0;
    const big = await serveNode(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled++ === pieces) controller.close();
              else controller.enqueue(piece);
            },
          }),
        ),
    );
    const response = await fetch(big.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pulled).toBeLessThan(pieces / 2);
    let received = 0;
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) received += read.value.byteLength;
    expect(received).toBe(piece.byteLength * pieces);
    await big.close();
  });

  it("closes with connections still open, ending their streams", async () => {
    const stalling = createMockGateway();
    stalling.inject({ type: "stall", afterChunks: 0 });
    const extra = await serveNode(stalling);
    const pending = streamRequest(extra.url)
      .then((response) => response.text())
      .catch((error: unknown) => error);
    expect(await eventually(() => stalling.activeStreams === 1), "the stalling stream started").toBe(true);
    await extra.close();
    expect(String(await pending)).not.toContain("[DONE]");
    expect(await eventually(() => stalling.activeStreams === 0), "close() ended the stalling stream").toBe(true);
  });
});
