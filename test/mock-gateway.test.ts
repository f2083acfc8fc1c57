import { describe, expect, it } from "vitest";
import { ChatCompletionAccumulator } from "../src/streaming/accumulate.ts";
import { DEFAULT_CATALOGUE, chooseModel } from "../src/testing/index.ts";
import type { ChatCompletion, ChatCompletionCreateParamsBase, ModelList } from "../src/index.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

const hello = [{ role: "user" as const, content: "Hello there" }];
const route = (extra: Partial<ChatCompletionCreateParamsBase>) => chooseModel({ model: "auto", messages: hello, ...extra }, DEFAULT_CATALOGUE);
const chosen = (extra: Partial<ChatCompletionCreateParamsBase>) => {
  const result = route(extra);
  if ("error" in result) throw new Error(result.error);
  return result.model.id;
};

describe("mock gateway: auth", () => {
  it("answers 401 in the gateway's error shape without a key, and with a wrong one", async () => {
    const { call } = mockGateway();
    const missing = await call("/v1/models", { key: null });
    const wrong = await call("/v1/models", { key: "nope" });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    const missingBody = await missing.json();
    const wrongBody = await wrong.json();
    expect(missingBody.error).toMatchObject({ type: "authentication_error", code: "missing_api_key" });
    expect(wrongBody.error).toMatchObject({ type: "authentication_error", code: "invalid_api_key" });
    expect(missingBody.error.message).not.toBe(wrongBody.error.message);
  });

  it("accepts the configured key", async () => {
    const { call } = mockGateway({ apiKey: "custom" });
    expect((await call("/v1/models", { key: "custom" })).status).toBe(200);
  });
});

describe("mock gateway: models", () => {
  it("lists a catalogue of at least 8 models from at least 4 providers with routing metadata", async () => {
    const { call } = mockGateway();
    const list = (await (await call("/v1/models")).json()) as ModelList;
    expect(list.object).toBe("list");
    expect(list.data.length).toBeGreaterThanOrEqual(8);
    expect(new Set(list.data.map((model) => model.provider)).size).toBeGreaterThanOrEqual(4);
    for (const model of list.data) {
      expect(model).toMatchObject({ object: "model", pricing: expect.any(Object), quality: expect.any(Number), context_length: expect.any(Number) });
      expect(model.capabilities?.length).toBeGreaterThan(0);
    }
  });

  it("retrieves a model by its URL-encoded id, and 404s an unknown one", async () => {
    const { call } = mockGateway();
    const found = await call(`/v1/models/${encodeURIComponent("openai/gpt-4.1-mini")}`);
    expect((await found.json()).id).toBe("openai/gpt-4.1-mini");
    const missing = await call("/v1/models/nobody%2Fnothing");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("model_not_found");
  });
});

describe("mock gateway: request validation", () => {
  it.each([
    [{ model: "auto", messages: "hi" }, "messages"],
    [{ model: "auto", messages: [] }, "messages"],
    [{ messages: hello }, "model"],
    [{ model: "auto", messages: [{ role: "robot", content: "x" }] }, "messages[0].role"],
    [{ model: "auto", messages: [hello[0], { role: "user", content: 5 }] }, "messages[1].content"],
    [{ model: "auto", messages: [{ role: "user", content: [{ type: "video" }] }] }, "messages[0].content[0].type"],
    [{ model: "auto", messages: hello, temperature: 3 }, "temperature"],
    [{ model: "auto", messages: hello, n: 0 }, "n"],
    [{ model: "auto", messages: hello, stream: "yes" }, "stream"],
    [{ model: "auto", messages: hello, tools: {} }, "tools"],
  ])("answers 400 naming the field for %j", async (body, param) => {
    const { call } = mockGateway();
    const response = await call("/v1/chat/completions", { body });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.param).toBe(param);
    expect(error.message).toContain(param.replace(/\[\d+\].*/, ""));
  });

  it("answers 400 for a body that is not JSON", async () => {
    const { call } = mockGateway();
    const response = await call("/v1/chat/completions", { body: "{nope" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/not valid JSON/);
  });

  it("answers 404 model_not_found for an unknown model, but falls back through `models`", async () => {
    const { chat } = mockGateway();
    const unknown = await chat({ model: "acme/nothing" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: "model_not_found", param: "model" });
    const fallback = await chat({ model: "acme/nothing", models: ["acme/also-nothing", "mistralai/mistral-small"] });
    expect(((await fallback.json()) as ChatCompletion).model).toBe("mistralai/mistral-small");
  });

  it("answers 404 on unknown paths", async () => {
    const { call } = mockGateway();
    expect((await call("/v1/nothing")).status).toBe(404);
  });
});

describe("mock gateway: auto routing", () => {
  it("picks the cheapest model by default", () => {
    expect(chosen({})).toBe("mistralai/mistral-small");
  });

  it("honours min_quality", () => {
    expect(chosen({ route: { min_quality: 0.75 } })).toBe("openai/gpt-4.1-mini");
  });

  it("honours capabilities", () => {
    expect(chosen({ route: { capabilities: ["audio"] } })).toBe("google/gemini-2.5-flash");
  });

  it("infers vision from an image part", () => {
    const messages = [{ role: "user" as const, content: [{ type: "image_url" as const, image_url: { url: "https://x/cat.png" } }] }];
    expect(chosen({ messages })).toBe("openai/gpt-4.1-mini");
  });

  it("infers tools from a non-empty tools list and json from a JSON response format", () => {
    const tools = [{ type: "function" as const, function: { name: "f" } }];
    expect(chosen({ tools, route: { min_quality: 0.6 } })).toBe("meta-llama/llama-3.3-70b-instruct");
    expect(chosen({ response_format: { type: "json_object" }, route: { min_quality: 0.7 } })).toBe("deepseek/deepseek-chat");
  });

  it("infers long_context from a long prompt", () => {
    const messages = [{ role: "user" as const, content: "word ".repeat(40_000) }];
    expect(chosen({ messages })).toBe("openai/gpt-4.1-mini");
    expect(chosen({ messages: [{ role: "user", content: "word ".repeat(160_000) }] })).toBe("google/gemini-2.5-flash");
  });

  it("honours max_price", () => {
    expect(chosen({ route: { min_quality: 0.85, max_price: { completion: 9 } } })).toBe("openai/gpt-4.1");
  });

  it("sorts by quality or latency when asked", () => {
    expect(chosen({ route: { sort: "quality" } })).toBe("anthropic/claude-sonnet-4.5");
    expect(chosen({ route: { sort: "latency" } })).toBe("mistralai/mistral-small");
    expect(chosen({ route: { sort: "latency", capabilities: ["vision"] } })).toBe("google/gemini-2.5-flash");
  });

  it("never routes chat to an image generator", () => {
    expect(chosen({ route: { sort: "latency", capabilities: ["vision"], min_quality: 0.84, max_price: { prompt: 2 } } })).toBe("openai/gpt-4.1");
  });

  it("answers 400 no_route_available saying which filters excluded everything", async () => {
    const { chat } = mockGateway();
    const response = await chat({ model: "auto", route: { min_quality: 0.9, max_price: { prompt: 0.5 } } });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("no_route_available");
    expect(error.message).toMatch(/min_quality 0.9.*max_price.prompt 0.5/);
  });

  it("reports the chosen model and its provider in the completion and in every chunk", async () => {
    const { chat } = mockGateway();
    const completion = (await (await chat({ model: "auto", route: { sort: "quality" } })).json()) as ChatCompletion;
    expect([completion.model, completion.provider]).toEqual(["anthropic/claude-sonnet-4.5", "anthropic"]);
    const { chunks } = parseEventStream(await (await chat({ model: "auto", route: { sort: "quality" }, stream: true })).text());
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(["anthropic/claude-sonnet-4.5"]));
  });
});

describe("mock gateway: replies", () => {
  it("is deterministic: the same request gives the same reply, another seed another", async () => {
    const text = async (seed: number) => ((await (await mockGateway({ seed }).chat({ model: "auto" })).json()) as ChatCompletion).choices[0]!.message.content;
    expect(await text(1)).toBe(await text(1));
    expect(await text(1)).not.toBe(await text(2));
  });

  it("uses the `reply` option verbatim", async () => {
    const { chat } = mockGateway({ reply: "Exactly this." });
    const completion = (await (await chat({ model: "auto" })).json()) as ChatCompletion;
    expect(completion.choices[0]?.message.content).toBe("Exactly this.");
    expect(completion.usage).toMatchObject({ completion_tokens: 2, total_tokens: completion.usage!.prompt_tokens + 2 });
  });

  it("streams the same text in small pieces with keep-alives, role first and [DONE] last", async () => {
    const { chat } = mockGateway({ keepAliveEvery: 3 });
    const whole = (await (await chat({ model: "auto" })).json()) as ChatCompletion;
    const response = await chat({ model: "auto", stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { comments, chunks, done, raw } = parseEventStream(await response.text());
    expect(raw[0]).toBe(": PROCESSING");
    expect(comments.length).toBeGreaterThan(1);
    expect(done).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    const pieces = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "");
    expect(pieces.join("")).toBe(whole.choices[0]?.message.content);
    expect(Math.max(...pieces.map((piece) => piece.split(" ").filter(Boolean).length))).toBeLessThanOrEqual(3);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
  });

  it("adds a usage-only chunk before [DONE] when stream_options.include_usage is set", async () => {
    const { chat } = mockGateway();
    const { chunks } = parseEventStream(await (await chat({ model: "auto", stream: true, stream_options: { include_usage: true } })).text());
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("streams tool calls as fragments that reassemble into arguments following the schema", async () => {
    const { chat } = mockGateway();
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] }, days: { type: "integer" } }, required: ["city", "days"] },
        },
      },
    ];
    const { chunks } = parseEventStream(await (await chat({ model: "auto", tools, stream: true })).text());
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    const accumulator = new ChatCompletionAccumulator();
    chunks.forEach((chunk) => accumulator.add(chunk));
    const { message, finish_reason } = accumulator.result().choices[0]!;
    expect(finish_reason).toBe("tool_calls");
    expect(message.content).toBeNull();
    const call = message.tool_calls![0]!;
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Lisbon", unit: "celsius", days: 1 });
  });

  it("answers a tool result with text that quotes it", async () => {
    const { chat } = mockGateway();
    const messages = [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: '{"temp":21}' },
    ];
    const completion = (await (await chat({ model: "auto", messages, tools: [{ type: "function", function: { name: "f" } }] })).json()) as ChatCompletion;
    expect(completion.choices[0]?.message.content).toContain('{"temp":21}');
  });

  it("gives n choices with different texts, interleaved when streamed", async () => {
    const { chat } = mockGateway();
    const completion = (await (await chat({ model: "auto", n: 2 })).json()) as ChatCompletion;
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(completion.choices[0]?.message.content).not.toBe(completion.choices[1]?.message.content);
    const { chunks } = parseEventStream(await (await chat({ model: "auto", n: 2, stream: true })).text());
    expect(chunks.slice(0, 4).map((chunk) => chunk.choices[0]?.index)).toEqual([0, 1, 0, 1]);
  });

  it("answers the generic image generation endpoint", async () => {
    const { call } = mockGateway();
    const body = await (await call("/v1/images/generations", { body: { prompt: "a cat" } })).json();
    expect(body.data[0].url).toMatch(/^https:\/\/mock\.modelgate\.invalid\/images\//);
  });
});

describe("mock gateway: scripted faults", () => {
  it("answers an injected status with retry-after headers for the next N requests only", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 429, retryAfter: 2, retryAfterMs: 1500 }, 2);
    const first = await call("/v1/models");
    const second = await call("/v1/models");
    const third = await call("/v1/models");
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
    expect(first.headers.get("retry-after")).toBe("2");
    expect(first.headers.get("retry-after-ms")).toBe("1500");
    expect((await first.json()).error.message).toMatch(/429/);
  });

  it("answers an injected HTML body", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "status", status: 502, body: "<html><h1>Bad Gateway</h1></html>" });
    const response = await call("/v1/models");
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("Bad Gateway");
  });

  it("delays an answer by the injected latency, and an abort ends the wait", async () => {
    const { gateway } = mockGateway();
    gateway.inject({ type: "latency", ms: 80 });
    const started = performance.now();
    const slow = await gateway(new Request("https://mock.test/v1/models", { headers: { authorization: "Bearer mg-mock-key" } }));
    expect(slow.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    gateway.inject({ type: "latency", ms: 10_000 });
    const call = gateway(new Request("https://mock.test/v1/models", { headers: { authorization: "Bearer mg-mock-key" }, signal: AbortSignal.timeout(30) }));
    await expect(call).rejects.toThrow(/abort/i);
  });

  it("reports a mid-stream error as a chunk carrying error, or as an error event", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stream-error", afterChunks: 2, status: 503, message: "upstream down" });
    const asChunk = parseEventStream(await (await chat({ model: "auto", stream: true })).text());
    expect(asChunk.chunks).toHaveLength(3);
    expect(asChunk.chunks[2]).toMatchObject({ error: { code: 503, message: "upstream down" }, choices: [{ finish_reason: "error" }] });
    expect(asChunk.done).toBe(false);
    gateway.inject({ type: "stream-error", afterChunks: 1, as: "event" });
    const asEvent = parseEventStream(await (await chat({ model: "auto", stream: true })).text());
    expect(asEvent.raw.at(-1)).toMatch(/^event: error\ndata: \{"error":\{"code":502/);
  });

  it("cuts the connection after N chunks: the body errors", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "cut", afterChunks: 2 });
    const response = await chat({ model: "auto", stream: true });
    await expect(response.text()).rejects.toThrow(/connection cut/);
    expect(gateway.activeStreams).toBe(0);
  });

  it("stalls after N chunks, sending only keep-alives until the reader cancels", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "stall", afterChunks: 1, keepAliveMs: 5 });
    const reader = (await chat({ model: "auto", stream: true })).body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while ((text.match(/: PROCESSING/g) ?? []).length < 4) text += decoder.decode((await reader.read()).value);
    expect(text.match(/^data:/gm)).toHaveLength(1);
    expect(gateway.activeStreams).toBe(1);
    await reader.cancel();
    expect(gateway.activeStreams).toBe(0);
  });
});

describe("mock gateway: CORS and bookkeeping", () => {
  it("answers a CORS preflight and marks every answer readable cross-origin", async () => {
    const { gateway, call } = mockGateway();
    const preflight = await gateway(
      new Request("https://mock.test/v1/chat/completions", {
        method: "OPTIONS",
        headers: { origin: "http://page.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, x-modelgate-sdk" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-modelgate-sdk");
    const answer = await call("/v1/models");
    expect(answer.headers.get("access-control-expose-headers")).toContain("x-request-id");
    expect(answer.headers.get("x-request-id")).toMatch(/^req_mock_\d{6}$/);
  });

  it("logs requests with headers and parsed bodies, and forgets them on reset", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "status", status: 500 }, 5);
    await chat({ model: "auto", temperature: 0.5 });
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]).toMatchObject({ method: "POST", body: { model: "auto", temperature: 0.5 } });
    expect(gateway.requests[0]?.headers.authorization).toBe("Bearer mg-mock-key");
    gateway.reset();
    expect(gateway.requests).toHaveLength(0);
    expect((await chat({ model: "auto" })).status).toBe(200);
  });
});
