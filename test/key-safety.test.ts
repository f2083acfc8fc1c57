import { createHash } from "node:crypto";
import { inspect } from "node:util";
import { type } from "arktype";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { APIConnectionError, APIConnectionTimeoutError, APIError, AuthenticationError, ModelGate, ModelGateError, StructuredOutputError, type ClientOptions, type Logger } from "../src/index.ts";
import { createRedactor, redactValue } from "../src/internal/redact.ts";
import { redactThrown } from "../src/internal/redact-thrown.ts";
import { sseResponse } from "./fixtures/body.ts";
import { assistantReply, chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";
import { loopbackServer, type LoopbackServer } from "./fixtures/loopback.ts";
import { pricedGateway } from "./fixtures/priced-gateway.ts";

const KEY = "mg-live-SECRET-4f9a2c81d7";
const messages = [{ role: "user" as const, content: "hi" }];
const Answer = z.object({ a: z.number() });
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof loopbackServer>[0]) {
  const server = await loopbackServer(handler);
  servers.push(server);
  return server;
}

/** A logger that keeps every line, with its details serialised as a user's log sink would. */
function capturingLogger() {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, ...details: unknown[]) =>
    lines.push(`${level} ${message} ${details.map((detail) => inspect(detail, { depth: 9 })).join(" ")}`);
  const logger: Logger = { error: keep("error"), warn: keep("warn"), info: keep("info"), debug: keep("debug") };
  return { lines, logger };
}

function everyRendering(error: unknown): string[] {
  const asError = error as Error;
  return [asError.message, String(asError), asError.stack ?? "", JSON.stringify(asError), inspect(asError, { depth: 9, showHidden: true })];
}

describe("the key never shows", () => {
  it("in any rendering of a connection error, a timeout or an echoed 401", async () => {
    const refused = new ModelGate({ apiKey: KEY, baseURL: "http://127.0.0.1:1", maxRetries: 0 });
    const connection = await refused.models.list().catch((error: unknown) => error);
    expect(connection).toBeInstanceOf(APIConnectionError);

    const silent = await serve(() => {});
    const timeout = await new ModelGate({ apiKey: KEY, baseURL: silent.url, maxRetries: 0, timeout: 50 }).models.list().catch((error: unknown) => error);
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);

    const echo = await serve((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${request.headers.authorization}` } }));
    });
    const rejected = await new ModelGate({ apiKey: KEY, baseURL: echo.url, maxRetries: 0 }).models.list().catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(AuthenticationError);

    for (const error of [connection, timeout, rejected]) {
      for (const text of everyRendering(error)) expect(text).not.toContain(KEY);
    }
  });

  it("nor does a credential the client's own headers carry, in an echoed 401 (defaultHeaders, and withOptions' over them)", async () => {
    const echo = await serve((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      const sent = [request.headers.authorization, request.headers["x-api-key"], request.headers["proxy-authorization"]];
      response.end(JSON.stringify({ error: { message: `invalid credential ${sent.join(" ")}` } }));
    });
    const viaDefaults = new ModelGate({ apiKey: "placeholder", baseURL: echo.url, maxRetries: 0, defaultHeaders: { authorization: "Bearer sk-header-QQQQRRRRSSSS", "proxy-authorization": "Basic cHJveHktc2VjcmV0LXh5eg==" } });
    await viaDefaults.models.list().catch(() => {});
    // A client withOptions() makes reads its own layers (the original's under the new ones) on its first request.
    const viaOptions = viaDefaults.withOptions({ defaultHeaders: { Authorization: "Bearer sk-call-TTTTUUUUVVVV", "X-Api-Key": "xk-WWWWXXXXYYYY" } });
    const errors = [await viaDefaults.models.list().catch((error: unknown) => error), await viaOptions.chat.completions.create({ model: "m", messages }).catch((error: unknown) => error)];
    for (const error of errors) {
      expect(error).toBeInstanceOf(AuthenticationError);
      for (const text of everyRendering(error)) for (const secret of ["QQQQRRRRSSSS", "cHJveHktc2VjcmV0LXh5eg", "TTTTUUUUVVVV", "WWWWXXXXYYYY"]) expect(text).not.toContain(secret);
    }
    expect((errors[1] as Error).message).toContain("invalid credential");
  });

  it("nor does a credential a later call's own headers carry, in an echoed 401 (a per-tenant x-api-key, new on each call)", async () => {
    const echo = await serve((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `invalid credential ${request.headers["x-api-key"] ?? "none"}` } }));
    });
    const client = new ModelGate({ apiKey: "placeholder", baseURL: echo.url, maxRetries: 0 });
    // The first request reads the client's own layers; the calls after it bring their own.
    expect(await client.models.list().catch((error: unknown) => error)).toBeInstanceOf(AuthenticationError);
    for (const tenant of ["xk-tenant-AAAABBBBCCCC", "xk-tenant-DDDDEEEEFFFF"]) {
      const error = await client.chat.completions.create({ model: "m", messages }, { headers: { "x-api-key": tenant } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toContain("invalid credential");
      for (const text of everyRendering(error)) expect(text).not.toContain(tenant.slice(-12));
    }
  });

  it("nor does it for any of a hundred tenants' calls running at once, each with its own x-api-key", async () => {
    const echo = await serve((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `invalid credential ${request.headers["x-api-key"] ?? "none"}` } }));
    });
    const client = new ModelGate({ apiKey: "placeholder", baseURL: echo.url, maxRetries: 0 });
    const tenants = Array.from({ length: 100 }, (_, index) => `xk-${createHash("sha256").update(`tenant ${index}`).digest("hex").slice(0, 32)}`);
    const errors = await Promise.all(tenants.map((tenant) => client.chat.completions.create({ model: "m", messages }, { headers: { "x-api-key": tenant } }).catch((error: unknown) => error)));
    errors.forEach((error, index) => {
      expect((error as Error).message).toContain("invalid credential");
      for (const text of everyRendering(error)) expect(text).not.toContain(tenants[index]!.slice(-12));
    });
  });

  it("nor does a session cookie the client's defaultHeaders send, in an echoed 401 or in debug lines", async () => {
    const echo = await serve((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `no session for cookie ${request.headers.cookie}` } }));
    });
    const { lines, logger } = capturingLogger();
    const cookie = "proxy_session=cs-ZZZZYYYYXXXXWWWW";
    const client = new ModelGate({ apiKey: "placeholder", baseURL: echo.url, maxRetries: 0, defaultHeaders: { cookie }, logLevel: "debug", logger });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain("no session for cookie");
    for (const text of [...everyRendering(error), ...lines]) expect(text).not.toContain("ZZZZYYYYXXXX");
    expect(lines.join("\n")).toContain("cookie: '[redacted]'");
  });

  it("keeps the client's own key and its headers' credentials redacted however many keys a key function gives later", () => {
    const { redact, remember } = createRedactor(KEY);
    remember("header-credential-ABCDEFGH", true);
    const rotated = Array.from({ length: 1100 }, (_, index) => createHash("sha256").update(`rotated ${index}`).digest("hex"));
    for (const key of rotated) remember(key);
    expect(redact(`echo ${KEY} and header-credential-ABCDEFGH`)).toBe("echo [redacted] and [redacted]");
    // The last 1,024 stay secret: every call of hundreds of tenants running at once keeps its own.
    for (const index of [1099, 500, 1100 - 1024]) expect(redact(rotated[index]!)).toBe("[redacted]");
    // The oldest rotated keys give way: a server echoes only keys of calls still running.
    expect(redact(rotated[0]!)).toBe(rotated[0]);
    expect(redact(rotated[1100 - 1025]!)).toBe(rotated[1100 - 1025]);
  });

  it("in debug logs, which show the request with Authorization redacted", async () => {
    const server = await serve((_, response) => {
      response.writeHead(503, { "retry-after-ms": "1" });
      response.end();
    });
    const { lines, logger } = capturingLogger();
    const client = new ModelGate({ apiKey: KEY, baseURL: server.url, maxRetries: 1, logLevel: "debug", logger });
    await client.models.list().catch(() => {});
    expect(lines.join("\n"), "the debug log").toContain("Bearer [redacted]");
    expect(lines.join("\n"), "the debug log").toContain("retrying in");
    expect(lines.join("\n")).not.toContain(KEY);
  });

  it("is logged nowhere at the default level", async () => {
    const server = await serve((_, response) => response.end("{}"));
    const { lines, logger } = capturingLogger();
    await new ModelGate({ apiKey: KEY, baseURL: server.url, logger }).models.list();
    expect(lines).toEqual([]);
  });
});

describe("the key stays with its origin", () => {
  it("is not forwarded when the gateway redirects to another origin", async () => {
    const seen: (string | undefined)[] = [];
    const elsewhere = await serve((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [] }));
    });
    const redirecting = await serve((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(307, { location: `${elsewhere.url}/v1/models` });
      response.end();
    });
    const list = await new ModelGate({ apiKey: KEY, baseURL: redirecting.url }).models.list();
    expect(list.object).toBe("list");
    expect(seen).toEqual([`Bearer ${KEY}`, undefined]);
  });
});

describe("plain http", () => {
  it("warns once per origin when the key would cross the network unencrypted, never for loopback", async () => {
    const { lines, logger } = capturingLogger();
    new ModelGate({ apiKey: KEY, baseURL: "http://gateway.example.com", logger });
    new ModelGate({ apiKey: KEY, baseURL: "http://gateway.example.com/v1", logger });
    new ModelGate({ apiKey: KEY, baseURL: "http://127.0.0.1:8080", logger });
    new ModelGate({ apiKey: KEY, baseURL: "http://localhost:8080", logger });
    new ModelGate({ apiKey: KEY, baseURL: "https://gateway.example.com", logger });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn .*http:\/\/gateway\.example\.com.*unencrypted/);
    expect(lines[0]).not.toContain(KEY);
  });

  it("is silent when logLevel is off", async () => {
    const { lines, logger } = capturingLogger();
    new ModelGate({ apiKey: KEY, baseURL: "http://other.example.com", logger, logLevel: "off" });
    expect(lines).toEqual([]);
  });
});

// ---- Whole or in part: any 8 consecutive characters of any key the client used ----

/** Every 8-character run of `key`: finding any of them in a text shows part of the key. */
function partsOf(key: string): string[] {
  return Array.from({ length: key.length - 7 }, (_, start) => key.slice(start, start + 8));
}

/**
 * Every string an error (or any value) holds, however deep and however hidden: own property
 * names and values (non-enumerable ones included), a `Headers`' entries, a prototype that is
 * data rather than a class (what `copy["__proto__"] = …` makes), `cause` chains.
 */
function everyStringIn(root: unknown): string[] {
  const strings: string[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") return void strings.push(value);
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Headers) return value.forEach((headerValue, name) => strings.push(name, headerValue));
    for (const name of Reflect.ownKeys(value)) {
      strings.push(typeof name === "symbol" ? String(name.description) : name);
      const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
      visit("value" in descriptor ? descriptor.value : undefined);
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== null && !Object.hasOwn(prototype as object, "constructor")) visit(prototype);
  };
  visit(root);
  return strings;
}

/** What a user or a log sink can get out of an error: its renderings and everything it holds. */
function renderings(error: unknown): [string, string][] {
  const asError = error as Error;
  return [
    ["message", asError.message],
    ["String()", String(asError)],
    ["stack", asError.stack ?? ""],
    ["JSON.stringify", JSON.stringify(asError) ?? ""],
    ["util.inspect", inspect(asError, { depth: Infinity, showHidden: true })],
    ["what it holds", everyStringIn(asError).join("\n")],
  ];
}

/** Fails naming the rendering and the 8 characters of a key it shows. */
function expectNoPart(keys: string[], texts: [string, string][]): void {
  for (const key of keys) {
    for (const part of partsOf(key)) {
      for (const [what, text] of texts) {
        const at = text.indexOf(part);
        expect(at === -1 ? "" : `${what} shows "${part}" of the key: ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 40))}`).toBe("");
      }
    }
  }
}

const SECRET = "mg-live-7Qx2Vb9LpR4sT8wZ1cN6";
const USER = [{ role: "user" as const, content: "hi" }];

/** A client that answers every request with `respond()`, no retries. */
function clientAnswering(respond: (url: string, init: RequestInit) => Response | Promise<Response>, options: ClientOptions = {}) {
  return new ModelGate({ apiKey: SECRET, baseURL: "https://gateway.test", maxRetries: 0, fetch: async (url, init) => respond(String(url), init ?? {}), ...options });
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const answer = (content: string, fields: Record<string, unknown> = {}) => json({ ...completionBody(content), ...fields });

describe("no part of the key shows in what an error holds", () => {
  it.each([
    ["a record key the schema rejects", z.record(z.string(), z.number()), { [SECRET]: "not a number" }],
    ["an unrecognised key of a strict object", z.strictObject({ a: z.number() }), { a: 1, [SECRET]: 2 }],
  ])("when a parse() answer echoes the key as %s (issues[].path)", async (_, schema, reply) => {
    const client = clientAnswering(() => answer(JSON.stringify(reply)));
    const error = await client.chat.completions.parse({ model: "m", messages: USER, response_format: schema }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).issues.length).toBeGreaterThan(0);
    expectNoPart([SECRET], renderings(error));
  });

  it("when a schema's validate() throws with the value in its message (cause)", async () => {
    const schema = {
      "~standard": {
        version: 1,
        vendor: "hand-made",
        validate: (value: unknown) => {
          throw new Error(`bad: ${JSON.stringify(value)}`);
        },
        jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
      },
    };
    const client = clientAnswering(() => answer(JSON.stringify({ echo: SECRET })));
    const error = (await client.chat.completions.parse({ model: "m", messages: USER, response_format: schema as never }).catch((caught: unknown) => caught)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).message).toMatch(/^bad: \{"echo":"\[redacted\]"\}$/);
    expectNoPart([SECRET], renderings(error));
  });

  it.each([
    ["a DOMException", () => new DOMException(`rejected ${SECRET}`, "DataError"), "DataError"],
    [
      "an object with private fields",
      () =>
        new (class Rejection {
          #value = SECRET;
          name = "Rejection";
          message = `rejected ${SECRET}`;
          get value() {
            return this.#value;
          }
        })(),
      "Rejection",
    ],
  ])("turns %s a schema throws into an Error with its name and a redacted message", async (_, thrown, name) => {
    const schema = {
      "~standard": {
        version: 1,
        vendor: "hand-made",
        validate: () => {
          throw thrown();
        },
        jsonSchema: { input: () => ({ type: "object" }) },
      },
    };
    const client = clientAnswering(() => answer("{}"));
    const error = (await client.chat.completions.parse({ model: "m", messages: USER, response_format: schema as never }).catch((caught: unknown) => caught)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).name).toBe(name);
    expect((error.cause as Error).message).toBe("rejected [redacted]");
    expectNoPart([SECRET], renderings(error));
  });

  it("when a parse() answer that is not JSON is cut to an excerpt through the key", async () => {
    const client = clientAnswering(() => answer(`{"a": "${SECRET}" and then prose`));
    const error = await client.chat.completions.parse({ model: "m", messages: USER, response_format: z.object({ a: z.string() }) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as Error).message).toMatch(/not valid JSON/);
    expectNoPart([SECRET], renderings(error));
  });

  it.each([
    ["a message the server cut at 200 characters", () => json({ error: { message: `${"x".repeat(180)} key ${SECRET}`.slice(0, 200) } }, 401)],
    ["a 200-character body that is not JSON, cut to an excerpt", () => new Response(`${"q".repeat(190)} ${SECRET} ${"r".repeat(50)}`, { status: 401 })],
    ["a value inside the error body", () => json({ error: { message: "Unauthorized", metadata: { echoed: SECRET, tail: SECRET.slice(5) } } }, 401)],
    ["a value inside a 200 error document", () => json({ error: { message: "no", metadata: { raw: `…${SECRET.slice(-12)}` } } })],
    ["a validation list that quotes part of it", () => json({ message: "Request validation failed", errors: [{ path: ["headers", SECRET.slice(0, 10)], message: "bad" }] }, 422)],
    ["a www-authenticate header quoting part of it", () => json({}, 401, { "www-authenticate": `Bearer error="invalid_token", token="${SECRET.slice(2, 22)}"` })],
    ["an x-request-id quoting part of it", () => json({ error: { message: "no" } }, 400, { "x-request-id": `req-${SECRET.slice(4)}` })],
  ])("when the gateway echoes it as %s", async (_, respond) => {
    const error = await clientAnswering(respond).models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expectNoPart([SECRET], renderings(error));
  });

  it("keeps a __proto__ key of an echoed body as an own property, with the key cut out of it", async () => {
    const body = `{"error":{"code":400,"__proto__":{"message":"from the prototype","echo":"${SECRET}"},"message":"bad request"}}`;
    const error = (await clientAnswering(() => new Response(body, { status: 400 })).models.list().catch((caught: unknown) => caught)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    const inner = error.error as Record<string, unknown>;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.hasOwn(inner, "__proto__")).toBe(true);
    expect(inner["__proto__"]).toEqual({ message: "from the prototype", echo: "[redacted]" });
    expect(JSON.stringify(inner)).toContain('"__proto__"');
    expect(error.message).toBe("400 bad request");
    expectNoPart([SECRET], renderings(error));
  });

  it.each([
    ["model", { model: SECRET }],
    ["provider", { provider: `openai/${SECRET}` }],
    ["id", { id: `gen-${SECRET}` }],
  ])("when a stream's chunk echoes it as its %s (error.gateway)", async (_, fields) => {
    const client = clientAnswering(() => sseResponse([sseData(chunk({ content: "a" }, fields))], { breakOff: true }));
    const stream = await client.chat.completions.create({ model: "m", messages: USER, stream: true });
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoPart([SECRET], renderings(error));
  });

  it("when a chunk carrying an error follows a chunk that echoed it as the model", async () => {
    const client = clientAnswering(() => sseResponse([sseData(chunk({ content: "a" }, { model: SECRET })), sseData({ error: { message: "upstream failed", code: 502 } })]));
    const stream = await client.chat.completions.create({ model: "m", messages: USER, stream: true });
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expectNoPart([SECRET], renderings(error));
  });

  it("when a parse() reply echoes it as the model, provider and id, streamed and not (completion and its gateway)", async () => {
    const fields = { model: SECRET, provider: SECRET, id: SECRET };
    const plain = clientAnswering(() => answer('{"a":"not a number"}', fields));
    const schema = z.object({ a: z.number() });
    const whole = await plain.chat.completions.parse({ model: "m", messages: USER, response_format: schema }).catch((caught: unknown) => caught);
    expect(whole).toBeInstanceOf(StructuredOutputError);
    expectNoPart([SECRET], renderings(whole));

    const streamed = clientAnswering(() => sseResponse([sseData(chunk({ content: '{"a":"x"}' }, fields)), sseData(chunk({}, { finish: "stop", ...fields })), DONE]));
    const stream = await streamed.chat.completions.parse({ model: "m", messages: USER, response_format: schema, stream: true });
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expectNoPart([SECRET], renderings(error));
  });

  it("when an apiKey function's second key is echoed in part after the first is rejected", async () => {
    const keys = ["mg-rotate-FIRST-a8Kd03Lq", "mg-rotate-SECOND-Zu71Pw4e"];
    let asked = 0;
    const client = new ModelGate({
      apiKey: () => keys[Math.min(asked++, 1)]!,
      baseURL: "https://gateway.test",
      maxRetries: 0,
      fetch: async (_url, init) => {
        const sent = new Headers(init?.headers).get("authorization")!.slice("Bearer ".length);
        return json({ error: { message: `key ending …${sent.slice(-14)} was revoked` } }, 401, { "www-authenticate": `Bearer token="${sent.slice(0, 16)}"` });
      },
    });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(asked).toBe(2);
    expectNoPart(keys, renderings(error));
  });

  it("when a custom fetch throws with the request's URL, whose query carries it (node-fetch's FetchError does)", async () => {
    const client = clientAnswering(
      (url) => {
        throw Object.assign(new TypeError(`request to ${url} failed, reason: connect ECONNREFUSED`), { code: "ECONNREFUSED", url });
      },
      { defaultQuery: { key: SECRET } },
    );
    const error = (await client.models.list().catch((caught: unknown) => caught)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/^Connection error: request to https:\/\/gateway\.test\/v1\/models\?key=\[redacted\] failed/);
    expect((error.cause as { code?: string }).code, "the fields of what fetch threw are kept").toBe("ECONNREFUSED");
    expectNoPart([SECRET], renderings(error));
  });

  it.each<[string, (url: string, init: RequestInit) => unknown]>([
    ["the Request it was sending (undici-style)", (url, init) => Object.assign(new TypeError("fetch failed"), { request: new Request(url, init) })],
    ["the request's Headers", (_, init) => Object.assign(new TypeError("fetch failed"), { headers: new Headers(init.headers) })],
  ])("when a custom fetch (no middleware) throws an error holding %s", async (_, failure) => {
    const client = clientAnswering((url, init) => {
      throw failure(url, init);
    });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe("Connection error: fetch failed");
    expect(error.cause).toBeInstanceOf(TypeError);
    expectNoPart([SECRET], renderings(error));
  });

  it("when the model asked for is the key itself, in the gateway info of a refusal and of a stream", async () => {
    const refused = await clientAnswering(() => Response.json({ error: { message: "no such model", type: "not_found_error" } }, { status: 404 }))
      .chat.completions.create({ model: SECRET, messages: USER })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).gateway!.requestedModel).toBe("[redacted]");
    expectNoPart([SECRET], renderings(refused));
    const stream = await clientAnswering(() => sseResponse([sseData(chunk({ content: "Hi" })), DONE])).chat.completions.create({ model: SECRET, messages: USER, stream: true });
    expect(stream.gateway.requestedModel).toBe("[redacted]");
  });

  it("when an embeddings answer echoes it as an index", async () => {
    const client = clientAnswering(() => json({ object: "list", data: [{ object: "embedding", index: SECRET, embedding: [0.5] }], model: "e" }));
    const error = await client.embeddings.create({ model: "e", input: "a" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/indexes/);
    expectNoPart([SECRET], renderings(error));
  });

  it("in every rendering of a client whose key also rides in defaultQuery and defaultHeaders", () => {
    const client = new ModelGate({ apiKey: SECRET, baseURL: "https://gateway.test", defaultQuery: { key: SECRET }, defaultHeaders: { "x-goog-api-key": SECRET } });
    expectNoPart([SECRET], [
      ["String()", String(client)],
      ["JSON.stringify", JSON.stringify(client)],
      ["util.inspect", inspect(client, { depth: Infinity, showHidden: true })],
    ]);
  });
});

describe("client.apiKey", () => {
  it("reads the key back while it shows in no rendering of the client, its getters and hidden fields included", () => {
    const client = new ModelGate({ apiKey: SECRET, baseURL: "https://gateway.test" });
    expect(client.apiKey).toBe(SECRET);
    expectNoPart([SECRET], [
      ["String()", String(client)],
      ["JSON.stringify", JSON.stringify(client)],
      ["util.inspect", inspect(client, { depth: Infinity, showHidden: true, getters: true })],
      ["Object.entries", JSON.stringify(Object.entries(client).map(([name, value]) => [name, String(value)]))],
    ]);
  });

  it("shows in no rendering of an error the client threw", async () => {
    const client = new ModelGate({
      apiKey: SECRET,
      baseURL: "https://gateway.test",
      maxRetries: 0,
      fetch: async (_url, init) => Response.json({ error: { message: `bad key ${new Headers(init?.headers).get("authorization")}` } }, { status: 401 }),
    });
    expect(client.apiKey).toBe(SECRET);
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoPart([SECRET], renderings(error));
  });
});

describe("no part of the key shows in a debug line", () => {
  /** Runs one call with `logLevel: "debug"` and returns every line, details serialised as a log sink would. */
  async function debugLinesOf(options: ClientOptions, respond: (url: string, init: RequestInit) => Response = () => json({ object: "list", data: [] })) {
    const { lines, logger } = capturingLogger();
    const client = clientAnswering(respond, { logLevel: "debug", logger, maxRetries: 1, ...options });
    await client.models.list().catch(() => {});
    expect(lines.length, "debug lines were written").toBeGreaterThan(1);
    return lines.join("\n");
  }

  it("when defaultQuery carries it (?key=, ?api_key=), URL-encoded or not", async () => {
    const encoded = "mg/live+7Qx2=Vb9LpR~4sT8wZ1cN6";
    for (const [apiKey, query] of [
      [SECRET, { key: SECRET }],
      [SECRET, { api_key: SECRET }],
      [encoded, { key: encoded }],
    ] as const) {
      const log = await debugLinesOf({ apiKey, defaultQuery: query });
      expect(log).toContain("https://gateway.test/v1/models?");
      expectNoPart([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ key: apiKey }).toString().slice(4)], [["the debug log", log]]);
    }
  });

  it.each(["x-goog-api-key", "api-key", "x-api-key", "x-trace-context"])("when a default header %s carries it", async (name) => {
    const log = await debugLinesOf({ defaultHeaders: { [name]: SECRET } });
    expect(log).toContain(name);
    expectNoPart([SECRET], [["the debug log", log]]);
  });

  it("when a credential header carries another secret, it is masked by its name", async () => {
    const other = "AIzaOtherSecret-0123456789";
    const log = await debugLinesOf({ defaultHeaders: { "x-goog-api-key": other, "proxy-authorization": `Basic ${other}` } });
    expect(log).toContain("'x-goog-api-key': '[redacted]'");
    expectNoPart([other], [["the debug log", log]]);
  });

  it("when a retried response echoes part of it in the reason of a retry", async () => {
    let calls = 0;
    const log = await debugLinesOf({}, () => (calls++ === 0 ? json({ error: { message: `overloaded for ${SECRET.slice(3)}` } }, 503, { "retry-after-ms": "1", "x-request-id": SECRET.slice(1, 20) }) : json({ object: "list", data: [] })));
    expect(log).toContain("retrying in");
    expectNoPart([SECRET], [["the debug log", log]]);
  });
});

describe("the redactor", () => {
  const { redact, remember } = createRedactor(SECRET);

  it("cuts out the whole key, and any run of 8 of its characters, as one [redacted] per stretch", () => {
    expect(redact(`key ${SECRET} end`)).toBe("key [redacted] end");
    expect(redact(`start ${SECRET.slice(0, 8)} | tail ${SECRET.slice(-9)}`)).toBe("start [redacted] | tail [redacted]");
    expect(redact(`${SECRET}${SECRET.slice(3, 15)}`)).toBe("[redacted]");
    expect(redact(`seven ${SECRET.slice(0, 7)} and ${SECRET.slice(9, 16)}`)).toBe(`seven ${SECRET.slice(0, 7)} and ${SECRET.slice(9, 16)}`);
    expect(redact("")).toBe("");
  });

  it("cuts out the key as a JSON string and a query string write it", () => {
    const quoted = 'mg"key\\with/escapes+and=more';
    const redactor = createRedactor(quoted);
    expect(redactor.redact(JSON.stringify({ echo: quoted }))).toBe('{"echo":"[redacted]"}');
    expect(redactor.redact(`https://g.test/v1/models?${new URLSearchParams({ key: quoted })}`)).toBe("https://g.test/v1/models?key=[redacted]");
  });

  it("cuts out a short key (4 to 7 characters) only whole, and ignores shorter ones", () => {
    expect(createRedactor("abcdef").redact("abcdef abcde")).toBe("[redacted] abcde");
    expect(createRedactor("abc").redact("abc")).toBe("abc");
  });

  it("cuts a long secret whole though a short secret stands inside it", () => {
    const { redact, remember } = createRedactor("sk-proj-Q7w9ErTtestZx4Vb8N");
    remember("test");
    expect(redact("Incorrect API key provided: sk-proj-Q7w9ErTtestZx4Vb8N.")).toBe("Incorrect API key provided: [redacted].");
    expect(redact("short test alone")).toBe("short [redacted] alone");
  });

  it("cuts a secret with non-ASCII characters or spaces as JSON escapes and percent-encoding write it", () => {
    const cookie = "séssion=ñ9xé2kÿqzü4wé7 x";
    const { redact } = createRedactor(cookie);
    const pythonJSON = JSON.stringify(cookie).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
    expect(redact(`{"detail":"bad cookie ${pythonJSON.slice(1, -1)}"}`)).toBe('{"detail":"bad cookie [redacted]"}');
    expect(redact(`https://g.test/?c=${encodeURIComponent(cookie)}`)).toBe("https://g.test/?c=[redacted]");
  });

  it("keeps the parts of a key it still remembers when another key sharing them is forgotten", () => {
    // Keys a key function gave (the client's own key, given at the start, is never forgotten).
    const redactor = createRedactor();
    redactor.remember("shared-prefix-0001");
    redactor.remember("shared-prefix-0002");
    // 1,023 more: 1,025 in all, so the oldest ("…0001") is forgotten.
    for (let index = 0; index < 1023; index++) redactor.remember(createHash("sha256").update(`other ${index}`).digest("hex"));
    expect(redactor.redact("shared-prefix-0002")).toBe("[redacted]");
    // Only the run that "…0001" alone had is gone.
    expect(redactor.redact("shared-prefix-0001")).toBe("[redacted]1");
  });

  it("copies a body with __proto__ as an own key, and objects as their own enumerable fields only", () => {
    const body = JSON.parse(`{"__proto__": {"echo": "${SECRET}"}, "list": ["${SECRET}", 1, null]}`) as Record<string, unknown>;
    const copy = redactValue(body, redact) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ echo: "[redacted]" });
    expect(copy.list).toEqual(["[redacted]", 1, null]);
    const error = Object.assign(new Error(`inner ${SECRET}`), { code: SECRET });
    expect(redactValue(error, redact)).toEqual({ code: "[redacted]" });
  });

  it("stops copying 100 levels deep instead of overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}"${SECRET}"${"]".repeat(100_000)}`) as unknown;
    expect(JSON.stringify(redactValue(deep, redact))).toContain("[nested deeper than 100 levels]");
  });

  it("copies what a schema threw as its built-in class, with its cause chain, however it loops", () => {
    const inner = Object.assign(new Error(`inner ${SECRET}`), { code: SECRET });
    const thrown = new RangeError(`too big: ${SECRET}`, { cause: inner });
    inner.cause = thrown;
    const copy = redactThrown(thrown, redact) as RangeError;
    expect(copy).toBeInstanceOf(RangeError);
    expect(copy.message).toBe("too big: [redacted]");
    expect(copy.stack).toMatch(/^RangeError: too big: \[redacted\]\n/);
    expect((copy.cause as Error).message).toBe("inner [redacted]");
    expect((copy.cause as { code: string }).code).toBe("[redacted]");
    expectNoPart([SECRET], renderings(copy));
  });

  it("turns a thrown value whose getters throw into an Error that says so", () => {
    const hostile = Object.assign(Object.create(Error.prototype) as Error, {});
    Object.defineProperty(hostile, "boom", { enumerable: true, get: () => { throw new Error(SECRET); } });
    const copy = redactThrown(hostile, redact) as Error;
    expect(copy).toBeInstanceOf(Error);
    expect(copy.message).toBe("(a thrown value that could not be read)");
  });

  it("remembers keys given later", () => {
    remember("mg-later-key-Xy01Za92");
    expect(redact("later mg-later-key-Xy01Za92")).toBe("later [redacted]");
  });
});

describe("an error body nested 100,000 deep", () => {
  it("gives the status's error class, not a stack overflow", async () => {
    const body = `{"error":${"[".repeat(100_000)}"${SECRET}"${"]".repeat(100_000)}}`;
    const error = await clientAnswering(() => new Response(body, { status: 400 })).models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
  });
});

describe("keys echoed back by a server or a model", () => {
  it("redacts a key echoed in a header from the gateway info of a stream's error", async () => {
    const { client } = pricedGateway({ apiKey: KEY, chat: () => sseResponse([sseData(chunk({ content: "Hi" }))], { headers: { "x-request-id": `req ${KEY}` }, breakOff: true }) });
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    const error = (await stream.text().catch((caught: unknown) => caught)) as APIError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(stream.gateway.requestID).toBe("req [redacted]");
  });

  it.each([
    ["a completion", false],
    ["a stream", true],
  ])("redacts a key echoed in x-request-id from withResponse().requestID of %s, as from gateway.requestID", async (_, stream) => {
    const headers = { "x-request-id": `req ${KEY}` };
    const answer = () =>
      stream ? sseResponse([sseData(chunk({ content: "Hi" }, { finish: "stop" })), DONE], { headers }) : Response.json(completionBody("Hi"), { headers });
    const client = new ModelGate({ apiKey: KEY, baseURL: "https://g.test", maxRetries: 0, fetch: async () => answer() });
    const { data, requestID } = await client.chat.completions.create({ model: "m", messages, stream }).withResponse();
    expect(requestID).toBe("req [redacted]");
    expect(requestID).toBe(data.gateway?.requestID);
    // A layer over create() (parse()) gives the one it read.
    if (!stream) expect((await client.chat.completions.parse({ model: "m", messages }).withResponse()).requestID).toBe("req [redacted]");
  });

  it("redacts a key a server echoes in x-request-id from the debug lines", async () => {
    const key = "sk-echoed-key-0123456789";
    const lines: unknown[] = [];
    const logger = { error() {}, warn() {}, info() {}, debug: (...parts: unknown[]) => lines.push(parts) };
    const client = new ModelGate({
      apiKey: key,
      baseURL: "https://g.test",
      logLevel: "debug",
      logger,
      fetch: async () => new Response(JSON.stringify(completionBody("ok")), { headers: { "x-request-id": `req-${key}`, "content-type": "application/json" } }),
    });
    await client.chat.completions.create({ model: "m", messages });
    expect(lines.length).toBeGreaterThan(1);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it("never shows the API key in a StructuredOutputError, whatever the model echoed", async () => {
    for (const [content, schema] of [
      [JSON.stringify({ n: KEY }), type({ n: "'a' | 'b'" })],
      [`{"a": 1, "echo": "${KEY}" oops`, Answer],
    ] as const) {
      const { client } = recordingClient(() => Response.json(assistantReply({ content })), { apiKey: KEY });
      const error = (await client.chat.completions.parse({ model: "m", messages, response_format: schema }).catch((caught: unknown) => caught)) as StructuredOutputError;
      expect(error).toBeInstanceOf(StructuredOutputError);
      for (const shown of [error.message, String(error), error.stack ?? "", JSON.stringify(error), JSON.stringify(error.issues), error.content ?? "", JSON.stringify(error.completion)]) {
        expect(shown).not.toContain(KEY);
        expect(shown).not.toContain(KEY.slice(0, 16));
      }
      expect(JSON.stringify(error.completion)).toContain("[redacted]");
    }
  });
});

describe("what a custom fetch throws", () => {
  const key = "sk-live-ABCDEFGH12345678abcdefgh";

  it("keeps no part of the key from the fields of an HTTP client's error, even a cyclic one", async () => {
    // An axios-style error: its message says nothing, its request config carries the header.
    const thrown = Object.assign(new Error("Network Error"), { config: { headers: { authorization: `Bearer ${key}` } }, request: {} as Record<string, unknown> });
    thrown.request.error = thrown;
    const client = new ModelGate({ apiKey: key, baseURL: "https://g.test", maxRetries: 0, fetch: () => Promise.reject(thrown) });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    const shown = inspect(error, { depth: 10 }) + JSON.stringify((error as Error).cause);
    for (let start = 0; start + 8 <= key.length; start++) expect(shown).not.toContain(key.slice(start, start + 8));
    expect(JSON.stringify((error as Error).cause)).toContain("[redacted]");
  });

  it("when a streamed body errors with a message and fields that quote it (a custom fetch's body)", async () => {
    const thrown = Object.assign(new Error(`socket closed while sending Bearer ${key}`), { config: { headers: { authorization: `Bearer ${key}` } } });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sseData(chunk({ content: "a" }))));
        controller.error(thrown);
      },
    });
    const client = new ModelGate({ apiKey: key, baseURL: "https://g.test", maxRetries: 0, fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) });
    // Erroring in start() drops the queued chunk, so the first read fails: create() rejects.
    const error = await client.chat.completions.create({ model: "m", messages, stream: true }).then((stream) => stream.text()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    // The reason is named and kept, with the key cut out of both.
    expect((error as Error).message).toContain("socket closed while sending Bearer [redacted]");
    const shown = inspect(error, { depth: 10, showHidden: true }) + JSON.stringify((error as Error).cause);
    for (let start = 0; start + 8 <= key.length; start++) expect(shown).not.toContain(key.slice(start, start + 8));
    expect(JSON.stringify((error as Error).cause)).toContain("[redacted]");
  });

  it("keeps what fetch threw as it is when it shows no key", async () => {
    const thrown = new TypeError("fetch failed");
    const client = new ModelGate({ apiKey: key, baseURL: "https://g.test", maxRetries: 0, fetch: () => Promise.reject(thrown) });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect((error as Error).cause).toBe(thrown);
  });
});

describe("a thrown value that cannot be read without throwing", () => {
  const key = "sk-live-ABCDEFGH12345678abcdefgh";
  const unreadable: [string, () => unknown][] = [
    ["a message getter that throws", () => Object.defineProperty(new Error("x"), "message", { get: () => { throw new Error(`getter ${key}`); } })],
    ["a cause getter that throws", () => Object.defineProperty(new Error("x"), "cause", { get: () => { throw new Error(`cause ${key}`); } })],
    ["a Proxy whose getPrototypeOf trap throws", () => new Proxy(new Error("p"), { getPrototypeOf: () => { throw new Error(`trap ${key}`); } })],
  ];
  const expectSdkErrorWithoutKey = (error: unknown) => {
    expect(error).toBeInstanceOf(ModelGateError);
    const shown = everyRendering(error).join(" ") + inspect((error as Error).cause, { depth: 9, showHidden: true });
    for (let start = 0; start + 8 <= key.length; start++) expect(shown).not.toContain(key.slice(start, start + 8));
  };

  it.each(unreadable)("rejects a call whose custom fetch threw %s with a ModelGateError that shows no part of the key", async (_, make) => {
    const client = new ModelGate({ apiKey: key, baseURL: "https://g.test", maxRetries: 0, fetch: () => Promise.reject(make()) });
    expectSdkErrorWithoutKey(await client.chat.completions.create({ model: "m", messages }).catch((caught: unknown) => caught));
  });

  it.each(unreadable)("rejects a call whose middleware rethrew %s from next() with a ModelGateError that shows no part of the key", async (_, make) => {
    const client = new ModelGate({
      apiKey: key,
      baseURL: "https://g.test",
      maxRetries: 0,
      fetch: () => Promise.reject(make()),
      middleware: [async (request, next) => next(request)],
    });
    expectSdkErrorWithoutKey(await client.chat.completions.create({ model: "m", messages }).catch((caught: unknown) => caught));
  });

  it.each([false, true])("rejects a call whose middleware's Response body errors with such a value (stream: %s) with a ModelGateError without the key", async (stream) => {
    const body = () => new ReadableStream({ start: (controller) => controller.error(unreadable[0]![1]()) });
    const client = new ModelGate({
      apiKey: key,
      baseURL: "https://g.test",
      maxRetries: 0,
      fetch: async () => new Response("{}"),
      middleware: [async () => new Response(body(), { headers: { "content-type": stream ? "text/event-stream" : "application/json" } })],
    });
    expectSdkErrorWithoutKey(await client.chat.completions.create({ model: "m", messages, stream }).catch((caught: unknown) => caught));
  });
});

describe("a key written into baseURL's path", () => {
  it("is cut out of the client's JSON and inspection", () => {
    const key = "sk-live-ABCDEFGH12345678abcdefgh";
    const client = new ModelGate({ apiKey: key, baseURL: `https://gw.test/t/${key}` });
    for (const shown of [JSON.stringify(client), inspect(client), String(client)]) expect(shown).not.toContain(key.slice(8, 16));
  });
});

describe("a response header whose name shows part of the key", () => {
  it("is left out of the error's headers", async () => {
    const key = "sk-live-ABCDEFGH12345678abcdefgh";
    const client = new ModelGate({
      apiKey: key,
      baseURL: "https://g.test",
      maxRetries: 0,
      fetch: async () => new Response(JSON.stringify({ error: { message: "no" } }), { status: 401, headers: { "x-abcdefgh12345678abcdefgh": "1", "x-request-id": "r1" } }),
    });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as APIError;
    expect(error.headers?.get("x-request-id")).toBe("r1");
    expect(inspect(error, { depth: 5 })).not.toContain("12345678");
  });
});

describe("a large thrown value", () => {
  const key = "sk-live-ABCDEFGH12345678abcdefgh";
  const { redact } = createRedactor(key);
  /** An array whose every read (a field, an index, `length`) is counted. */
  const countingList = (length: number, item: (index: number) => unknown) => {
    const reads = { count: 0 };
    const list = new Proxy(
      Array.from({ length }, (_, index) => item(index)),
      {
        get: (target, name, receiver) => (reads.count++, Reflect.get(target, name, receiver)),
        getOwnPropertyDescriptor: (target, name) => (reads.count++, Reflect.getOwnPropertyDescriptor(target, name)),
      },
    );
    return { list, reads };
  };

  it.each([
    ["a Buffer", () => Buffer.alloc(1 << 20), "Buffer", 1 << 20],
    ["a Uint8Array", () => new Uint8Array(1 << 20), "Uint8Array", 1 << 20],
    ["a Float64Array", () => new Float64Array(1000), "Float64Array", 8000],
    ["a DataView", () => new DataView(new ArrayBuffer(64)), "DataView", 64],
    ["an ArrayBuffer", () => new ArrayBuffer(1 << 20), "ArrayBuffer", 1 << 20],
  ])("describes %s by its class and byteLength, inside a value and thrown itself, without copying its elements", (_, make, name, bytes) => {
    const inside = redactThrown(Object.assign(new Error("upload failed"), { body: make() }), redact) as { body: unknown };
    expect(inside.body).toBe(`[${name} of ${bytes} bytes]`);
    const thrown = redactThrown(make(), redact) as Error;
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown.name).toBe(name);
    expect(thrown.message).toBe(`${bytes} bytes (not copied)`);
    expect(Object.keys(thrown)).toEqual([]);
  });

  it("rejects a call whose middleware threw a 1 MB Buffer with a ModelGateError whose cause describes it", async () => {
    const client = new ModelGate({ apiKey: key, baseURL: "https://g.test", maxRetries: 0, fetch: async () => new Response("{}"), middleware: [() => Promise.reject(Buffer.alloc(1 << 20))] });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).cause).toMatchObject({ name: "Buffer", message: `${1 << 20} bytes (not copied)` });
  });

  it("visits at most 10,000 values of an axios-style error's 500,000-item response.data, and notes how many it left", () => {
    const { list, reads } = countingList(500_000, (index) => index);
    const thrown = Object.assign(new Error("Request failed with status code 500"), { response: { status: 500, data: list } });
    const copy = redactThrown(thrown, redact) as { response: { status: number; data: unknown[] } };
    expect(reads.count).toBeLessThanOrEqual(2 * 10_000 + 1);
    expect(copy.response.status).toBe(500);
    expect(copy.response.data.slice(0, 3)).toEqual([0, 1, 2]);
    const note = copy.response.data.at(-1);
    expect(note).toMatch(/^\[not copied\] \d+ more item\(s\) not copied: a copy of a thrown value visits at most 10000 values$/);
    expect(Number(/\] (\d+) more/.exec(String(note))![1]) + copy.response.data.length - 1).toBe(500_000);
  });

  it("shares the 10,000 values across nested fields: an object left short says how many fields it did not copy", () => {
    const { list, reads } = countingList(20_000, (index) => ({ index }));
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`field${index}`, index]));
    const copy = redactThrown(new Error("x", { cause: { items: list, ...fields } }), redact) as { cause: Record<string, unknown> };
    expect(reads.count).toBeLessThanOrEqual(2 * 10_000 + 1);
    expect(copy.cause["[not copied]"]).toBe("50 more field(s) not copied: a copy of a thrown value visits at most 10000 values");
    expect(copy.cause).not.toHaveProperty("field0");
  });

  it("still cuts the key out of what it copies before the limit, and out of a class name", () => {
    class Leaky extends Uint8Array {}
    Object.defineProperty(Leaky, "name", { value: `Leaky${key}` });
    const copy = redactThrown({ echo: `Bearer ${key}`, bytes: new Leaky(4), list: Array.from({ length: 20_000 }, () => key) }, redact) as Error;
    const shown = inspect(copy, { depth: 9, showHidden: true }) + JSON.stringify(copy);
    for (let start = 0; start + 8 <= key.length; start++) expect(shown).not.toContain(key.slice(start, start + 8));
    expect(shown).toContain("[Leaky[redacted] of 4 bytes]");
  });
});
