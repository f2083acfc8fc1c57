import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  ModelGate,
  ModelGateError,
  RateLimitError,
  type ClientOptions,
  type Middleware,
  type MiddlewareContext,
  type Model,
} from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { completionBody, contentEvent, DONE } from "./fixtures/chunks.ts";
import { rejection } from "./fixtures/promises.ts";

// The middleware rules of API.md ("Middleware, tracing and per-tenant clients"), one test per rule.

const KEY = "sk-Qz81Lr0pX4vN7cT2yB9kW5jH";
const messages = [{ role: "user" as const, content: "Hello" }];
/** Retried at once: these tests count attempts, they do not wait for backoff. */
const RETRY_NOW = { "retry-after-ms": "0" };
const models: Model[] = [{ id: "m/x", object: "model", created: 0, owned_by: "x", pricing: { prompt: 1, completion: 1 }, max_output_tokens: 100 }];

/** A request as the network (the client's fetch) saw it. */
interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | null | undefined;
}

/**
 * A client whose fetch answers with `respond(sent, index)` (a completion by default) and records
 * every request it is given, whether as (url, init) or as a `Request` from a middleware.
 */
function gateway(options: ClientOptions & { respond?: (sent: Sent, index: number) => Response | Promise<Response> } = {}) {
  const sent: Sent[] = [];
  const { respond = () => Response.json(completionBody("ok")), ...clientOptions } = options;
  const client = new ModelGate({
    apiKey: KEY,
    baseURL: "https://gateway.test/v1?api-version=1",
    maxRetries: 0,
    ...clientOptions,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const record = { url: request.url, method: request.method, headers: request.headers, body: await request.text(), signal: init?.signal };
      sent.push(record);
      return respond(record, sent.length - 1);
    },
  });
  return { client, sent };
}

/** A middleware that records `name` before and after `next`. */
const tracing = (log: string[], name: string): Middleware => async (request, next) => {
  log.push(`${name} in`);
  const response = await next(request);
  log.push(`${name} out`);
  return response;
};

/** Every rendering of an error, to look for the key in. */
function renderings(error: unknown): string[] {
  const asError = error as Error;
  const cause = asError.cause as Error | undefined;
  return [asError.message, String(asError), asError.stack ?? "", JSON.stringify(asError), inspect(asError, { depth: Infinity, showHidden: true }), String(cause?.message), String(cause?.stack)];
}

function expectNoPartOfKey(texts: string[]): void {
  for (let end = 8; end <= KEY.length; end++) {
    const part = KEY.slice(end - 8, end);
    for (const text of texts) expect(text.includes(part), `shows "${part}" of the key: ${text.slice(0, 200)}`).toBe(false);
  }
}

describe("middleware: where it runs", () => {
  it("runs the client's middleware outside the call's, each list in array order", async () => {
    const log: string[] = [];
    const { client } = gateway({ middleware: [tracing(log, "client 1"), tracing(log, "client 2")] });
    await client.chat.completions.create({ model: "auto", messages }, { middleware: [tracing(log, "call 1"), tracing(log, "call 2")] });
    expect(log).toEqual(["client 1 in", "client 2 in", "call 1 in", "call 2 in", "call 2 out", "call 1 out", "client 2 out", "client 1 out"]);
  });

  it("runs once per HTTP attempt, each time on the final Request: key, idempotency key and headers set", async () => {
    const seen: { attempt: number; authorization: string | null; idempotencyKey: string | null; retryCount: string | null; tenant: string | null }[] = [];
    const { client, sent } = gateway({
      maxRetries: 2,
      defaultHeaders: { "x-tenant": "acme" },
      respond: (_, index) => (index < 2 ? Response.json({ error: { message: "busy" } }, { status: 503, headers: RETRY_NOW }) : Response.json(completionBody("ok"))),
      middleware: [
        (request, next, context) => {
          const { headers } = request;
          seen.push({ attempt: context.attempt, authorization: headers.get("authorization"), idempotencyKey: headers.get("idempotency-key"), retryCount: headers.get("x-modelgate-retry-count"), tenant: headers.get("x-tenant") });
          return next(request);
        },
      ],
    });
    await client.chat.completions.create({ model: "auto", messages });
    expect(sent).toHaveLength(3);
    expect(seen.map((attempt) => [attempt.attempt, attempt.retryCount])).toEqual([[1, null], [2, "1"], [3, "2"]]);
    for (const attempt of seen) {
      expect(attempt.authorization).toBe(`Bearer ${KEY}`);
      expect(attempt.tenant).toBe("acme");
      expect(attempt.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    }
    expect(seen[0]!.idempotencyKey).toMatch(/^modelgate-/);
  });

  it("retries a 429 a middleware returned, as if the network had sent it", async () => {
    const { client, sent } = gateway({ maxRetries: 1 });
    const limiter: Middleware = async (request, next, { attempt }) =>
      attempt === 1 ? Response.json({ error: { message: "slow down" } }, { status: 429, headers: RETRY_NOW }) : next(request);
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [limiter] });
    expect(completion.choices[0]!.message.content).toBe("ok");
    expect(completion.gateway?.attempts).toBe(2);
    expect(sent).toHaveLength(1);
  });

  it("reads an error status a middleware returned into the APIError of its class", async () => {
    const { client, sent } = gateway();
    const refuse: Middleware = async () => Response.json({ error: { message: "no such thing", code: "bad" } }, { status: 400 });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [refuse] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain("no such thing");
    expect(sent).toHaveLength(0);
  });

  it("takes a middleware's own answer without sending anything", async () => {
    const { client, sent } = gateway();
    const cached: Middleware = async () => Response.json(completionBody("from the cache"));
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [cached] });
    expect(completion.choices[0]!.message.content).toBe("from the cache");
    expect(sent).toHaveLength(0);
  });

  it("lets a middleware call next twice: each call sends a clone of the same Request", async () => {
    const { client, sent } = gateway({ respond: (_, index) => Response.json(completionBody(`answer ${index + 1}`)) });
    const twice: Middleware = async (request, next) => {
      await (await next(request)).text();
      return next(request);
    };
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [twice] });
    expect(completion.choices[0]!.message.content).toBe("answer 2");
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ model: "auto", messages });
  });

  it("counts every send a middleware makes through next in gateway.attempts, and keeps context.attempt the SDK's", async () => {
    const { client, sent } = gateway({
      maxRetries: 1,
      respond: (_, index) => (index === 1 ? Response.json({ error: { message: "busy" } }, { status: 503, headers: RETRY_NOW }) : Response.json(completionBody(`answer ${index + 1}`))),
    });
    const seen: number[] = [];
    const twice: Middleware = async (request, next, context) => {
      seen.push(context.attempt);
      if (context.attempt === 1) await (await next(request)).text();
      return next(request);
    };
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [twice] });
    expect(sent).toHaveLength(3);
    expect(seen).toEqual([1, 2]);
    expect(completion.gateway?.attempts).toBe(3);
  });

  it("keeps a stream a stream through middleware, and says so in the context", async () => {
    const streams: boolean[] = [];
    const { client } = gateway({ respond: () => sseResponse([contentEvent("Hel"), contentEvent("lo"), DONE]) });
    const watch: Middleware = async (request, next, context) => {
      streams.push(context.stream);
      return next(request);
    };
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true }, { middleware: [watch] });
    expect(await stream.text()).toBe("Hello");
    const built = await client.chat.completions.create({ model: "auto", messages, stream: true }, { middleware: [async () => sseResponse([contentEvent("mine"), DONE])] });
    expect(await built.text()).toBe("mine");
    expect(streams).toEqual([true]);
  });

  it("runs again on the repeat after a key refresh, with the new key", async () => {
    const keys = ["sk-first-key-000000000000", "sk-second-key-11111111111"];
    const seen: [number, string | null][] = [];
    const { client } = gateway({
      apiKey: () => keys.shift() ?? "sk-none",
      respond: (sent) => (sent.headers.get("authorization")?.includes("first") ? Response.json({ error: { message: "expired" } }, { status: 401 }) : Response.json(completionBody("ok"))),
      middleware: [(request, next, { attempt }) => (seen.push([attempt, request.headers.get("authorization")]), next(request))],
    });
    await client.chat.completions.create({ model: "auto", messages });
    expect(seen).toEqual([
      [1, "Bearer sk-first-key-000000000000"],
      [2, "Bearer sk-second-key-11111111111"],
    ]);
  });

  it("runs again on a shrinkToAffordable retry, on the smaller request and its own idempotency key", async () => {
    const seen: { maxTokens: unknown; idempotencyKey: string | undefined }[] = [];
    const { client } = gateway({
      shrinkToAffordable: true,
      respond: (sent) =>
        JSON.parse(sent.body).max_tokens === 500
          ? Response.json({ error: { code: 402, message: "Only 120 tokens affordable", metadata: { affordable_tokens: 120 } } }, { status: 402 })
          : Response.json(completionBody("short")),
      middleware: [
        async (request, next, context) => {
          seen.push({ maxTokens: JSON.parse(await request.clone().text()).max_tokens, idempotencyKey: context.idempotencyKey });
          return next(request);
        },
      ],
    });
    await client.chat.completions.create({ model: "auto", messages, max_tokens: 500 });
    expect(seen.map((attempt) => attempt.maxTokens)).toEqual([500, 120]);
    expect(seen[1]!.idempotencyKey).toBe(`${seen[0]!.idempotencyKey}-shrunk`);
  });

  it("runs only the client's middleware on the catalogue fetch that calls share", async () => {
    const clientPaths: string[] = [];
    const callPaths: string[] = [];
    const { client } = gateway({
      respond: (sent) => (sent.url.includes("/v1/models") ? Response.json({ object: "list", data: models }) : Response.json(completionBody("ok"))),
      middleware: [(request, next, { path }) => (clientPaths.push(path), next(request))],
    });
    await client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1, middleware: [(request, next, { path }) => (callPaths.push(path), next(request))] });
    expect(clientPaths).toEqual(["/v1/models", "/v1/chat/completions"]);
    expect(callPaths).toEqual(["/v1/chat/completions"]);
  });

  it("sees under maxCost the caller's options and nothing of the budget's own check, which the caller's object never carries", async () => {
    const contexts: MiddlewareContext[] = [];
    const { client } = gateway({ respond: (sent) => (sent.url.includes("/v1/models") ? Response.json({ object: "list", data: models }) : Response.json(completionBody("ok"))) });
    const options = { maxCost: 1, idempotencyKey: "budgeted-1", middleware: [(request: Request, next: (request: Request) => Promise<Response>, context: MiddlewareContext) => (contexts.push(context), next(request))] };
    await client.chat.completions.create({ model: "m/x", messages }, options);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.options).toMatchObject({ maxCost: 1, idempotencyKey: "budgeted-1" });
    expect(Object.getOwnPropertySymbols(contexts[0]!.options)).toEqual([]);
    expect(Object.keys(options).sort()).toEqual(["idempotencyKey", "maxCost", "middleware"]);
    expect(Object.getOwnPropertySymbols(options)).toEqual([]);
  });

  it("gives a context with the method, the path below the root, the attempt's signal, the idempotency key and the options with the client's defaults", async () => {
    const contexts: MiddlewareContext[] = [];
    const { client } = gateway({ timeout: 12_345, maxRetries: 1, middleware: [(request, next, context) => (contexts.push(context), next(request))] });
    await client.chat.completions.create({ model: "auto", messages }, { idempotencyKey: "call-1", headers: { "x-call": "1" } });
    await client.models.list();
    const [chat, list] = contexts;
    expect(chat).toMatchObject({ method: "POST", path: "/v1/chat/completions", attempt: 1, stream: false, idempotencyKey: "call-1" });
    expect(chat!.options).toMatchObject({ timeout: 12_345, maxRetries: 1, shrinkToAffordable: false, idempotencyKey: "call-1", headers: { "x-call": "1" } });
    expect(chat!.signal).toBeInstanceOf(AbortSignal);
    expect(chat!.signal.aborted).toBe(false);
    expect(list).toMatchObject({ method: "GET", path: "/v1/models", idempotencyKey: undefined });
  });
});

describe("middleware: the context's options", () => {
  it("shows the options a call gave by a prototype or a getter, as the attempt runs with them", async () => {
    const contexts: MiddlewareContext[] = [];
    const { client } = gateway({ middleware: [(request, next, context) => (contexts.push(context), next(request))] });
    const inherited = { timeout: 4_321, idempotencyKey: "inherited-1" };
    const options = Object.create(inherited, { maxRetries: { get: () => 0 } }) as { timeout?: number };
    await client.chat.completions.create({ model: "auto", messages }, options);
    expect(contexts[0]!.options).toMatchObject({ timeout: 4_321, maxRetries: 0, idempotencyKey: "inherited-1" });
  });
});

describe("middleware: the attempt's signal and timeout", () => {
  it("ends a request a middleware rebuilt without the attempt's signal when the caller aborts", async () => {
    const controller = new AbortController();
    const { client, sent } = gateway({
      respond: (request) =>
        new Promise((_, reject) => {
          controller.abort();
          request.signal?.addEventListener("abort", () => reject(request.signal!.reason), { once: true });
        }),
    });
    const rebuild: Middleware = async (request, next) => next(new Request(request.url, { method: request.method, headers: request.headers, body: await request.text() }));
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { signal: controller.signal, middleware: [rebuild] }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(sent[0]!.signal?.aborted).toBe(true);
  });

  it("counts a middleware's time against the attempt's timeout, and retries the timeout like any", async () => {
    let attempts = 0;
    const { client, sent } = gateway({ timeout: 20, maxRetries: 1 });
    const stall: Middleware = (_, __, { signal }) => {
      attempts++;
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("gave up")), { once: true }));
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [stall] }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(attempts).toBe(2);
    expect(sent).toHaveLength(0);
  });
});

describe("middleware: failures", () => {
  it("makes next reject as fetch does, and retries a rethrown connection failure as one", async () => {
    const failures: unknown[] = [];
    const { client, sent } = gateway({
      maxRetries: 1,
      respond: (_, index) => (index === 0 ? Promise.reject(new TypeError("fetch failed")) : Response.json(completionBody("ok"))),
    });
    const rethrow: Middleware = async (request, next) => {
      try {
        return await next(request);
      } catch (error) {
        failures.push(error);
        throw error;
      }
    };
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [rethrow] });
    expect(completion.choices[0]!.message.content).toBe("ok");
    expect(failures).toEqual([new TypeError("fetch failed")]);
    expect(sent).toHaveLength(2);
  });

  it("reports a rethrown connection failure as APIConnectionError once retries are spent", async () => {
    const { client } = gateway({ respond: () => Promise.reject(new TypeError("fetch failed")) });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [(request, next) => next(request)] }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).cause).toEqual(new TypeError("fetch failed"));
  });

  it("keeps a rethrown abort an abort, never retried", async () => {
    const controller = new AbortController();
    const { client, sent } = gateway({
      maxRetries: 2,
      respond: (request) => {
        controller.abort();
        return Promise.reject(request.signal!.reason);
      },
    });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { signal: controller.signal, middleware: [(request, next) => next(request)] }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(sent).toHaveLength(1);
  });

  it("passes an APIError a middleware throws as it is, and retries it as its status says", async () => {
    const thrown = new RateLimitError(429, { message: "local limit", headers: new Headers(RETRY_NOW) });
    const { client, sent } = gateway({ maxRetries: 1 });
    const limiter: Middleware = async (request, next, { attempt }) => {
      if (attempt === 1) throw thrown;
      return next(request);
    };
    const completion = await client.chat.completions.create({ model: "auto", messages }, { middleware: [limiter] });
    expect(completion.gateway?.attempts).toBe(2);
    expect(sent).toHaveLength(1);

    const refused = new BadRequestError(400, { message: "not for this tenant" });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [() => Promise.reject(refused)] }));
    expect(error).toBe(refused);
  });

  it("wraps anything else a middleware throws in a ModelGateError whose cause is the thrown value, not retried", async () => {
    const thrown = new TypeError("tenant lookup failed");
    let attempts = 0;
    const { client, sent } = gateway({ maxRetries: 2 });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [() => (attempts++, Promise.reject(thrown))] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain("A middleware threw (TypeError: tenant lookup failed)");
    expect((error as Error).cause).toBe(thrown);
    expect(attempts).toBe(1);
    expect(sent).toHaveLength(0);
  });

  it("wraps what an inner middleware threw and the outer one let through the same way", async () => {
    const { client } = gateway();
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [(request, next) => next(request), () => { throw "plain string"; }] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).cause).toBe("plain string");
  });

  it("never shows the key in the error, its cause or its stack when a thrown value quotes the Request's headers", async () => {
    const { client } = gateway();
    const leaky: Middleware = async (request) => {
      throw Object.assign(new RangeError(`rejected ${request.headers.get("authorization")}`), { headers: Object.fromEntries(request.headers) });
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [leaky] }));
    expect(error).toBeInstanceOf(ModelGateError);
    const cause = (error as Error).cause as RangeError & { headers: Record<string, string> };
    expect(cause).toBeInstanceOf(RangeError);
    expect(cause.message).toBe("rejected Bearer [redacted]");
    expect(cause.headers.authorization).toBe("Bearer [redacted]");
    expectNoPartOfKey(renderings(error));
  });

  // Each holds the Request, its Headers or the key itself somewhere a plain-data walk does not look.
  it.each<[string, (request: Request) => unknown]>([
    ["the Request itself", (request) => request],
    ["its Headers", (request) => request.headers],
    ["an Error holding the Request", (request) => Object.assign(new Error("boom"), { request })],
    ["an Error holding its Headers", (request) => Object.assign(new Error("boom"), { headers: request.headers })],
    ["an Error whose cause is the Request", (request) => new Error("boom", { cause: request })],
    ["an object holding a Map of the key", (request) => ({ auth: new Map([["authorization", request.headers.get("authorization")]]) })],
    ["an Error holding a Set of the key", () => Object.assign(new Error("boom"), { keys: new Set([KEY]) })],
    ["an Error holding a URL with the key", () => Object.assign(new Error("boom"), { url: new URL(`https://gateway.test/?key=${KEY}`) })],
    ["an Error holding URLSearchParams with the key", () => Object.assign(new Error("boom"), { query: new URLSearchParams({ key: KEY }) })],
    ["an Error with a symbol-keyed field", () => Object.assign(new Error("boom"), { [Symbol("auth")]: KEY })],
    ["an AggregateError of errors quoting the key", () => new AggregateError([new Error(`sent ${KEY}`)], "many")],
    ["an Error whose util.inspect.custom prints the key", () => Object.assign(new Error("boom"), { [inspect.custom]: () => `custom ${KEY}` })],
    ["an Error with a getter that returns the key", () => Object.defineProperty(new Error("boom"), "auth", { get: () => KEY, enumerable: true })],
  ])("never keeps the key in the error when a middleware throws %s", async (_, thrown) => {
    const { client } = gateway();
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [async (request) => Promise.reject(thrown(request))] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expectNoPartOfKey(renderings(error));
  });

  it("wraps a Proxy whose getPrototypeOf trap throws (quoting the key) in a ModelGateError, not retried as a connection error", async () => {
    let runs = 0;
    const { client, sent } = gateway({ maxRetries: 2 });
    const trap: Middleware = async () => {
      runs++;
      throw new Proxy(new Error("p"), { getPrototypeOf: () => { throw new Error(`trap ${KEY}`); } });
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [trap] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(runs).toBe(1);
    expect(sent).toHaveLength(0);
    expectNoPartOfKey(renderings(error));
  });

  it("keeps what next rejected with, annotated with the Request and rethrown, a connection error without the key", async () => {
    const { client } = gateway({ respond: () => Promise.reject(new TypeError("fetch failed")) });
    const annotate: Middleware = async (request, next) => {
      try {
        return await next(request);
      } catch (error) {
        throw Object.assign(error as Error, { request, headers: request.headers });
      }
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [annotate] }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(((error as Error).cause as Error).message).toBe("fetch failed");
    expectNoPartOfKey(renderings(error));
  });

  it("passes an APIError that shows the key as a redacted copy of its class, retried as its status says", async () => {
    const { client, sent } = gateway({ defaultQuery: { key: KEY }, maxRetries: 1 });
    let runs = 0;
    const breaker: Middleware = async (request) => {
      runs++;
      throw new InternalServerError(503, { message: `circuit open for ${request.url}`, headers: new Headers([...request.headers, ...Object.entries(RETRY_NOW)]), cause: request });
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [breaker] }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect((error as InternalServerError).headers?.get("authorization")).toBe("Bearer [redacted]");
    expect((error as InternalServerError).gateway.attempts).toBe(2);
    expect(runs).toBe(2);
    expect(sent).toHaveLength(0);
    expectNoPartOfKey(renderings(error));
  });

  it.each([false, true])("names a Response whose body the middleware already read (stream: %s), not retried and not paid for again", async (stream) => {
    const { client, sent } = gateway({
      maxRetries: 2,
      respond: () => (stream ? sseResponse([contentEvent("Hi"), DONE]) : Response.json(completionBody("ok"))),
    });
    const logging: Middleware = async (request, next) => {
      const response = await next(request);
      await response.text();
      return response;
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages, stream }, { middleware: [logging] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/already read.*clone\(\)/);
    expect(sent).toHaveLength(1);
  });

  it.each([false, true])("names a Response whose body the middleware took a reader of (stream: %s), not retried and not paid for again", async (stream) => {
    const { client, sent } = gateway({
      maxRetries: 2,
      respond: () => (stream ? sseResponse([contentEvent("Hi"), DONE]) : Response.json(completionBody("ok"))),
    });
    const peeking: Middleware = async (request, next) => {
      const response = await next(request);
      response.body?.getReader();
      return response;
    };
    const error = await rejection(client.chat.completions.create({ model: "auto", messages, stream }, { middleware: [peeking] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/already read.*clone\(\)/);
    expect(sent).toHaveLength(1);
  });

  it("names a Response-like object that is not a Response, not retried", async () => {
    const { client, sent } = gateway({ maxRetries: 2 });
    const lookalike = (async (request: Request, next: (request: Request) => Promise<Response>) => {
      const response = await next(request);
      return { status: response.status, headers: response.headers, json: () => response.json() };
    }) as unknown as Middleware;
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [lookalike] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toBe("A middleware resolved to an object instead of a Response.");
    expect(sent).toHaveLength(1);
  });

  it("names a middleware that resolves to something other than a Response", async () => {
    const { client } = gateway();
    const forgetful = (async () => undefined) as unknown as Middleware;
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [forgetful] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toBe("A middleware resolved to nothing instead of a Response.");
  });

  it.each([
    ["without middleware", []],
    ["through a middleware that passes it on", [(async (request: Request, next: (request: Request) => Promise<Response>) => next(request)) as unknown as Middleware]],
  ])("names a fetch option that resolves to something other than a Response, not retried (%s)", async (_, middleware) => {
    let calls = 0;
    const client = new ModelGate({ apiKey: "k-12345678", baseURL: "https://gateway.test", maxRetries: 2, fetch: (async () => (calls++, 42)) as unknown as typeof fetch });
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe("The `fetch` option resolved to number 42 instead of a Response.");
    expect(calls).toBe(1);
  });

  it("names a call of next without a Request", async () => {
    const { client, sent } = gateway();
    const wrong = ((_: Request, next: (request: unknown) => Promise<Response>) => next("https://gateway.test/v1/chat/completions")) as unknown as Middleware;
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [wrong] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(((error as Error).cause as Error).message).toMatch(/`next\(request\)` must be a Request; got "https:/);
    expect(sent).toHaveLength(0);
  });
});

describe("middleware: the options", () => {
  it("throws at construction for a client middleware that is not an array of functions", () => {
    for (const middleware of [() => undefined, ["not a function"], "x"]) {
      expect(() => new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", middleware: middleware as unknown as Middleware[] })).toThrow(/`middleware` must be an array of middleware functions/);
    }
  });

  it("rejects a call whose middleware is not an array of functions, sending nothing", async () => {
    const { client, sent } = gateway();
    const error = await rejection(client.chat.completions.create({ model: "auto", messages }, { middleware: [42] as unknown as Middleware[] }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as ModelGateError).param).toBe("middleware");
    expect(sent).toHaveLength(0);
  });

  it("calls fetch directly, with no Request built, when neither the client nor the call has middleware", async () => {
    const inputs: unknown[] = [];
    const client = new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch: async (input) => (inputs.push(input), Response.json(completionBody("ok"))) });
    await client.chat.completions.create({ model: "auto", messages }, { middleware: [] });
    expect(inputs).toEqual(["https://gateway.test/v1/chat/completions"]);
  });
});
