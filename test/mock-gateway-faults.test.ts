import { describe, expect, it } from "vitest";
import { mockGateway, MOCK_URL, parseEventStream } from "./fixtures/mock.ts";
import { bodyReader, count } from "./fixtures/mock-stream.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { standingAfterTurns } from "./fixtures/promises.ts";

// Scripted faults: each one, the queue they wait in, and that none leaves a timer running.

const authorized = { authorization: "Bearer mg-mock-key" };
const streamBody = JSON.stringify({ model: "auto", messages: [{ role: "user", content: "Hello there" }], stream: true });

describe("mock gateway faults: the queue", () => {
  it("applies a fault to the next N /v1 requests only, in order, then serves normally", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 503 }, 2);
    gateway.inject({ type: "status", status: 429 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call("/v1/models")).status);
    expect(statuses).toEqual([503, 503, 429, 200]);
  });

  it("leaves preflights and paths outside /v1 alone", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 500 });
    await gateway(new Request(`${MOCK_URL}/v1/models`, { method: "OPTIONS" }));
    expect((await call("/health")).status).toBe(404);
    expect((await call("/v1/models")).status).toBe(500);
  });

  it("meets a request before the key check, like a proxy in front of the gateway", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 502 });
    expect((await call("/v1/models", { key: null })).status).toBe(502);
  });

  it("keeps a fault injected Infinity times until reset", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 500 }, Infinity);
    for (let i = 0; i < 3; i++) expect((await call("/v1/models")).status).toBe(500);
    gateway.reset();
    expect((await call("/v1/models")).status).toBe(200);
  });
});

describe("mock gateway faults: status", () => {
  it("answers the status in the error shape with retry-after and retry-after-ms", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 429, retryAfter: 2, retryAfterMs: 1500, message: "Slow down." });
    const response = await call("/v1/models");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(response.headers.get("retry-after-ms")).toBe("1500");
    expect(response.headers.get("x-request-id")).toMatch(/^req_mock_/);
    expect(await response.json()).toEqual({ error: { message: "Slow down.", type: "rate_limit_error", code: "rate_limit_exceeded", param: null } });
  });

  it("sends retry-after as an HTTP date, and extra headers", async () => {
    const { gateway, call } = mockGateway();
    const date = new Date(Date.UTC(2030, 0, 1)).toUTCString();
    gateway.inject({ type: "status", status: 503, retryAfter: date, headers: { "x-should-retry": "true" } });
    const response = await call("/v1/models");
    expect(response.headers.get("retry-after")).toBe(date);
    expect(response.headers.get("x-should-retry")).toBe("true");
    expect((await response.json()).error).toMatchObject({ type: "server_error", message: "Injected failure." });
  });

  it("answers a raw HTML body, as a proxy's error page", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 502, body: "<html><h1>Bad Gateway</h1></html>" });
    const response = await call("/v1/models");
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toBe("<html><h1>Bad Gateway</h1></html>");
  });
});

describe("mock gateway faults: latency", () => {
  // The latency runs on a fake clock: its length is exact, whatever the machine's load.
  useFakeClock();

  it("delays the headers by `ms`, then answers normally", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "latency", ms: 60 });
    const { value: response, elapsedMs } = await inFakeTime(call("/v1/models"));
    expect(response!.status).toBe(200);
    expect(elapsedMs, "fake milliseconds until the headers").toBe(60);
  });

  it("ends the wait when the request is aborted, rejecting like fetch", async () => {
    const { gateway } = mockGateway();
    gateway.inject({ type: "latency", ms: 10_000 });
    const controller = new AbortController();
    const call = gateway(new Request(`${MOCK_URL}/v1/models`, { headers: authorized, signal: controller.signal }));
    expect(await standingAfterTurns(call), "the call, waiting out its latency").toEqual({ settled: false });
    // The reason AbortSignal.timeout() gives, as a timed-out fetch has it.
    controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    const ended = await standingAfterTurns(call);
    expect(ended.settled, "the call a few event-loop turns after the abort").toBe(true);
    expect(ended.error).toMatchObject({ name: "TimeoutError" });
  });
});

describe("mock gateway faults: stream-error", () => {
  it("sends a chunk carrying `error` and finish_reason error after N chunks, then ends without [DONE]", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stream-error", afterChunks: 2, status: 503, message: "upstream down" });
    const { chunks, done } = parseEventStream(await (await chat({ model: "auto", stream: true })).text());
    expect(chunks).toHaveLength(3);
    expect(chunks[2]).toMatchObject({ object: "chat.completion.chunk", error: { code: 503, message: "upstream down" }, choices: [{ index: 0, delta: {}, finish_reason: "error" }] });
    expect(done).toBe(false);
  });

  it("sends an `event: error` instead when as is event, with code 502 by default", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stream-error", afterChunks: 1, as: "event" });
    const { raw, chunks } = parseEventStream(await (await chat({ model: "auto", stream: true })).text());
    expect(chunks).toHaveLength(1);
    expect(raw.at(-1)).toBe('event: error\ndata: {"error":{"code":502,"message":"The upstream provider failed mid-stream."}}');
    expect(gateway.activeStreams).toBe(0);
  });

  it("fires just before [DONE] when afterChunks is beyond the stream", async () => {
    const { gateway, chat } = mockGateway({ reply: "short" });
    gateway.inject({ type: "stream-error", afterChunks: 99 });
    const { chunks, done } = parseEventStream(await (await chat({ model: "auto", stream: true })).text());
    expect(chunks.at(-1)?.error).toBeDefined();
    expect(done).toBe(false);
  });

  it("turns into an error answer with its status for a non-streamed request", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stream-error", afterChunks: 0, status: 503 });
    const response = await chat({ model: "auto" });
    expect(response.status).toBe(503);
    expect((await response.json()).error.message).toMatch(/mid-stream/);
  });
});

describe("mock gateway faults: cut", () => {
  it("errors the body after N chunks, after those chunks were read", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "cut", afterChunks: 2 });
    const body = bodyReader(await chat({ model: "auto", stream: true }));
    await expect(body.rest()).rejects.toThrow(/connection cut/);
    expect(count(body.text, "data: {")).toBe(2);
    expect(body.text).not.toContain("[DONE]");
    expect(gateway.activeStreams).toBe(0);
  });

  it("cuts a non-streamed body halfway", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "cut", afterChunks: 0 });
    const response = await chat({ model: "auto" });
    expect(response.status).toBe(200);
    const body = bodyReader(response);
    await expect(body.rest()).rejects.toThrow(/connection cut/);
    expect(body.text).toMatch(/^\{"id":"chatcmpl-/);
  });
});

describe("mock gateway faults: stall", () => {
  it("sends only keep-alive comments after N chunks until the reader cancels, and the cancel stops its timer", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stall", afterChunks: 1, keepAliveMs: 5 });
    const body = bodyReader(await chat({ model: "auto", stream: true }));
    const text = await body.until((read) => count(read, ": PROCESSING") >= 5);
    expect(count(text, "data:")).toBe(1);
    expect(text.replace(/^: PROCESSING\n\n/gm, "")).toMatch(/^data: \{.*\}\n\n$/);
    expect(gateway.activeStreams).toBe(1);
    await body.cancel();
    expect(gateway.activeStreams).toBe(0);
  });

  it("stops when the request is aborted", async () => {
    const { gateway } = mockGateway();
    gateway.inject({ type: "stall", afterChunks: 0, keepAliveMs: 5 });
    const controller = new AbortController();
    const response = await gateway(new Request(`${MOCK_URL}/v1/chat/completions`, { method: "POST", headers: authorized, body: streamBody, signal: controller.signal }));
    const body = bodyReader(response);
    await body.until((read) => count(read, ": PROCESSING") >= 2);
    controller.abort();
    await expect(body.rest()).rejects.toThrow(/abort/i);
    expect(gateway.activeStreams).toBe(0);
  });

  it("holds back the rest of a non-streamed body until the request gives up", async () => {
    const { gateway } = mockGateway();
    gateway.inject({ type: "stall", afterChunks: 0 });
    const body = JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }] });
    const response = await gateway(new Request(`${MOCK_URL}/v1/chat/completions`, { method: "POST", headers: authorized, body, signal: AbortSignal.timeout(30) }));
    await expect(response.text()).rejects.toMatchObject({ name: "TimeoutError" });
  });
});
