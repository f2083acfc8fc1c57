import { describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  ModelGate,
  ModelGateError,
  RateLimitError,
  type ChatCompletionChunk,
  type ClientOptions,
} from "../src/index.ts";
import { chunk, usageChunk } from "./fixtures/chunks.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { countingSignal } from "./fixtures/counting-signal.ts";

// The lifecycle rules of API.md's Stream section, each at the edge where 0.1.0 broke it.
// Bodies are made byte by byte through the `fetch` option, so every read is under the test's control.

const KEY = "mg-secret-key-0123456789abcdef";
const USER = [{ role: "user" as const, content: "Hi" }];
const encoder = new TextEncoder();
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const DONE = "data: [DONE]\n\n";

interface Body {
  /** Network reads, in order; a number is a pause of that many ms before the next read. */
  reads: (string | Uint8Array | number)[];
  /** After the reads: end the body, break it off, or send nothing more (a stalled server). */
  then?: "end" | "break" | "hang";
  status?: number;
  contentType?: string;
}

/** A client whose fetch answers every request with `body`, recording cancellation of the body. */
function clientFor(body: Body, options: ClientOptions = {}) {
  const seen = { cancelled: false, requests: 0 };
  const fetch = async () => {
    seen.requests++;
    const reads = [...body.reads];
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          const next = reads.shift();
          if (typeof next === "number") {
            await new Promise((resolve) => setTimeout(resolve, next));
            continue;
          }
          if (next !== undefined) return controller.enqueue(typeof next === "string" ? encoder.encode(next) : next);
          if (body.then === "break") return controller.error(new TypeError("terminated"));
          if (body.then === "hang") return new Promise<void>(() => {});
          return controller.close();
        }
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(stream, { status: body.status ?? 200, headers: { "content-type": body.contentType ?? "text/event-stream" } });
  };
  const client = new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch, maxRetries: 0, ...options });
  return { client, seen };
}

const streamOf = (client: ModelGate, extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({ model: "auto", messages: USER, stream: true, ...extra });

async function collect(stream: AsyncIterable<ChatCompletionChunk>) {
  let text = "";
  try {
    for await (const piece of stream) text += piece.choices[0]?.delta.content ?? "";
    return { text, error: undefined };
  } catch (error) {
    return { text, error: error as Error };
  }
}

function expectNoKey(error: unknown) {
  const err = error as APIError;
  for (const [what, text] of [
    ["message", err.message],
    ["stack", err.stack ?? ""],
    [".error", JSON.stringify(err.error) ?? ""],
    ["JSON.stringify", JSON.stringify(err)],
    ["String()", String(err)],
  ] as const) {
    expect(text, `${what} shows the key`).not.toContain(KEY);
  }
}

describe("errors sent inside a stream never show the key", () => {
  it("redacts a chunk carrying an error that echoes the key, in message, stack and .error", async () => {
    const { client } = clientFor({
      reads: [data(chunk({ content: "a" })), data({ error: { message: `Incorrect API key provided: ${KEY}`, code: 401 }, choices: [{ index: 0, delta: {}, finish_reason: "error" }] })],
    });
    const { text, error } = await collect(await streamOf(client));
    expect(text).toBe("a");
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error?.message).toContain("[redacted]");
    expectNoKey(error);
  });

  it("redacts an event: error whose plain text echoes the key", async () => {
    const { client } = clientFor({ reads: [`event: error\ndata: upstream rejected key ${KEY}\n\n`] });
    const { error } = await collect(await streamOf(client));
    expect(error).toBeInstanceOf(APIError);
    expect(error?.message).toBe("upstream rejected key [redacted]");
    expectNoKey(error);
  });

  it("redacts an event: error whose JSON echoes the key", async () => {
    const { client } = clientFor({ reads: [`event: error\ndata: ${JSON.stringify({ error: { message: `bad key ${KEY}`, code: 429 } })}\n\n`] });
    const { error } = await collect(await streamOf(client));
    expect(error).toBeInstanceOf(RateLimitError);
    expectNoKey(error);
  });

  it("redacts malformed stream data that echoes the key", async () => {
    const { client } = clientFor({ reads: [`data: {"oops": "${KEY}"\n\n`, data(chunk({}, { finish: "stop" }))] });
    const { error } = await collect(await streamOf(client));
    expect(error).toBeInstanceOf(ModelGateError);
    expectNoKey(error);
  });
});

describe("streamIdleTimeout counts only time spent waiting on the network", () => {
  // Pauses, timeouts and the clock are fake: the waits below are exact, whatever the machine's load.
  useFakeClock();

  it("does not fire on a slow consumer when the server sent everything at once", async () => {
    // Separate network reads, each ready the moment it is asked for: the server is not slow.
    const reads = [data(chunk({ content: "a" })), data(chunk({ content: "b" })), data(chunk({ content: "c" }, { finish: "stop" })), DONE];
    const { client } = clientFor({ reads }, { streamIdleTimeout: 40 });
    let text = "";
    const consumed = inFakeTime(
      (async () => {
        for await (const piece of await streamOf(client)) {
          text += piece.choices[0]?.delta.content ?? "";
          await new Promise((resolve) => setTimeout(resolve, 120)); // three times the idle budget
        }
      })(),
    );
    expect((await consumed).error).toBeUndefined();
    expect(text).toBe("abc");
  });

  it("does not fire while a consumer asks for several chunks at once and the server sends one every 60 ms, and leaves no timer behind", async () => {
    // Two next() at once: both reads wait on the network together, under one clock that every
    // event restarts. With a clock per read, the first read's timer outlived it and aborted a
    // stream whose server was never quiet for 100 ms (and kept the process alive after the end).
    const pieces = "abcdefghij".split("");
    const reads = pieces.flatMap((content, index) => [60, data(chunk({ content }, index === pieces.length - 1 ? { finish: "stop" } : {}))]).concat(DONE);
    const { client } = clientFor({ reads }, { streamIdleTimeout: 100 });
    const { value, error } = await inFakeTime(
      (async () => {
        const chunks = (await streamOf(client))[Symbol.asyncIterator]();
        let text = "";
        for (;;) {
          const pair = await Promise.all([chunks.next(), chunks.next()]);
          for (const result of pair) if (!result.done) text += result.value.choices[0]?.delta.content ?? "";
          if (pair.some((result) => result.done)) return text;
        }
      })(),
    );
    expect(error).toBeUndefined();
    expect(value).toBe("abcdefghij");
    expect(vi.getTimerCount(), "timers left running after the stream ended").toBe(0);
  });

  it("still fires when the server sends only keep-alive comments, which never refill the budget", async () => {
    const keepAlives = Array.from({ length: 20 }, () => [": PROCESSING\n\n", 15]).flat();
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" })), ...keepAlives], then: "hang" }, { streamIdleTimeout: 100 });
    const { value, elapsedMs } = await inFakeTime(streamOf(client).then(collect));
    const { text, error } = value!;
    expect(text).toBe("a");
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error?.message).toMatch(/streamIdleTimeout/);
    // Refilled by each comment, the budget would last through all 20 (300 ms) and 100 ms more.
    expect(elapsedMs, "fake milliseconds until the idle timeout").toBe(100);
    expect(seen.cancelled).toBe(true);
  });

  it("still fires when the server sends only events without data (data: lines), skipped keep-alives that never refill the budget", async () => {
    const keepAlives = Array.from({ length: 20 }, () => ["data:\n\n", 15]).flat();
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" })), ...keepAlives], then: "hang" }, { streamIdleTimeout: 100 });
    const { value, elapsedMs } = await inFakeTime(streamOf(client).then(collect));
    expect(value!.text).toBe("a");
    expect(value!.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsedMs, "fake milliseconds until the idle timeout").toBe(100);
    expect(seen.cancelled).toBe(true);
  });

  it.each([
    ["a named ping with JSON data (Anthropic's)", 'event: ping\ndata: {"type":"ping"}\n\n'],
    ["a named ping with text data", "event: ping\ndata: keep-alive\n\n"],
    ["data: null", "data: null\n\n"],
    ["data that is a number", "data: 42\n\n"],
  ])("still fires when the server sends only %s, skipped like a comment and never refilling the budget", async (_, keepAlive) => {
    const keepAlives = Array.from({ length: 20 }, () => [keepAlive, 15]).flat();
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" })), ...keepAlives], then: "hang" }, { streamIdleTimeout: 100 });
    const { value, elapsedMs } = await inFakeTime(streamOf(client).then(collect));
    expect(value!.text).toBe("a");
    expect(value!.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsedMs, "fake milliseconds until the idle timeout").toBe(100);
    expect(seen.cancelled).toBe(true);
  });
});

describe("timeout runs until the first byte of a stream's body", () => {
  useFakeClock();

  it("fails a stream whose headers arrived but whose body stays silent, within timeout, before the Stream is returned", async () => {
    const { client, seen } = clientFor({ reads: [], then: "hang" }, { timeout: 80 });
    const { error, elapsedMs } = await inFakeTime(streamOf(client));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/80 ms.*first byte/);
    expect(elapsedMs, "fake milliseconds from the request to the timeout").toBe(80);
    expect(seen.cancelled).toBe(true);
  });

  it("stops at the first byte: a stream slower than timeout afterwards is not cut by it", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "a" })), 60, data(chunk({ content: "b" })), 60, data(chunk({}, { finish: "stop" })), DONE] }, { timeout: 50 });
    expect((await inFakeTime(streamOf(client).then(collect))).value).toEqual({ text: "ab", error: undefined });
  });
});

describe("errors a stream throws carry its request id", () => {
  it.each([
    ["a cut the transport reveals", { reads: [data(chunk({ content: "a" }))], then: "break" as const }, {}],
    ["a close before the end", { reads: [data(chunk({ content: "a" }))], then: "end" as const }, {}],
    ["the idle timeout", { reads: [data(chunk({ content: "a" }))], then: "hang" as const }, { streamIdleTimeout: 40 }],
  ])("gives the APIConnectionError of %s the stream's requestID", async (_, body, options) => {
    const fetch = async () => {
      const reads = [...body.reads];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = reads.shift();
          if (next !== undefined) return controller.enqueue(encoder.encode(next));
          if (body.then === "break") return controller.error(new TypeError("terminated"));
          if (body.then === "hang") return new Promise<void>(() => {});
          return controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream", "x-request-id": "req_cut" } });
    };
    const client = new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch, maxRetries: 0, ...options });
    const stream = await streamOf(client);
    const { text, error } = await collect(stream);
    expect(text).toBe("a");
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).requestID).toBe("req_cut");
    expect(stream.requestID).toBe("req_cut");
  });
});

describe("how a stream with several choices, or usage, ends", () => {
  it("throws when a close without [DONE] leaves one of n choices unfinished", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0 })), data(chunk({ content: "B" }, { index: 1 })), data(chunk({}, { index: 0, finish: "stop" }))] });
    const { error } = await collect(await streamOf(client, { n: 2 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/choice 1 had no finish_reason/);
  });

  it("never reports finish_reason stop for a choice that did not finish", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0, finish: "stop" })), data(chunk({ content: "B" }, { index: 1 }))] });
    await expect((await streamOf(client, { n: 2 })).finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("throws when a close without [DONE] never showed one of the n choices the request asked for", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0, finish: "stop" }))] });
    const { text, error } = await collect(await streamOf(client, { n: 2 }));
    expect(text).toBe("A");
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/choice 1 had no finish_reason/);
  });

  it("names the unseen choices of n among those that did not finish", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "B" }, { index: 1 })), data(chunk({}, { index: 2, finish: "stop" }))] });
    const { error } = await collect(await streamOf(client, { n: 4 }));
    expect(error?.message).toMatch(/choice 0, 1, 3 had no finish_reason/);
  });

  it("finalChatCompletion() rejects rather than invent a finish_reason for a choice of n that never came", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0, finish: "stop" }))] });
    await expect((await streamOf(client, { n: 2 })).finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("still ends at [DONE] when a choice of n never came, without making one up", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0, finish: "stop" })), DONE] });
    const completion = await (await streamOf(client, { n: 2 })).finalChatCompletion();
    expect(completion.choices.map((choice) => [choice.index, choice.finish_reason])).toEqual([[0, "stop"]]);
  });

  it("ends normally without [DONE] once every choice finished", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { index: 0, finish: "stop" })), data(chunk({ content: "B" }, { index: 1, finish: "length" }))] });
    const completion = await (await streamOf(client, { n: 2 })).finalChatCompletion();
    expect(completion.choices.map((choice) => choice.finish_reason)).toEqual(["stop", "length"]);
  });

  it("throws when include_usage was asked for and the close came between finish_reason and the usage chunk", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { finish: "stop" }))] });
    const { text, error } = await collect(await streamOf(client, { stream_options: { include_usage: true } }));
    expect(text).toBe("A");
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/usage/);
  });

  it("ends normally without [DONE] when the usage chunk asked for arrived", async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    const { client } = clientFor({ reads: [data(chunk({ content: "A" }, { finish: "stop" })), data(usageChunk(usage))] });
    const completion = await (await streamOf(client, { stream_options: { include_usage: true } })).finalChatCompletion();
    expect(completion.usage).toEqual(usage);
  });
});

describe("odd but legal events", () => {
  it("skips data that is JSON but not an object (null, 42, []) instead of crashing the helpers", async () => {
    const { client } = clientFor({ reads: ["data: null\n\n", "data: 42\n\n", "data: []\n\n", data(chunk({ content: "ok" }, { finish: "stop" })), DONE] });
    expect(await (await streamOf(client)).text()).toBe("ok");
    const again = clientFor({ reads: ["data: null\n\n", data(chunk({ content: "ok" }, { finish: "stop" })), DONE] });
    expect((await (await streamOf(again.client)).finalChatCompletion()).choices[0]?.message.content).toBe("ok");
  });

  it("delivers an event whose event: field is empty, as the default message type", async () => {
    const { client } = clientFor({ reads: [`event:\n${data(chunk({ content: "x" }, { finish: "stop" }))}`, DONE] });
    expect(await (await streamOf(client)).text()).toBe("x");
  });

  it("joins a CR and its LF across a zero-byte read into one line end", async () => {
    // One event whose JSON spans two data lines; a CRLF split by an empty read must not end it early.
    const json = JSON.stringify(chunk({ content: "x" }, { finish: "stop" }));
    const half = json.indexOf(",") + 1;
    const { client } = clientFor({ reads: [`data: ${json.slice(0, half)}\r`, new Uint8Array(0), `\ndata: ${json.slice(half)}\r\n\r\n`, DONE] });
    expect(await (await streamOf(client)).text()).toBe("x");
  });

  it("fills in the index of tool-call fragments that leave it out", async () => {
    const fragment = (fields: Record<string, unknown>) => data({ ...chunk({}), choices: [{ index: 0, delta: { tool_calls: [fields] }, finish_reason: null }] });
    const { client } = clientFor({
      reads: [fragment({ id: "a", function: { name: "f", arguments: "{" } }), fragment({ index: null, function: { arguments: "}" } }), fragment({ id: "b", function: { name: "g", arguments: "{}" } }), data(chunk({}, { finish: "tool_calls" })), DONE],
    });
    const indexes: unknown[] = [];
    for await (const piece of await streamOf(client)) for (const call of piece.choices[0]?.delta.tool_calls ?? []) indexes.push(call.index);
    expect(indexes).toEqual([0, 0, 1]);
  });
});

describe("index-less tool calls continued at an index", () => {
  const fragments = (...calls: Record<string, unknown>[]) => data({ ...chunk({}), choices: [{ index: 0, delta: { tool_calls: calls }, finish_reason: null }] });
  const yieldedIndexes = async (reads: string[]) => {
    const { client } = clientFor({ reads: [...reads, data(chunk({}, { finish: "tool_calls" })), DONE] });
    const indexes: [number, string | undefined, string | undefined][] = [];
    for await (const piece of await streamOf(client)) for (const call of piece.choices[0]?.delta.tool_calls ?? []) indexes.push([call.index, call.id, call.function?.arguments]);
    return indexes;
  };

  it("continues each call at the index it was given (Kimi: two calls without index, then index 1 and 0 without id)", async () => {
    const started = fragments({ id: "a", type: "function", function: { name: "f", arguments: "{" } }, { id: "b", type: "function", function: { name: "g", arguments: "[" } });
    expect(await yieldedIndexes([started, fragments({ index: 1, function: { arguments: "]" } }, { index: 0, function: { arguments: "}" } })])).toEqual([
      [0, "a", "{"],
      [1, "b", "["],
      [1, undefined, "]"],
      [0, undefined, "}"],
    ]);
  });

  it("still finds a call started without index by its id at another index", async () => {
    const started = fragments({ id: "a", type: "function", function: { name: "f", arguments: "{" } });
    expect(await yieldedIndexes([started, fragments({ index: 3, id: "a", function: { arguments: "}" } })])).toEqual([
      [0, "a", "{"],
      [0, "a", "}"],
    ]);
  });
});

describe("a 200 that is an error document", () => {
  it("throws the class of the body's code for a non-streamed call", async () => {
    const { client } = clientFor({ reads: [JSON.stringify({ error: { message: "slow down", code: 429 } })], contentType: "application/json" });
    const error = await client.chat.completions.create({ model: "auto", messages: USER }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).status).toBe(429);
  });

  it("throws the class of the body's code for a stream request, not a bare APIError", async () => {
    const { client } = clientFor({ reads: [JSON.stringify({ error: { message: `key ${KEY} is revoked`, code: "401" } })], contentType: "application/json" });
    const error = await streamOf(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error);
  });

  it("hints that baseURL is not the gateway when a 200 answer is an HTML page", async () => {
    const page = "<html><body><h1>Welcome to nginx!</h1></body></html>";
    const plain = clientFor({ reads: [page], contentType: "text/html" });
    await expect(plain.client.chat.completions.create({ model: "auto", messages: USER })).rejects.toThrow(/Welcome to nginx!.*baseURL/);
    const streamed = clientFor({ reads: [page], contentType: "text/html" });
    await expect(streamOf(streamed.client)).rejects.toThrow(/Welcome to nginx!.*baseURL/);
  });
});

describe("a 200 event stream that holds no event", () => {
  it("quotes an HTML page sent as text/event-stream (a proxy's page), not a cut connection", async () => {
    const page = "\n<!DOCTYPE html><html><body><h1>Sign in to the office Wi-Fi</h1></body></html>";
    const { client } = clientFor({ reads: [page] });
    const error = await streamOf(client).then(collect).then((result) => result.error, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain("Sign in to the office Wi-Fi");
  });

  it("quotes a page that arrives in several reads, lower-case doctype, with the key cut out", async () => {
    const { client } = clientFor({ reads: ["<!doctype html><html><head><title>502 Bad Gateway</title></head>", `<body><h1>Upstream refused key ${KEY}</h1>`, "</body></html>\n"] });
    const error = await streamOf(client).then(collect).then((result) => result.error, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain("Upstream refused key");
    expectNoKey(error);
  });

  it("quotes a page longer than the text kept before a first event (a portal with inline scripts), not a cut connection", async () => {
    const page = `<!doctype html><html><head><title>Sign in</title><script>${"var a = 1;\n".repeat(8000)}</script></head><body><h1>Sign in to the office Wi-Fi</h1></body></html>`;
    expect(page.length).toBeGreaterThan(64 * 1024);
    const { client } = clientFor({ reads: [page.slice(0, 40_000), page.slice(40_000)] });
    const error = await streamOf(client).then(collect).then((result) => result.error, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain("non-JSON (HTML) body");
  });

  it.each(["d", "dat", ": PROCESS", "data"])("still reads a body cut inside its first line (%j) as a cut", async (start) => {
    const { client } = clientFor({ reads: [start] });
    const error = await streamOf(client).then(collect).then((result) => result.error, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
  });
});

describe("abort and cleanup", () => {
  it("ends a stream with APIUserAbortError when the caller's signal aborts mid-stream, and cancels the body", async () => {
    const controller = new AbortController();
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" }))], then: "hang" });
    const stream = await client.chat.completions.create({ model: "auto", messages: USER, stream: true }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const { text, error } = await collect(stream);
    expect(text).toBe("a");
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen.cancelled).toBe(true);
  });

  it("asResponse() on a stream removes its listener from the caller's signal once the body ends", async () => {
    const counting = countingSignal();
    const { signal } = counting;
    const { client } = clientFor({ reads: [data(chunk({ content: "a" }, { finish: "stop" })), DONE] });
    for (let call = 0; call < 3; call++) {
      const response = await client.chat.completions.create({ model: "auto", messages: USER, stream: true }, { signal }).asResponse();
      expect(await response.text()).toContain("[DONE]");
    }
    expect(counting.listeners).toBe(0);
  });

  it("refuses the stream's chunks once asResponse() reads the body, and the raw body stays whole", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "a" })), data(chunk({ content: "b" }, { finish: "stop" })), DONE] });
    const call = client.chat.completions.create({ model: "auto", messages: USER, stream: true });
    const stream = await call;
    const response = await call.asResponse();
    const { error } = await collect(stream);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error?.message).toMatch(/^The response body is already being read by asResponse\(\), so the stream \(its chunks\) cannot read it too/);
    expect(await response.text()).toContain("[DONE]");
  });

  it("rejects asResponse() once the stream's chunks are being read, which stay whole", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "a" })), data(chunk({ content: "b" }, { finish: "stop" })), DONE] });
    const call = client.chat.completions.create({ model: "auto", messages: USER, stream: true });
    const read = collect(await call);
    await expect(call.asResponse()).rejects.toThrow(/^The response body is already being read by the stream \(its chunks\), so asResponse\(\) cannot read it too/);
    expect(await read).toEqual({ text: "ab", error: undefined });
  });

  it("asResponse() on a stream still times out a body that never starts", async () => {
    const { client } = clientFor({ reads: [], then: "hang" }, { timeout: 50 });
    await expect(streamOf(client).asResponse()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe("a stream's edges: iteration after the first byte, aborts before any read, echoed keys, malformed shapes, bad options", () => {
  it("stops the timeout when the first byte arrives, even if the caller starts iterating later", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "a" }, { finish: "stop" })), DONE] }, { timeout: 40 });
    const stream = await streamOf(client);
    await new Promise((resolve) => setTimeout(resolve, 120)); // three times the timeout
    expect(await collect(stream)).toEqual({ text: "a", error: undefined });
  });

  it("cancels the body and detaches from the caller's signal when a stream is aborted before anyone read it", async () => {
    const counting = countingSignal();
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" }))], then: "hang" });
    const stream = await client.chat.completions.create({ model: "auto", messages: USER, stream: true }, { signal: counting.signal });
    counting.controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.cancelled, "body cancelled").toBe(true);
    expect(counting.listeners, "listeners left on the caller's signal").toBe(0);
    await expect(collect(stream)).resolves.toMatchObject({ error: expect.any(APIUserAbortError) });
  });

  it("does the same for stream.controller.abort() on a stream nobody read", async () => {
    const { client, seen } = clientFor({ reads: [data(chunk({ content: "a" }))], then: "hang" });
    const stream = await streamOf(client);
    stream.controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.cancelled).toBe(true);
  });

  it("cuts the key out before cutting a long body to an excerpt, so no prefix of it shows", async () => {
    const body = `${"q".repeat(180)} key=${KEY} ${"r".repeat(100)}`;
    const { client } = clientFor({ reads: [body], status: 401, contentType: "text/plain" });
    const error = await client.chat.completions.create({ model: "auto", messages: USER }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).not.toContain(KEY.slice(0, 12));
    expectNoKey(error);
  });

  it("cuts an echoed key out of the error's response headers", async () => {
    const fetch = async () => new Response("{}", { status: 401, headers: { "www-authenticate": `Bearer token="${KEY}"` } });
    const error = (await new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch, maxRetries: 0 }).get("/v1/models").catch((caught: unknown) => caught)) as APIError;
    expect(error.headers?.get("www-authenticate")).toBe('Bearer token="[redacted]"');
  });

  it("reads malformed tool-call and logprobs shapes without a raw TypeError", async () => {
    const odd = (delta: unknown, extra: Record<string, unknown> = {}) => data({ ...chunk({}), choices: [{ index: 0, delta, finish_reason: null, ...extra }] });
    const { client } = clientFor({ reads: [odd({ tool_calls: [null] }), odd({ tool_calls: 5 }), odd({ content: "ok" }, { logprobs: { content: 5 } }), data(chunk({}, { finish: "stop" })), DONE] });
    expect((await (await streamOf(client)).finalChatCompletion()).choices[0]?.message.content).toBe("ok");
  });

  it("does not invent a finish_reason for a choice whose index is a numeric string", async () => {
    const { client } = clientFor({ reads: [data(chunk({ content: "a" }, { index: 0, finish: "stop" })), data({ ...chunk({}), choices: [{ index: "1", delta: { content: "b" }, finish_reason: null }] })] });
    // "1" is read as choice 1 by both the end check and the accumulator: it never finished, so
    // the close without [DONE] was a cut.
    await expect((await streamOf(client)).finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("rejects a signal that is not an AbortSignal, and a string as headers or query", async () => {
    const { client, seen } = clientFor({ reads: [] });
    await expect(client.get("/v1/models", { signal: {} as never })).rejects.toThrow(/`signal` must be an AbortSignal; got an object/);
    await expect(client.get("/v1/models", { headers: "x-a: 1" as never })).rejects.toThrow(/`headers` must be a Headers/);
    await expect(client.get("/v1/models", { query: "a=1" as never })).rejects.toThrow(/`query` must be a record/);
    await expect(client.post("/v1/x", { body: { n: 1n } })).rejects.toThrow(/cannot be sent as JSON/);
    await expect(client.get(undefined as never)).rejects.toThrow(/`path` must be a string/);
    expect(() => client.models.retrieve(Symbol() as never).catch(() => {})).not.toThrow();
    expect(seen.requests).toBe(0);
  });
});

describe("timeout and abort with a fetch that ignores the signal", () => {
  useFakeClock();
  const deafFetch = (body: "hang-body" | "hang-fetch") => async () => {
    if (body === "hang-fetch") return new Promise<Response>(() => {});
    return new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { headers: { "content-type": "application/json" } });
  };

  it("times out a plain call whose body never completes", async () => {
    const client = new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch: deafFetch("hang-body"), maxRetries: 0, timeout: 60 });
    const { error, elapsedMs } = await inFakeTime(client.chat.completions.create({ model: "auto", messages: USER }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsedMs, "fake milliseconds until the timeout").toBe(60);
  });

  it("aborts a call whose fetch never settles", async () => {
    const client = new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch: deafFetch("hang-fetch"), maxRetries: 0 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect((await inFakeTime(client.chat.completions.create({ model: "auto", messages: USER }, { signal: controller.signal }))).error).toBeInstanceOf(APIUserAbortError);
  });
});

describe("a 200 error document under a content type that does not say JSON", () => {
  it.each(["text/event-stream", "text/plain"])("rejects create() with its error for a stream request (%s)", async (contentType) => {
    const { client } = clientFor({ reads: [JSON.stringify({ error: { message: `Rate limit exceeded for ${KEY}`, code: 429 } })], contentType });
    const error = await streamOf(client).then(() => undefined, (caught: Error) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toMatch(/Rate limit exceeded/);
    expectNoKey(error);
  });
});
