import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIConnectionError, ModelGate } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { serveNode, type NodeServer } from "../src/testing/node.ts";

const gateway = createMockGateway({ reply: "Served over a real socket." });
let server: NodeServer;

beforeAll(async () => {
  server = await serveNode(gateway);
});
afterAll(async () => {
  await server.close();
});

const client = () => new ModelGate({ apiKey: MOCK_API_KEY, baseURL: server.url, maxRetries: 0 });

describe("serveNode(mock gateway)", () => {
  it("listens on 127.0.0.1 only", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("serves a streamed reply over a real socket", async () => {
    const stream = await client().chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    expect(await stream.text()).toBe("Served over a real socket.");
    expect(stream.requestID).toMatch(/^req_mock_/);
  });

  it("cuts the socket on a cut fault, so the client sees a broken stream, not a shorter answer", async () => {
    gateway.inject({ type: "cut", afterChunks: 2 });
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${MOCK_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    // Node's fetch reports a cut either as an error or as an early clean end: both lack [DONE].
    const text = await raw.text().catch(() => "");
    expect(text).not.toContain("[DONE]");

    gateway.inject({ type: "cut", afterChunks: 2 });
    const stream = await client().chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    await expect(stream.text()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("cancels the handler's stream when the client goes away", async () => {
    gateway.inject({ type: "stall", afterChunks: 1, keepAliveMs: 5 });
    const stream = await client().chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const _ of stream) break;
    for (let i = 0; i < 100 && gateway.activeStreams > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gateway.activeStreams).toBe(0);
  });

  it("closes with connections still open", async () => {
    const stalling = createMockGateway();
    stalling.inject({ type: "stall", afterChunks: 0 });
    const extra = await serveNode(stalling);
    const pending = fetch(`${extra.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${MOCK_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true }),
    }).then((response) => response.text()).catch((error: unknown) => error);
    for (let i = 0; i < 100 && stalling.activeStreams === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stalling.activeStreams).toBe(1);
    await extra.close();
    const outcome = await pending;
    expect(String(outcome)).not.toContain("[DONE]");
    for (let i = 0; i < 100 && stalling.activeStreams > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stalling.activeStreams).toBe(0);
  });
});
