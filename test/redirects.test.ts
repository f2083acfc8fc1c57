import type { IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ModelGate, ModelGateError } from "../src/index.ts";
import { loopbackServer, type LoopbackServer } from "./fixtures/loopback.ts";

const KEY = "mg-live-SECRET-4f9a2c81d7";
const CREDENTIALS = { "X-Api-Key": `X-${KEY}`, "Api-Key": `A-${KEY}`, "X-Goog-Api-Key": `G-${KEY}`, Cookie: `session=${KEY}`, "Proxy-Authorization": `Basic ${KEY}` };
const messages = [{ role: "user" as const, content: "secret prompt" }];
const completion = { id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] };

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that records each request and answers it with `answer`'s status and headers (a JSON body for a 200). */
async function serve(answer: (seen: Seen, count: number) => { status: number; headers?: Record<string, string> }) {
  const seen: Seen[] = [];
  const server = await loopbackServer(async (request, response) => {
    let body = "";
    for await (const part of request) body += part;
    const entry = { method: request.method, url: request.url, headers: request.headers, body };
    seen.push(entry);
    const { status, headers = {} } = answer(entry, seen.length);
    response.writeHead(status, status === 200 ? { "content-type": "application/json", ...headers } : headers);
    response.end(status === 200 ? JSON.stringify(request.url?.includes("models") ? { object: "list", data: [] } : completion) : "");
  });
  servers.push(server);
  return { ...server, seen };
}

const credentialsOf = (headers: IncomingHttpHeaders) => Object.keys(headers).filter((name) => /api-key|cookie|auth/i.test(name));

describe("redirects", () => {
  it.each([301, 302, 303, 307, 308])("sends no credential header of defaultHeaders to another origin after a %i", async (status) => {
    const elsewhere = await serve(() => ({ status: 200 }));
    // localhost is another origin than 127.0.0.1 on the same machine.
    const gateway = await serve(() => ({ status, headers: { location: `${elsewhere.url.replace("127.0.0.1", "localhost")}/steal` } }));
    const client = new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0, defaultHeaders: CREDENTIALS });
    const outcome = await client.chat.completions.create({ model: "m", messages }).catch((error: unknown) => error);
    for (const request of elsewhere.seen) {
      expect(credentialsOf(request.headers), "credential headers the other origin got").toEqual([]);
      expect(request.body, "the body the other origin got").toBe("");
    }
    if (status === 307 || status === 308) {
      // Following would replay the prompt there: refused, naming where it led.
      expect(elsewhere.seen).toHaveLength(0);
      expect(outcome).toBeInstanceOf(ModelGateError);
      expect((outcome as Error).message).toContain(`another origin (http://localhost:${new URL(elsewhere.url).port})`);
      expect(gateway.seen, "not retried").toHaveLength(1);
    }
    expect(String((outcome as Error).message ?? "")).not.toContain(KEY);
  });

  it("follows a GET to another origin without its credentials", async () => {
    const elsewhere = await serve(() => ({ status: 200 }));
    const gateway = await serve(() => ({ status: 302, headers: { location: `${elsewhere.url.replace("127.0.0.1", "localhost")}/v1/models` } }));
    const list = await new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0, defaultHeaders: CREDENTIALS }).models.list();
    expect(list.object).toBe("list");
    expect(credentialsOf(gateway.seen[0]!.headers).sort()).toEqual(["api-key", "authorization", "cookie", "proxy-authorization", "x-api-key", "x-goog-api-key"]);
    expect(credentialsOf(elsewhere.seen[0]!.headers)).toEqual([]);
  });

  it("sends no credential a middleware set to another origin, and the middleware sees the call once", async () => {
    const elsewhere = await serve(() => ({ status: 200 }));
    const gateway = await serve(() => ({ status: 302, headers: { location: `${elsewhere.url.replace("127.0.0.1", "localhost")}/v1/models` } }));
    const seenByMiddleware: string[] = [];
    const client = new ModelGate({
      apiKey: "mg-client-key-0000",
      baseURL: gateway.url,
      maxRetries: 0,
      middleware: [
        (request, next) => {
          seenByMiddleware.push(request.url);
          const withTenant = new Request(request, { headers: new Headers(request.headers) });
          withTenant.headers.set("authorization", `Bearer ${KEY}`);
          withTenant.headers.set("x-api-key", KEY);
          return next(withTenant);
        },
      ],
    });
    expect((await client.models.list()).object).toBe("list");
    expect(gateway.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(credentialsOf(elsewhere.seen[0]!.headers), "credential headers the other origin got").toEqual([]);
    expect(seenByMiddleware).toEqual([`${gateway.url}/v1/models`]);
  });

  it("follows a 307 within the origin with a middleware's request, its method and body", async () => {
    const gateway = await serve((seen) => (seen.url === "/v1/chat/completions" ? { status: 307, headers: { location: "/moved/chat/completions" } } : { status: 200 }));
    const client = new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0, middleware: [(request, next) => next(request)] });
    const reply = await client.chat.completions.create({ model: "m", messages });
    expect(reply.choices[0]?.message.content).toBe("hi");
    const [, moved] = gateway.seen;
    expect(moved?.url).toBe("/moved/chat/completions");
    expect(moved?.method).toBe("POST");
    expect(moved?.body).toContain("secret prompt");
  });

  it("refuses a redirect to a scheme other than http(s)", async () => {
    const gateway = await serve(() => ({ status: 302, headers: { location: 'data:application/json,{"object":"list","data":[{"id":"forged"}]}' } }));
    const outcome = await new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0 }).models.list().catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(ModelGateError);
    expect((outcome as Error).message).toContain("data: URL, which is not followed");
  });

  it("follows a 307 within the origin with the method, body and credentials", async () => {
    const gateway = await serve((seen) => (seen.url === "/v1/chat/completions" ? { status: 307, headers: { location: "/moved/chat/completions" } } : { status: 200 }));
    const reply = await new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0, defaultHeaders: CREDENTIALS }).chat.completions.create({ model: "m", messages });
    expect(reply.choices[0]?.message.content).toBe("hi");
    const [, moved] = gateway.seen;
    expect(moved?.url).toBe("/moved/chat/completions");
    expect(moved?.method).toBe("POST");
    expect(moved?.body).toContain("secret prompt");
    expect(moved?.headers["x-api-key"]).toBe(`X-${KEY}`);
    expect(moved?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("gives up on a redirect loop after 20 redirects, not retried", async () => {
    const gateway = await serve(() => ({ status: 302, headers: { location: "/v1/models" } }));
    // The key in the query (`defaultQuery`) is cut out of the URLs the message names.
    const error = await new ModelGate({ apiKey: KEY, baseURL: gateway.url, maxRetries: 2, defaultQuery: { key: KEY } }).models.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/redirected 21 times/);
    expect((error as Error).message).not.toContain(KEY);
    expect(gateway.seen).toHaveLength(21);
  });

  it("refuses a browser's opaque redirect, whose target cannot be checked", async () => {
    const opaque = Object.defineProperty(new Response(null, { status: 200 }), "type", { value: "opaqueredirect" });
    let init: RequestInit | undefined;
    const client = new ModelGate({
      apiKey: KEY,
      baseURL: "https://gateway.example",
      maxRetries: 0,
      fetch: async (_url, given) => ((init = given), opaque),
    });
    const error = await client.models.list().catch((thrown: unknown) => thrown);
    expect(init?.redirect, "what fetch was asked").toBe("manual");
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/redirect, whose target a browser hides/);
  });
});
