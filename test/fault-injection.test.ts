import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  ModelGate,
  ModelGateError,
  type ChatCompletionChunk,
  type Stream,
} from "../src/index.ts";
import { contentEvent, DONE } from "./fixtures/chunks.ts";
import { loopbackServer, type LoopbackServer } from "./fixtures/loopback.ts";
import { watchSDKTimers, type SDKTimers } from "./fixtures/sdk-timers.ts";

// Faults injected over real loopback sockets (node:http on 127.0.0.1), where Node's fetch
// shows its real behaviour: a cut `Connection: close` body can look like a clean end.
// After each test the server has seen every socket closed and the SDK has left no timer behind.

const TEXT = "The quick brown fox jumps over the lazy dog, twice: the quick brown fox jumps again.";
const messages = [{ role: "user" as const, content: "hi" }];
let server: LoopbackServer;
let handler: (response: ServerResponse) => void;
let timers: SDKTimers;

beforeEach(async () => {
  timers = watchSDKTimers();
  server = await loopbackServer((request, response) => {
    request.resume();
    request.on("end", () => handler(response));
  });
});

afterEach(async () => {
  try {
    await server.allSocketsClosed();
    await server.close();
    // Asked at once: the SDK clears its timers in the step that ends the stream or call the test
    // has seen end (see sdk-timers.ts). Node's fetch's own timers, cleared when a socket's close
    // reaches it, are not counted: how soon that comes depends on how busy the machine is.
    expect(timers.pending(), "timers the SDK left running").toBe(0);
  } finally {
    timers.restore();
  }
});

const client = (options: Partial<ConstructorParameters<typeof ModelGate>[0]> = {}) =>
  new ModelGate({ apiKey: "mg-test", baseURL: server.url, maxRetries: 0, ...options });

/** The SSE events of TEXT split into word chunks, then a finishing chunk and [DONE]. */
function sseEvents(text = TEXT): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  return [...words.map((word) => contentEvent(word)), contentEvent(null, "stop"), DONE];
}

function startStream(response: ServerResponse, extraHeaders: Record<string, string> = {}) {
  response.writeHead(200, { "content-type": "text/event-stream", connection: "close", ...extraHeaders });
}

async function collect(stream: Stream<ChatCompletionChunk>) {
  let text = "";
  try {
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

const streamed = (c = client()) => c.chat.completions.create({ model: "auto", messages, stream: true });

describe("faults before the response", () => {
  it("turns a refused connection into APIConnectionError", async () => {
    const closed = await loopbackServer(() => {});
    const url = closed.url;
    await closed.close();
    const error = await new ModelGate({ apiKey: "k", baseURL: url, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
    handler = () => {};
  });

  describe("retried after the default backoff", () => {
    // On the real clock (the backoff costs about half a second): a fake one also fakes the timers
    // of Node's fetch, whose connect timeout counts timer ticks, and it jumps once a few turns of
    // the event loop pass idle, which a loaded machine's sockets may take to connect.

    it("retries a connection reset before the headers, then reports APIConnectionError", async () => {
      handler = (response) => response.socket?.destroy();
      const error = await client({ maxRetries: 1 }).models.list().then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(server.acceptedSockets).toBe(2);
    });

    it("retries a POST whose connection was reset after the request arrived, with the same Idempotency-Key", async () => {
      const keys: (string | undefined)[] = [];
      server.server.prependListener("request", (request) => keys.push(request.headers["idempotency-key"] as string | undefined));
      handler = (response) => {
        if (keys.length === 1) return void response.socket?.destroy();
        response.writeHead(200, { "content-type": "application/json", connection: "close" });
        response.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [] }));
      };
      const error = await client({ maxRetries: 1 }).chat.completions.create({ model: "auto", messages }).then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeUndefined();
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^modelgate-/);
      expect(keys[1]).toBe(keys[0]);
    });
  });

  it("times out headers-then-silence for a plain call, and closes the socket", async () => {
    handler = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"object":');
    };
    const error = await client({ timeout: 100 }).models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("reports a 200 with an HTML body as an error with its text, for plain and streamed calls", async () => {
    handler = (response) => {
      response.writeHead(200, { "content-type": "text/html", connection: "close" });
      response.end("<html><body><h1>Captive portal</h1><p>Log in first</p></body></html>");
    };
    const plain = await client().models.list().catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(APIError);
    expect((plain as Error).message).toContain("Captive portal Log in first");
    const stream = await streamed().catch((e: unknown) => e);
    expect(stream).toBeInstanceOf(APIError);
    expect((stream as Error).message).toMatch(/Expected an event stream.*Captive portal/);
  });

  it("says a JSON answer that stops short (no Content-Length to tell) was expected whole", async () => {
    handler = (response) => {
      response.writeHead(200, { "content-type": "application/json", connection: "close" });
      response.end('{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"mess');
    };
    const error = await client().chat.completions.create({ model: "auto", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/^200 Expected whole JSON but got application\/json: \{"id":"chatcmpl-1"/);
  });
});

describe("faults in the middle of a stream", () => {
  it("throws APIConnectionError after the text that arrived when the socket is reset mid-body", async () => {
    handler = (response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const events = sseEvents();
      response.write(events.slice(0, 3).join(""), () => setTimeout(() => response.socket?.destroy(), 10));
    };
    const { text, error } = await collect(await streamed());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(TEXT.startsWith(text), `received ${JSON.stringify(text)}, not a prefix of the server's text`).toBe(true);
    expect(text.length).toBeGreaterThan(0);
    // The runtime's reason is named and kept (Node's fetch: "terminated", its cause "other side closed").
    expect((error as Error | undefined)?.message).toMatch(/^The connection broke off in the middle of the stream \(.+\)\.$/);
    expect((error as Error | undefined)?.cause).toBeInstanceOf(Error);
  });

  it("throws APIConnectionError for a truncated chunked body that Node's fetch reports as a clean end", async () => {
    handler = (response) => {
      startStream(response);
      const events = sseEvents();
      // FIN without the terminating zero-length chunk: the body is cut, not finished.
      response.write(events.slice(0, 4).join(""), () => setTimeout(() => response.socket?.end(), 10));
    };
    const { text, error } = await collect(await streamed());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(TEXT.startsWith(text), `received ${JSON.stringify(text)}, not a prefix of the server's text`).toBe(true);
    expect(text.length, "length of the received text, which must fall short of the whole").toBeLessThan(TEXT.length);
  });

  it("throws APIConnectionTimeoutError for headers then silence, and closes the socket", async () => {
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    handler = (response) => {
      startStream(response);
      response.write(sseEvents()[0]);
      keepAlive = setInterval(() => response.write(": PROCESSING\n\n"), 10);
      response.on("close", () => clearInterval(keepAlive));
    };
    const { error } = await collect(await streamed(client({ streamIdleTimeout: 120 })));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("decodes a slow drip of one byte every few milliseconds exactly", async () => {
    const short = "Drip, drip: ünïcödé 🚀 survives.";
    handler = (response) => {
      startStream(response);
      const bytes = Buffer.from(sseEvents(short).join(""));
      let at = 0;
      const drip = setInterval(() => {
        if (response.destroyed) return clearInterval(drip);
        if (at >= bytes.length) {
          clearInterval(drip);
          response.end();
          return;
        }
        response.write(bytes.subarray(at, at + 1));
        at++;
      }, 1);
    };
    const { text, error } = await collect(await streamed());
    expect(error).toBeUndefined();
    expect(text).toBe(short);
  });

  it("cancels the socket when the caller breaks out of the loop", async () => {
    handler = (response) => {
      startStream(response);
      const timer = setInterval(() => response.write(sseEvents()[0]), 5);
      response.on("close", () => clearInterval(timer));
    };
    const stream = await streamed();
    let seen = 0;
    for await (const _ of stream) if (++seen === 3) break;
    expect(seen).toBe(3);
  });
});

describe("100 concurrent streams with random faults", () => {
  it("returns exactly the server's text or throws a typed error, never a shorter text", async () => {
    const faults = ["none", "reset", "truncate", "stall", "malformed", "error-event"] as const;
    let next = 0;
    const plan: (typeof faults)[number][] = Array.from({ length: 100 }, (_, i) => faults[(i * 7 + (i >> 2)) % faults.length]!);
    handler = (response) => {
      const fault = plan[next++]!;
      const events = sseEvents();
      const cutAt = 2 + (next % 5);
      startStream(response);
      let timer: ReturnType<typeof setTimeout> | undefined;
      response.on("close", () => clearTimeout(timer));
      // One part per millisecond, chained: timers of different delays may fire out of order.
      const send = (parts: string[], then: () => void, at = 0) => {
        timer = setTimeout(() => {
          if (response.destroyed) return;
          if (at === parts.length) return then();
          response.write(parts[at]);
          send(parts, then, at + 1);
        }, 1);
      };
      switch (fault) {
        case "none":
          return send(events, () => response.end());
        case "reset":
          return send(events.slice(0, cutAt), () => response.socket?.destroy());
        case "truncate":
          return send(events.slice(0, cutAt), () => response.socket?.end());
        case "stall":
          return send(events.slice(0, cutAt), () => {});
        case "malformed":
          return send([...events.slice(0, cutAt), "data: {oops\n\n"], () => response.end());
        case "error-event":
          return send([...events.slice(0, cutAt), 'event: error\ndata: {"error":{"code":503,"message":"overloaded"}}\n\n'], () => response.end());
      }
    };
    // Ends the stalled streams; far above the 1 ms between parts, so a busy machine never trips it on a whole one.
    const c = client({ streamIdleTimeout: 1_000 });
    const outcomes = await Promise.all(plan.map(async () => collect(await streamed(c))));
    let whole = 0;
    outcomes.forEach(({ text, error }, index) => {
      if (error === undefined) {
        expect(text, `stream ${index} (${plan[index]}) ended without error`).toBe(TEXT);
        whole++;
      } else {
        expect(error, `stream ${index} (${plan[index]})`).toBeInstanceOf(ModelGateError);
        expect(TEXT.startsWith(text), `stream ${index} got ${JSON.stringify(text)} then ${String(error)}`).toBe(true);
      }
    });
    expect(whole).toBe(plan.filter((fault) => fault === "none").length);
  });
});
