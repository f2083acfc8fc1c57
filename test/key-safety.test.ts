import { inspect } from "node:util";
import { type } from "arktype";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { APIConnectionError, APIConnectionTimeoutError, AuthenticationError, ModelGate, ModelGateError, StructuredOutputError, type APIError, type Logger } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { assistantReply, chunk, completionBody, sseData } from "./fixtures/chunks.ts";
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
  it("warns once per origin when the key would cross the network unencrypted, never for loopback", () => {
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

  it("is silent when logLevel is off", () => {
    const { lines, logger } = capturingLogger();
    new ModelGate({ apiKey: KEY, baseURL: "http://other.example.com", logger, logLevel: "off" });
    expect(lines).toEqual([]);
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
