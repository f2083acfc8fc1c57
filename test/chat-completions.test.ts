import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, ModelGate, ModelGateError, type ChatCompletionCreateParams } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { completionBody, contentEvent, DONE } from "./fixtures/chunks.ts";
import { BASE, USER_HELLO, testClient, useMockServer } from "./fixtures/server.ts";

const server = useMockServer();

describe("chat.completions.create", () => {
  it("resolves to the ChatCompletion, with the model the gateway chose for auto", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.json(completionBody("Hi there", "anthropic/claude-haiku-4.5"))));
    const completion = await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO });
    expect(completion.model).toBe("anthropic/claude-haiku-4.5");
    expect(completion.choices[0]?.message.content).toBe("Hi there");
    expect(completion.usage?.total_tokens).toBe(5);
  });

  it("resolves to a Stream whose chunks carry the chosen model, for stream: true", async () => {
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () =>
        sseResponse([contentEvent("Hi", null, "google/gemini-2.5-flash"), contentEvent(" there", "stop", "google/gemini-2.5-flash"), DONE]),
      ),
    );
    const stream = await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    const models = new Set<string>();
    let text = "";
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe("Hi there");
    expect([...models]).toEqual(["google/gemini-2.5-flash"]);
  });

  it("gives { data, response, requestID } from withResponse() and a readable Response from asResponse()", async () => {
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () =>
        HttpResponse.json(completionBody("Hi"), { headers: { "x-request-id": "req_42" } }),
      ),
    );
    const client = testClient();
    const { data, response, requestID } = await client.chat.completions
      .create({ model: "auto", messages: USER_HELLO })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("Hi");
    expect(requestID).toBe("req_42");
    expect(response.status).toBe(200);
    const raw = await client.chat.completions.create({ model: "auto", messages: USER_HELLO }).asResponse();
    expect(raw.headers.get("x-request-id")).toBe("req_42");
    expect((await raw.json()).choices[0].message.content).toBe("Hi");
  });
});

describe("withResponse() and asResponse() of one call", () => {
  it("give the same Response object, as openai's do, its body readable", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.json(completionBody("Hi"))));
    const call = testClient().chat.completions.create({ model: "auto", messages: USER_HELLO });
    const { response } = await call.withResponse();
    const raw = await call.asResponse();
    expect(raw).toBe(response);
    expect((await raw.json()).choices[0].message.content).toBe("Hi");
  });

  it("give the same Response object for a stream", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => new HttpResponse(`${contentEvent("a", "stop")}${DONE}`, { headers: { "content-type": "text/event-stream" } })));
    const call = testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    const { data, response } = await call.withResponse();
    expect(await call.asResponse()).toBe(response);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    // asResponse() chose the raw body, so the Stream's chunks are refused (one reader per body).
    await expect(data.text()).rejects.toThrow(/already being read by asResponse\(\)/);
    expect(await response.text()).toContain("[DONE]");
  });

  it("give the same Response object for a stream read as chunks, whose raw body is then refused", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => new HttpResponse(`${contentEvent("a", "stop")}${DONE}`, { headers: { "content-type": "text/event-stream" } })));
    const call = testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    const { data, response } = await call.withResponse();
    expect(await data.text()).toBe("a");
    await expect(response.text()).rejects.toThrow(/already being read by the stream/);
  });
});

describe("caller mistakes are caught before any request", () => {
  const cases: [string, unknown, RegExp][] = [
    ["a missing model", { messages: USER_HELLO }, /`model` must be a non-empty string.*got nothing/],
    ["a numeric model", { model: 4, messages: USER_HELLO }, /`model`.*number 4/],
    ["messages that are not an array", { model: "auto", messages: "hi" }, /`messages` must be an array.*"hi"/],
    ["a message without a role", { model: "auto", messages: [{ content: "hi" }] }, /`messages\[0\]\.role` must be one of/],
    ["a message with an unknown role", { model: "auto", messages: [USER_HELLO[0], { role: "bot", content: "x" }] }, /`messages\[1\]\.role`.*"bot"/],
    ["a null message", { model: "auto", messages: [null] }, /`messages\[0\]` must be an object/],
    ["a non-boolean stream", { model: "auto", messages: USER_HELLO, stream: "yes" }, /`stream` must be a boolean/],
  ];

  it.each(cases)("rejects %s with a ModelGateError naming the field, without throwing from the call, and sends nothing", async (_, params, message) => {
    let requests = 0;
    server.use(
      http.all(`${BASE}/*`, () => {
        requests++;
        return HttpResponse.json(completionBody("sent anyway"));
      }),
    );
    // Called on its client, as users call it: were the check gone, this would send a request.
    const completions = testClient().chat.completions;
    let call: Promise<unknown> | undefined;
    expect(() => {
      call = completions.create(params as ChatCompletionCreateParams);
    }).not.toThrow();
    await expect(call).rejects.toThrow(ModelGateError);
    await expect(completions.create(params as ChatCompletionCreateParams)).rejects.toThrow(message);
    // A request sent before (or despite) the rejection would reach the handler within a few ticks.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests, "requests that reached the gateway").toBe(0);
  });
});

describe("models", () => {
  it("models.list() resolves to the catalogue the gateway sent", async () => {
    server.use(
      http.get(`${BASE}/v1/models`, () =>
        HttpResponse.json({ object: "list", data: [{ id: "a/b", object: "model", created: 1, owned_by: "a" }] }),
      ),
    );
    const list = await testClient().models.list();
    expect(list.object).toBe("list");
    expect(list.data.map((model) => model.id)).toEqual(["a/b"]);
  });
});

describe("a 200 that holds no chat completion", () => {
  it.each([
    ["an empty body", () => new Response(null, { status: 200 })],
    ["null", () => Response.json(null)],
    ["an object without choices", () => Response.json({ id: "x" })],
  ])("rejects %s with APIConnectionError instead of resolving to it", async (_name, answer) => {
    const client = new ModelGate({ apiKey: "sk-test", baseURL: "https://g.test", maxRetries: 0, fetch: async () => answer() });
    await expect(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(APIConnectionError);
  });

  it("ends a stream whose 200 has no body at once, as an empty one, not at the timeout", async () => {
    const client = new ModelGate({ apiKey: "sk-test", baseURL: "https://g.test", maxRetries: 0, fetch: async () => new Response(null, { headers: { "content-type": "text/event-stream" } }) });
    const error = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true })
      .then((stream) => stream.text())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
  });
});
