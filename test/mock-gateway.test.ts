import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ModelList } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { MOCK_URL, mockGateway } from "./fixtures/mock.ts";

// The mock gateway's HTTP surface: key check, models, request validation, other paths, CORS
// and the request log. Routing, replies, streaming and faults have their own files.

const hello = [{ role: "user" as const, content: "Hello there" }];

describe("mock gateway: key check", () => {
  it("answers 401 invalid_api_key in the OpenAI error shape, with distinct messages for a missing and a wrong key", async () => {
    const { call } = mockGateway();
    const missing = await call("/v1/models", { key: null });
    const wrong = await call("/v1/models", { key: "nope" });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    const missingBody = await missing.json();
    const wrongBody = await wrong.json();
    expect(missingBody).toEqual({ error: { message: expect.any(String), type: "authentication_error", code: "invalid_api_key", param: null } });
    expect(wrongBody.error).toMatchObject({ type: "authentication_error", code: "invalid_api_key", param: null });
    expect(missingBody.error.message).toMatch(/Missing API key/);
    expect(missingBody.error.message).not.toBe(wrongBody.error.message);
    expect(wrongBody.error.message).not.toContain("nope");
  });

  it("accepts the configured key, and the default MOCK_API_KEY otherwise", async () => {
    expect((await mockGateway({ apiKey: "custom" }).call("/v1/models", { key: "custom" })).status).toBe(200);
    expect((await mockGateway({ apiKey: "custom" }).call("/v1/models")).status).toBe(401);
    expect(MOCK_API_KEY).toBe("mg-mock-key");
  });
});

describe("mock gateway: models", () => {
  it("lists a catalogue of at least 8 models from at least 4 providers, with routing metadata", async () => {
    const { gateway, call } = mockGateway();
    const list = (await (await call("/v1/models")).json()) as ModelList;
    expect(list.object).toBe("list");
    expect(list.data.map((model) => model.id)).toEqual(gateway.catalogue.map((model) => model.id));
    expect(list.data.length).toBeGreaterThanOrEqual(8);
    expect(new Set(list.data.map((model) => model.provider)).size).toBeGreaterThanOrEqual(4);
    for (const model of list.data) {
      expect(model).toMatchObject({ object: "model", owned_by: model.provider, context_length: expect.any(Number) });
      expect(model.pricing).toEqual({ prompt: expect.any(Number), completion: expect.any(Number) });
      expect(model.quality).toBeGreaterThanOrEqual(0);
      expect(model.quality).toBeLessThanOrEqual(1);
      expect(model.capabilities?.length).toBeGreaterThan(0);
    }
  });

  it("retrieves a model by its id, URL-encoded or with a bare slash, and 404s an unknown one", async () => {
    const { call } = mockGateway();
    expect((await (await call(`/v1/models/${encodeURIComponent("openai/gpt-4.1-mini")}`)).json()).id).toBe("openai/gpt-4.1-mini");
    expect((await (await call("/v1/models/anthropic/claude-haiku-4.5")).json()).id).toBe("anthropic/claude-haiku-4.5");
    const missing = await call("/v1/models/nobody%2Fnothing");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatchObject({ type: "not_found_error", code: "model_not_found", message: expect.stringContaining("nobody/nothing") });
  });

  it("answers 400, not a crash, for an id that is not validly URL-encoded", async () => {
    const response = await mockGateway().call("/v1/models/bad%zzid");
    expect(response.status).toBe(400);
  });

  it("serves a catalogue given in the options", async () => {
    const [first] = createMockGateway().catalogue;
    const { call } = mockGateway({ models: [{ ...first!, id: "acme/only" }] });
    const list = (await (await call("/v1/models")).json()) as ModelList;
    expect(list.data.map((model) => model.id)).toEqual(["acme/only"]);
  });
});

describe("mock gateway: request validation", () => {
  const tool = { type: "function", function: { name: "f" } };
  it.each([
    ["a body that is not an object", [1, 2], null],
    ["model missing", { messages: hello }, "model"],
    ["model not a string", { model: 7, messages: hello }, "model"],
    ["messages not an array", { model: "auto", messages: "hi" }, "messages"],
    ["messages empty", { model: "auto", messages: [] }, "messages"],
    ["a message without a valid role", { model: "auto", messages: [hello[0], { role: "robot", content: "x" }] }, "messages[1].role"],
    ["content of a bad type", { model: "auto", messages: [hello[0], { role: "user", content: 5 }] }, "messages[1].content"],
    ["a part of an unknown type", { model: "auto", messages: [{ role: "user", content: [{ type: "video" }] }] }, "messages[0].content[0].type"],
    ["a text part without text", { model: "auto", messages: [{ role: "user", content: [{ type: "text" }] }] }, "messages[0].content[0].text"],
    ["an image part without a url", { model: "auto", messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] }, "messages[0].content[0].image_url.url"],
    ["a tool message without tool_call_id", { model: "auto", messages: [hello[0], { role: "tool", content: "{}" }] }, "messages[1].tool_call_id"],
    ["temperature above 2", { model: "auto", messages: hello, temperature: 3 }, "temperature"],
    ["temperature not a number", { model: "auto", messages: hello, temperature: "hot" }, "temperature"],
    ["n of 0", { model: "auto", messages: hello, n: 0 }, "n"],
    ["n above 8", { model: "auto", messages: hello, n: 9 }, "n"],
    ["n not whole", { model: "auto", messages: hello, n: 1.5 }, "n"],
    ["stream not a boolean", { model: "auto", messages: hello, stream: "yes" }, "stream"],
    ["tools not an array", { model: "auto", messages: hello, tools: {} }, "tools"],
    ["a tool without a function name", { model: "auto", messages: hello, tools: [{ type: "function", function: {} }] }, "tools[0].function.name"],
    ["tool_choice naming an absent tool", { model: "auto", messages: hello, tools: [tool], tool_choice: { type: "function", function: { name: "g" } } }, "tool_choice.function.name"],
    ["an unknown response_format", { model: "auto", messages: hello, response_format: { type: "xml" } }, "response_format.type"],
    ["route.sort unknown", { model: "auto", messages: hello, route: { sort: "vibes" } }, "route.sort"],
    ["route.min_quality above 1", { model: "auto", messages: hello, route: { min_quality: 2 } }, "route.min_quality"],
    ["route.capabilities not a list", { model: "auto", messages: hello, route: { capabilities: "vision" } }, "route.capabilities"],
    ["models with a non-string", { model: "x", messages: hello, models: [1] }, "models"],
  ])("answers 400 for %s, naming the field in `param` and the message", async (_, body, param) => {
    const response = await mockGateway().call("/v1/chat/completions", { body });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ type: "invalid_request_error", param });
    if (param) expect(error.message).toContain(`\`${param}\``);
  });

  it("answers 400 for a body that is not JSON, or none at all", async () => {
    const { call } = mockGateway();
    const notJSON = await call("/v1/chat/completions", { body: "{nope" });
    expect(notJSON.status).toBe(400);
    expect((await notJSON.json()).error.message).toMatch(/not valid JSON/);
    expect((await call("/v1/chat/completions", { method: "POST" })).status).toBe(400);
  });

  it("ignores unknown extra fields and null optional fields", async () => {
    const { chat } = mockGateway();
    const response = await chat({ model: "auto", vendor_extension: { anything: true }, temperature: null, tools: null, route: null });
    expect(response.status).toBe(200);
  });

  it("never fails or crashes on arbitrary JSON bodies: every answer is 200, 400 or 404 with a JSON error", async () => {
    const anyValue = fc.anything({ maxDepth: 3 });
    const part = fc.record(
      { type: fc.constantFrom("text", "image_url", "input_audio", "video"), text: fc.oneof(fc.string(), anyValue), image_url: anyValue, input_audio: anyValue },
      { requiredKeys: ["type"] },
    );
    const message = fc.record(
      {
        role: fc.constantFrom("system", "developer", "user", "assistant", "tool", "robot"),
        content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), anyValue),
        tool_call_id: fc.oneof(fc.string(), anyValue),
        tool_calls: anyValue,
      },
      { requiredKeys: ["role"] },
    );
    const functionTool = fc.record({ type: fc.constant("function"), function: fc.record({ name: fc.constantFrom("f", "g"), parameters: anyValue }, { requiredKeys: ["name"] }) });
    const body = fc.oneof(
      anyValue,
      fc.record(
        {
          model: fc.oneof(fc.constantFrom("auto", "openai/gpt-4.1-mini", "nobody/nothing"), anyValue),
          models: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), anyValue),
          messages: fc.oneof(fc.array(message, { minLength: 1, maxLength: 3 }), anyValue),
          tools: fc.oneof(fc.array(functionTool, { maxLength: 2 }), anyValue),
          tool_choice: fc.oneof(fc.constantFrom("auto", "none", "required"), fc.record({ type: fc.constant("function"), function: fc.record({ name: fc.constantFrom("f", "g") }) }), anyValue),
          route: fc.oneof(fc.record({ min_quality: anyValue, max_price: anyValue, capabilities: anyValue, sort: anyValue }, { requiredKeys: [] }), anyValue),
          response_format: fc.oneof(fc.record({ type: fc.constantFrom("text", "json_object", "json_schema") }), anyValue),
          stream: fc.oneof(fc.boolean(), anyValue),
          stream_options: anyValue,
          n: fc.oneof(fc.integer({ min: -1, max: 9 }), anyValue),
          max_tokens: fc.oneof(fc.integer({ min: 0, max: 5 }), anyValue),
        },
        { requiredKeys: [] },
      ),
    );
    const { call } = mockGateway();
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const response = await call("/v1/chat/completions", { body: JSON.stringify(value) ?? "null" });
        const text = await response.text();
        expect([200, 400, 404]).toContain(response.status);
        if (response.status !== 200) expect(JSON.parse(text).error.message).toEqual(expect.any(String));
        else if (response.headers.get("content-type") === "text/event-stream") expect(text).toContain("data: [DONE]");
        else expect(JSON.parse(text).choices.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("mock gateway: other paths", () => {
  it("answers 404 in the error shape on unknown paths, and 405 naming the method on known ones", async () => {
    const { call } = mockGateway();
    const unknown = await call("/v1/nothing");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe("not_found_error");
    const wrongMethod = await call("/v1/embeddings");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("answers the generic image generation endpoint with deterministic URLs", async () => {
    const { call } = mockGateway();
    const body = await (await call("/v1/images/generations", { body: { prompt: "a cat", n: 2 } })).json();
    expect(body).toEqual({
      created: expect.any(Number),
      data: [{ url: "https://mock.modelgate.invalid/images/1.png" }, { url: "https://mock.modelgate.invalid/images/2.png" }],
    });
    expect((await call("/v1/images/generations", { body: {} })).status).toBe(400);
  });
});

describe("mock gateway: headers, CORS and the request log", () => {
  it("gives every answer a content-type and a deterministic x-request-id", async () => {
    const { call, chat } = mockGateway();
    const answers = [await call("/v1/models"), await call("/v1/nothing"), await chat({ model: "auto" }), await call("/v1/models", { key: null })];
    expect(answers.map((answer) => answer.headers.get("x-request-id"))).toEqual(["req_mock_000001", "req_mock_000002", "req_mock_000003", "req_mock_000004"]);
    for (const answer of answers) expect(answer.headers.get("content-type")).toMatch(/json/);
  });

  it("answers a CORS preflight echoing the requested headers, and marks every answer readable cross-origin", async () => {
    const { gateway, call } = mockGateway();
    const requested = "authorization, content-type, idempotency-key, x-modelgate-sdk";
    const preflight = await gateway(
      new Request(`${MOCK_URL}/v1/chat/completions`, {
        method: "OPTIONS",
        headers: { origin: "http://page.test", "access-control-request-method": "POST", "access-control-request-headers": requested },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(requested);
    expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(gateway.requests).toHaveLength(0);
    const answer = await call("/v1/models", { key: null });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toBe("x-request-id, x-generation-id, retry-after, retry-after-ms, etag");
  });

  it("adds no CORS headers and answers no preflight when cors is false", async () => {
    const { gateway, call } = mockGateway({ cors: false });
    expect((await call("/v1/models")).headers.has("access-control-allow-origin")).toBe(false);
    const preflight = await gateway(new Request(`${MOCK_URL}/v1/models`, { method: "OPTIONS" }));
    expect(preflight.status).not.toBe(204);
  });

  it("logs requests with lower-case headers and parsed bodies, failed ones included, and forgets them on reset", async () => {
    const { gateway, call, chat } = mockGateway();
    await chat({ model: "auto", temperature: 0.5 });
    await call("/v1/models", { key: "wrong", headers: { "Idempotency-Key": "idem-1" } });
    expect(gateway.requests).toEqual([
      { method: "POST", url: `${MOCK_URL}/v1/chat/completions`, headers: expect.objectContaining({ authorization: "Bearer mg-mock-key" }), body: expect.objectContaining({ model: "auto", temperature: 0.5 }) },
      { method: "GET", url: `${MOCK_URL}/v1/models`, headers: expect.objectContaining({ "idempotency-key": "idem-1" }), body: undefined },
    ]);
    gateway.inject({ type: "status", status: 500 }, 5);
    gateway.reset();
    expect(gateway.requests).toHaveLength(0);
    const after = await chat({ model: "auto" });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-request-id")).toBe("req_mock_000001");
  });

  it("is called like fetch (a URL and init) as well as with a Request, and ignores a server's second argument", async () => {
    const gateway = createMockGateway();
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    expect((await gateway(`${MOCK_URL}/v1/models`, { headers })).status).toBe(200);
    expect((await gateway(new URL(`${MOCK_URL}/v1/models`), { headers })).status).toBe(200);
    const request = new Request(`${MOCK_URL}/v1/models`, { headers });
    // What Deno.serve and Bun.serve pass after the request: not a RequestInit.
    const serverInfo = { remoteAddr: { hostname: "127.0.0.1", port: 1 }, completed: Promise.resolve() };
    expect((await gateway(request, serverInfo as unknown as RequestInit)).status).toBe(200);
    expect((await gateway(request.clone(), { headers: {} })).status).toBe(401);
  });
});
