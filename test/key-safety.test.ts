import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, AuthenticationError, ModelGate, type Logger } from "../src/index.ts";
import { loopbackServer, type LoopbackServer } from "./fixtures/loopback.ts";

const KEY = "mg-live-SECRET-4f9a2c81d7";
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
