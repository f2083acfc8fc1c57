import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  RateLimitError,
  type RequestOptions,
} from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { completionBody, contentEvent, DONE } from "./fixtures/chunks.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { paymentRequired, pricedGateway } from "./fixtures/priced-gateway.ts";
import { BASE, USER_HELLO, testClient, useMockServer } from "./fixtures/server.ts";

// Backoff, retry-after and timeouts run on a fake clock: every call below goes through
// inFakeTime(), which jumps to the SDK's next timer once nothing else is in flight, so the
// waits are asserted in fake milliseconds and the file sleeps for none of them.
const server = useMockServer();
useFakeClock();

/** Answers with `failures` in order, then succeeds; records each request. */
function script(failures: (() => Response)[], success: () => Response = () => HttpResponse.json(completionBody("ok"))) {
  const seen: Request[] = [];
  server.use(
    http.post(`${BASE}/v1/chat/completions`, ({ request }) => {
      seen.push(request);
      const next = failures[seen.length - 1];
      return next ? next() : success();
    }),
  );
  return seen;
}

const status = (code: number, headers: Record<string, string> = { "retry-after-ms": "1" }) => () =>
  HttpResponse.json({ error: { message: `status ${code}` } }, { status: code, headers });

/** A plain chat call, settled under the fake clock. */
const create = (client = testClient(), options: RequestOptions = {}) =>
  inFakeTime(client.chat.completions.create({ model: "auto", messages: USER_HELLO }, options));
/** A streamed chat call, settled (up to the Stream) under the fake clock. */
const createStream = () => inFakeTime(testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true }));

describe("which failures are retried", () => {
  it.each([408, 409, 429, 500, 502, 503, 504])("retries a %i and then succeeds", async (code) => {
    const seen = script([status(code)]);
    const { value: completion, error } = await create();
    expect(error).toBeUndefined();
    expect(completion?.choices[0]?.message.content).toBe("ok");
    expect(seen).toHaveLength(2);
  });

  it.each([400, 401, 402, 403, 404, 422])("does not retry a %i", async (code) => {
    const seen = script([status(code)]);
    expect((await create()).error).toHaveProperty("status", code);
    expect(seen).toHaveLength(1);
  });

  it("retries a 200 whose JSON body is an error document by its code's class, and not one whose code is no retry's", async () => {
    const document = (code: number) => () => HttpResponse.json({ error: { message: `overloaded (${code})`, code } }, { headers: { "retry-after-ms": "1" } });
    const seen = script([document(503)]);
    const { value: completion, error } = await create();
    expect(error).toBeUndefined();
    expect(completion?.choices[0]?.message.content).toBe("ok");
    expect(seen).toHaveLength(2);
    const refused = script([document(400)]);
    expect((await create()).error).toHaveProperty("status", 400);
    expect(refused).toHaveLength(1);
  });

  it("retries a 200 error document whose key is written with JSON escapes (\\u0065rror) as it retries any other", async () => {
    const escaped = () => new HttpResponse('{"\\u0065rror": {"message": "overloaded", "code": 503}}', { headers: { "content-type": "application/json", "retry-after-ms": "1" } });
    const seen = script([escaped]);
    const { value: completion, error } = await create();
    expect(error).toBeUndefined();
    expect(completion?.choices[0]?.message.content).toBe("ok");
    expect(seen).toHaveLength(2);
  });

  it("parses an answer holding \\u escapes but no escaped \"error\" key once, not again to look for an error document", async () => {
    // A gateway in Python writes every non-ASCII character as an escape.
    const escapedText = () => new HttpResponse(JSON.stringify(completionBody("café")).replace("é", "\\u00e9"), { headers: { "content-type": "application/json" } });
    script([], escapedText);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const { value: completion } = await create();
      expect(completion?.choices[0]?.message.content).toBe("café");
      expect(parse.mock.calls.filter(([text]) => typeof text === "string" && text.includes("caf\\u00e9"))).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("gives up after maxRetries and throws the last error", async () => {
    const seen = script([status(429), status(429), status(429), status(429)]);
    expect((await create()).error).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(3);
  });

  it("makes exactly one attempt with maxRetries: 0 (client or per call)", async () => {
    const seen = script([status(503), status(503)]);
    expect((await create(testClient({ maxRetries: 0 }))).error).toHaveProperty("status", 503);
    expect((await create(testClient(), { maxRetries: 0 })).error).toHaveProperty("status", 503);
    expect(seen).toHaveLength(2);
  });

  it("honours x-should-retry: true on a status it would not retry", async () => {
    const seen = script([status(400, { "x-should-retry": "true", "retry-after-ms": "1" })]);
    const { value, error } = await create();
    expect(error).toBeUndefined();
    expect(value).toBeDefined();
    expect(seen).toHaveLength(2);
  });

  it("honours x-should-retry: false on a status it would retry", async () => {
    const seen = script([status(503, { "x-should-retry": "false" })]);
    expect((await create()).error).toHaveProperty("status", 503);
    expect(seen).toHaveLength(1);
  });

  it("retries a connection error after the default backoff of 375 to 500 ms", async () => {
    const seen = script([() => HttpResponse.error()]);
    const { value, error, elapsedMs } = await create(testClient({ maxRetries: 1 }));
    expect(error).toBeUndefined();
    expect(value).toBeDefined();
    expect(seen).toHaveLength(2);
    expect(elapsedMs, "backoff before the retry").toBeGreaterThanOrEqual(375);
    expect(elapsedMs, "backoff before the retry").toBeLessThanOrEqual(500);
  });

  it("throws APIConnectionError once connection errors exhaust the retries", async () => {
    const seen = script([() => HttpResponse.error(), () => HttpResponse.error()]);
    expect((await create(testClient({ maxRetries: 1 }))).error).toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(2);
  });
});

describe("how long it waits", () => {
  it("waits retry-after-ms milliseconds, not the default backoff", async () => {
    const seen = script([status(429, { "retry-after-ms": "150" })]);
    const { error, elapsedMs } = await create();
    expect(error).toBeUndefined();
    expect(seen).toHaveLength(2);
    expect(elapsedMs, "wait before the retry").toBeGreaterThanOrEqual(150);
    expect(elapsedMs, "wait before the retry").toBeLessThan(375);
  });

  it("waits retry-after seconds, not the default backoff", async () => {
    const seen = script([status(503, { "retry-after": "0.2" })]);
    const { error, elapsedMs } = await create();
    expect(error).toBeUndefined();
    expect(seen).toHaveLength(2);
    expect(elapsedMs, "wait before the retry").toBeGreaterThanOrEqual(200);
    expect(elapsedMs, "wait before the retry").toBeLessThan(375);
  });

  it("does not wait at all for a hostile retry-after: 999999, and throws at once", async () => {
    const seen = script([status(429, { "retry-after": "999999" })]);
    const { error, elapsedMs } = await create();
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers?.get("retry-after")).toBe("999999");
    expect(seen).toHaveLength(1);
    expect(elapsedMs, "time waited before throwing").toBe(0);
  });
});

describe("idempotency", () => {
  it("sends the same Idempotency-Key on every retry of one call, and a new one per call", async () => {
    const seen = script([status(500), status(500)]);
    expect((await create()).error, "first call").toBeUndefined();
    expect((await create()).error, "second call").toBeUndefined();
    const keys = seen.map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(seen.map((request) => request.headers.get("x-modelgate-retry-count"))).toEqual([null, "1", "2", null]);
  });

  it("gives the shrunk retry its own idempotency key", async () => {
    let calls = 0;
    const { client, sent } = pricedGateway({ chat: () => (calls++ === 0 ? paymentRequired(50)() : Response.json(completionBody("ok"))) });
    await client.chat.completions.create({ model: "m", messages: USER_HELLO, max_tokens: 500 }, { shrinkToAffordable: true });
    const [first, second] = sent.map(({ headers }) => headers.get("idempotency-key"));
    expect(second).not.toBe(first);
    expect(second).toBe(`${first}-shrunk`);
  });
});

describe("timeouts and aborts", () => {
  it("times out a slow attempt with APIConnectionTimeoutError and retries it", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/v1/chat/completions`, async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 400));
        return HttpResponse.json(completionBody("late"));
      }),
    );
    const { error } = await create(testClient({ timeout: 50, maxRetries: 1 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/timed out after 50 ms/);
    expect(calls).toBe(2);
  });

  it("never retries a call the caller aborted", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/v1/chat/completions`, async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return HttpResponse.json(completionBody("late"));
      }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const { error } = await create(testClient(), { signal: controller.signal });
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(calls).toBe(1);
  });

  it("rejects at once with APIUserAbortError when the signal is already aborted", async () => {
    const seen = script([]);
    const { error } = await create(testClient(), { signal: AbortSignal.abort() });
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(0);
  });

  it("stops waiting for a retry when the caller aborts during the backoff", async () => {
    const seen = script([status(429, { "retry-after": "30" })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error, elapsedMs } = await create(testClient(), { signal: controller.signal });
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(elapsedMs, "time until the abort ended the wait").toBeLessThan(5_000);
    expect(seen).toHaveLength(1);
  });
});

describe("streams and retries", () => {
  it("retries a stream whose response was an error status before any byte of the stream", async () => {
    const seen = script([status(503)], () => sseResponse([contentEvent("hi"), contentEvent(null, "stop"), DONE]));
    const { value: stream, error } = await createStream();
    expect(error).toBeUndefined();
    expect((await inFakeTime(stream!.text())).value).toBe("hi");
    expect(seen).toHaveLength(2);
  });

  it("never retries a stream that broke off after its first byte", async () => {
    const seen = script([], () => sseResponse([contentEvent("partial ")], { breakOff: true }));
    const { value: stream } = await createStream();
    const received: string[] = [];
    const { error } = await inFakeTime(
      (async () => {
        for await (const chunk of stream!) received.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(received).toEqual(["partial "]);
    expect(seen).toHaveLength(1);
  });

  it("retries a stream whose headers came but whose body stayed silent past timeout, before handing it over", async () => {
    const silent = () => new Response(new ReadableStream({ pull: () => new Promise<void>(() => {}) }), { headers: { "content-type": "text/event-stream" } });
    const seen = script([silent], () => sseResponse([contentEvent("hi"), contentEvent(null, "stop"), DONE]));
    const { value: stream, error } = await inFakeTime(testClient({ timeout: 50 }).chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true }));
    expect(error).toBeUndefined();
    expect((await inFakeTime(stream!.text())).value).toBe("hi");
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers.get("x-modelgate-retry-count")).toBe("1");
  });

  it.each([
    ["broke off", () => sseResponse([], { breakOff: true })],
    ["ended without a byte", () => sseResponse([])],
  ])("retries a stream whose body %s before its first byte", async (_, cut) => {
    const seen = script([cut], () => sseResponse([contentEvent("hi"), contentEvent(null, "stop"), DONE]));
    const { value: stream, error } = await createStream();
    expect(error).toBeUndefined();
    expect((await inFakeTime(stream!.text())).value).toBe("hi");
    expect(seen).toHaveLength(2);
  });

  it("throws the cut as APIConnectionError once the retries are spent", async () => {
    const seen = script([() => sseResponse([], { breakOff: true }), () => sseResponse([], { breakOff: true }), () => sseResponse([], { breakOff: true })]);
    expect((await createStream()).error).toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(3);
  });

  it("does not retry a 400 for a stream either", async () => {
    const seen = script([status(400)]);
    expect((await createStream()).error).toBeInstanceOf(BadRequestError);
    expect(seen).toHaveLength(1);
  });
});

describe("timeout and retry options", () => {
  it("treats timeout: Infinity as no timeout, not as an immediate one", async () => {
    server.use(
      http.post(`${BASE}/v1/chat/completions`, async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return HttpResponse.json(completionBody("patient"));
      }),
    );
    // Under fake timers as under Node's, a setTimeout of Infinity would fire after 1 ms.
    const { value: completion, error } = await create(testClient({ timeout: Number.POSITIVE_INFINITY }));
    expect(error).toBeUndefined();
    expect(completion?.choices[0]?.message.content).toBe("patient");
  });

  it.each([{ timeout: -5 }, { maxRetries: 1.5 }, { maxRetries: -1 }])("rejects the per-call option %o before sending", async (options) => {
    const seen = script([]);
    const { error } = await create(testClient(), options);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/must be/);
    expect(seen).toHaveLength(0);
  });
});
