import { http, HttpResponse, type JsonBodyType } from "msw";
import { describe, expect, it } from "vitest";
import { ModelGate, ModelGateError, VERSION } from "../src/index.ts";
import { completionBody } from "./fixtures/chunks.ts";
import { API_KEY, BASE, USER_HELLO, testClient, useMockServer } from "./fixtures/server.ts";

const server = useMockServer();

/** Answers every request with `body` and records what arrived. */
function record(body: JsonBodyType = completionBody("hi")) {
  const seen: Request[] = [];
  server.use(
    http.all(`${BASE}/*`, ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json(body);
    }),
  );
  return seen;
}

describe("request URL", () => {
  it.each(["https://gateway.test", "https://gateway.test/", "https://gateway.test/v1", "https://gateway.test/v1/"])(
    "posts to /v1/chat/completions exactly once prefixed for baseURL %s",
    async (baseURL) => {
      const seen = record();
      await testClient({ baseURL }).chat.completions.create({ model: "auto", messages: USER_HELLO });
      expect(seen[0]?.url).toBe("https://gateway.test/v1/chat/completions");
    },
  );

  it("merges defaultQuery and per-request query, leaving out null and undefined", async () => {
    const seen = record({ object: "list", data: [] });
    await testClient({ defaultQuery: { a: "1", gone: null } }).models.list({ query: { b: 2, skip: undefined } });
    expect(seen[0]?.url).toBe("https://gateway.test/v1/models?a=1&b=2");
  });

  it("path-encodes model ids that contain a slash", async () => {
    const seen = record({ id: "openai/gpt-4.1-mini", object: "model", created: 0, owned_by: "openai" });
    const model = await testClient().models.retrieve("openai/gpt-4.1-mini");
    expect(seen[0]?.url).toBe("https://gateway.test/v1/models/openai%2Fgpt-4.1-mini");
    expect(model.id).toBe("openai/gpt-4.1-mini");
  });

  it.each([".", ".."])("refuses the model id %j, a dot segment that would change the path, sending nothing", async (id) => {
    const seen = record({ id, object: "model", created: 0, owned_by: "x" });
    const error = await testClient().models.retrieve(id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toBe(`\`id\` must be a model id such as "openai/gpt-4.1-mini", not a dot segment ("." or ".."), which would change the request's path; got "${id}".`);
    expect(seen).toHaveLength(0);
  });

  it("path-encodes the rest of an id so it stays one segment: slashes, escapes, a query, a fragment", async () => {
    const seen = record({ id: "x", object: "model", created: 0, owned_by: "x" });
    for (const id of ["../admin", "%2e%2e", "a?b=1", "a#f", "./x"]) await testClient().models.retrieve(id);
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual(["/v1/models/..%2Fadmin", "/v1/models/%252e%252e", "/v1/models/a%3Fb%3D1", "/v1/models/a%23f", "/v1/models/.%2Fx"]);
  });

  it("takes client.get/post paths as given under the service root, with or without /v1 in baseURL", async () => {
    const seen = record({ data: [] });
    await testClient({ baseURL: `${BASE}/v1` }).post("/v1/images/generations", { body: { prompt: "a cat" } });
    await testClient().get("/v1/integrations");
    expect(seen.map((r) => r.url)).toEqual([`${BASE}/v1/images/generations`, `${BASE}/v1/integrations`]);
    expect(await seen[0]?.json()).toEqual({ prompt: "a cat" });
  });
});

describe("request headers", () => {
  it("sends the key as a Bearer token, JSON content type and the SDK identification in one header", async () => {
    const seen = record();
    await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO });
    const headers = seen[0]!.headers;
    expect(headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("accept")).toBe("application/json");
    // SDK and runtime in User-Agent; no x-modelgate-* header says it again (each header costs every request).
    expect(headers.get("user-agent")).toBe(`modelgate-js/${VERSION} (node ${process.versions.node})`);
    expect([...headers.keys()].filter((name) => name.startsWith("x-modelgate-"))).toEqual([]);
    expect([...headers.keys()].sort()).toEqual(["accept", "authorization", "content-type", "idempotency-key", "user-agent"]);
  });

  it("asks for an event stream when streaming", async () => {
    const seen: Request[] = [];
    server.use(
      http.post(`${BASE}/v1/chat/completions`, ({ request }) => {
        seen.push(request);
        return new HttpResponse("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
      }),
    );
    const stream = await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    for await (const _ of stream) void _;
    expect(seen[0]?.headers.get("accept")).toBe("text/event-stream");
  });

  it("merges defaultHeaders then per-request headers, and null removes a header", async () => {
    const seen = record();
    const client = testClient({ defaultHeaders: { "x-team": "a", "x-drop": "1", "user-agent": null } });
    await client.chat.completions.create(
      { model: "auto", messages: USER_HELLO },
      { headers: { "x-team": "b", "x-drop": null, "x-call": "c" } },
    );
    const headers = seen[0]!.headers;
    expect(headers.get("x-team")).toBe("b");
    expect(headers.get("x-call")).toBe("c");
    expect(headers.has("x-drop")).toBe(false);
    expect(headers.has("user-agent")).toBe(false);
  });

  it("sends an Idempotency-Key on POST but not on GET, and uses the caller's when given", async () => {
    const seen = record();
    const client = testClient();
    await client.chat.completions.create({ model: "auto", messages: USER_HELLO });
    await client.chat.completions.create({ model: "auto", messages: USER_HELLO }, { idempotencyKey: "mine-1" });
    await client.get("/v1/models");
    expect(seen[0]?.headers.get("idempotency-key")).toMatch(/^modelgate-[0-9a-f-]{36}$/);
    expect(seen[1]?.headers.get("idempotency-key")).toBe("mine-1");
    expect(seen[2]?.headers.has("idempotency-key")).toBe(false);
  });

  it("rejects a header value with a line break before sending anything", async () => {
    const seen = record();
    const call = testClient().get("/v1/models", { headers: { "x-bad": "a\r\nx-injected: 1" } });
    await expect(call).rejects.toThrow(/line break/);
    expect(seen).toHaveLength(0);
  });
});

describe("request body", () => {
  it("sends route, models and unknown extra fields untouched", async () => {
    const seen = record();
    const params = {
      model: "auto",
      messages: USER_HELLO,
      route: { max_price: { prompt: 1, completion: 2 }, min_quality: 0.7, capabilities: ["tools"], sort: "price" as const },
      models: ["a/b", "c/d"],
      provider_preferences: { order: ["x"] },
    };
    await testClient().chat.completions.create(params);
    expect(await seen[0]!.json()).toEqual(params);
  });
});

describe("custom fetch", () => {
  it("merges the client's and the call's fetchOptions into every fetch, keeping method, headers, body and signal its own", async () => {
    const inits: RequestInit[] = [];
    const client = new ModelGate({
      apiKey: API_KEY,
      baseURL: "https://custom.test",
      fetchOptions: { credentials: "omit", cache: "no-store", method: "DELETE" },
      fetch: async (_input, init) => {
        inits.push(init!);
        return Response.json(completionBody("ok"));
      },
    });
    await client.chat.completions.create({ model: "auto", messages: USER_HELLO }, { fetchOptions: { cache: "reload", body: "nope" } });
    expect(inits[0]).toMatchObject({ credentials: "omit", cache: "reload", method: "POST" });
    expect(JSON.parse(String(inits[0]?.body))).toMatchObject({ model: "auto" });
    expect(inits[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("sends every request through the fetch option", async () => {
    const calls: string[] = [];
    const client = new ModelGate({
      apiKey: API_KEY,
      baseURL: "https://custom.test",
      fetch: async (input) => {
        calls.push(String(input instanceof Request ? input.url : input));
        return Response.json(completionBody("from custom fetch"));
      },
    });
    const completion = await client.chat.completions.create({ model: "auto", messages: USER_HELLO });
    expect(completion.choices[0]?.message.content).toBe("from custom fetch");
    expect(calls).toEqual(["https://custom.test/v1/chat/completions"]);
  });

  it("takes a plain Response from a fetch written without async, as if it were a promise of one", async () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: "https://custom.test", maxRetries: 0, fetch: (() => Response.json(completionBody("not awaited"))) as never });
    const completion = await client.chat.completions.create({ model: "auto", messages: USER_HELLO });
    expect(completion.choices[0]?.message.content).toBe("not awaited");
  });

  it("rejects, never throws, when a getter of plain JavaScript's params or options throws", async () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: "https://custom.test", maxRetries: 0, fetch: async () => Response.json(completionBody("x")) });
    const create = client.chat.completions.create.bind(client.chat.completions) as (...args: unknown[]) => Promise<unknown>;
    const boom = () => {
      throw new Error("getter boom");
    };
    const throwing = new Proxy({}, { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom });
    for (const args of [[throwing], [{ model: "auto", messages: USER_HELLO }, throwing], [{ model: "auto", messages: USER_HELLO, get tools() { return boom(); } }]]) {
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = create(...args))).not.toThrow();
      await expect(promise).rejects.toThrow("getter boom");
    }
    // runTools() too, awaited as a thenable, with and without a budget.
    for (const options of [undefined, { maxCost: 5 }]) await expect(client.chat.completions.runTools(throwing as never, options)).rejects.toThrow("getter boom");
  });
});
