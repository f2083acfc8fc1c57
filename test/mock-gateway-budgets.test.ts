import { describe, expect, it } from "vitest";
import type { ChatCompletionCreateParamsBase } from "../src/index.ts";
import { chooseModel, DEFAULT_CATALOGUE, type MockGatewayOptions } from "../src/testing/index.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// Budgets as the gateway enforces them: the account's credits (402 with affordable_tokens
// before a call that could cost more than is left) and `route.max_cost` for `model: "auto"`.
// The prompt "Hello there" is 3 mock tokens; GPT-4.1 costs 2 and 8 USD per million tokens.

const hello = [{ role: "user" as const, content: "Hello there" }];
const GPT_41 = "openai/gpt-4.1";

async function errorOf(response: Response, status: number) {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()).error;
}

describe("mock gateway credits: the 402", () => {
  it("answers 402 insufficient_credits with affordable_tokens when a smaller max_tokens would fit", async () => {
    // 0.001 USD less the prompt's 6 micro-USD leaves 994 micro-USD: 124 tokens at 8 USD per million.
    const error = await errorOf(await mockGateway({ credits: 0.001 }).chat({ model: GPT_41, max_tokens: 4000 }), 402);
    expect(error).toEqual({
      message: "This request requires more credits, or fewer max_tokens. You requested up to 4000 tokens, but can only afford 124 tokens.",
      type: "insufficient_credits_error",
      code: "insufficient_credits",
      param: "max_tokens",
      metadata: { affordable_tokens: 124 },
    });
  });

  it("serves the same request with max_tokens set to affordable_tokens, and refuses one token more", async () => {
    const { chat } = mockGateway({ credits: 0.001 });
    expect((await chat({ model: GPT_41, max_tokens: 125 })).status).toBe(402);
    expect((await chat({ model: GPT_41, max_tokens: 124 })).status).toBe(200);
  });

  it("names max_completion_tokens when that is the field the request set", async () => {
    const error = await errorOf(await mockGateway({ credits: 0.001 }).chat({ model: GPT_41, max_completion_tokens: 4000, max_tokens: 10 }), 402);
    expect(error).toMatchObject({ param: "max_completion_tokens", metadata: { affordable_tokens: 124 } });
    expect(error.message).toMatch(/^This request requires more credits, or fewer max_completion_tokens\. You requested up to 4000 tokens, but can only afford 124 tokens\.$/);
  });

  it("budgets for the model's max_output_tokens when the request sets no limit", async () => {
    // GPT-4.1 writes up to 32,768 tokens: 0.262 USD, far above 0.001.
    const error = await errorOf(await mockGateway({ credits: 0.001 }).chat({ model: GPT_41 }), 402);
    expect(error).toMatchObject({ param: "max_tokens", metadata: { affordable_tokens: 124 } });
    expect(error.message).toContain("You requested up to 32768 tokens, but can only afford 124 tokens.");
  });

  it("holds credit for every one of n choices", async () => {
    const error = await errorOf(await mockGateway({ credits: 0.001 }).chat({ model: GPT_41, max_tokens: 4000, n: 2 }), 402);
    expect(error.metadata).toEqual({ affordable_tokens: 62 });
    expect(error.message).toContain("You requested up to 4000 tokens for each of 2 choices, but can only afford 62 tokens.");
  });

  it("leaves affordable_tokens out when not even the prompt fits", async () => {
    const error = await errorOf(await mockGateway({ credits: 0.000001 }).chat({ model: GPT_41, max_tokens: 10 }), 402);
    expect(error).toMatchObject({ code: "insufficient_credits", param: null });
    expect(error).not.toHaveProperty("metadata");
    expect(error.message).toMatch(/requires more credits: the account has \$0\.000001 left, not enough for the prompt \(about 3 tokens\)/);
    expect(error.message).not.toMatch(/can only afford/);
  });

  it("leaves affordable_tokens out when the prompt fits but not one token of reply", async () => {
    // 7 micro-USD: the prompt's 6 fit, a token of reply (8) does not.
    const error = await errorOf(await mockGateway({ credits: 0.000007 }).chat({ model: GPT_41, max_tokens: 10 }), 402);
    expect(error).not.toHaveProperty("metadata");
    expect(error.message).not.toMatch(/can only afford/);
  });

  it("answers a streamed request's 402 as JSON, before any stream", async () => {
    const response = await mockGateway({ credits: 0.001 }).chat({ model: GPT_41, max_tokens: 4000, stream: true });
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect((await errorOf(response, 402)).metadata).toEqual({ affordable_tokens: 124 });
  });

  it("has no limit by default, whatever max_tokens asks", async () => {
    const { gateway, chat } = mockGateway();
    expect(gateway.credits).toBe(Infinity);
    expect((await chat({ model: "anthropic/claude-sonnet-4.5", max_tokens: 64_000, n: 8 })).status).toBe(200);
    expect(gateway.credits).toBe(Infinity);
  });

  it("rejects a credits option that is not a number of USD", () => {
    expect(() => mockGateway({ credits: -1 })).toThrow(/credits/);
    expect(() => mockGateway({ credits: Number.NaN })).toThrow(/credits/);
  });
});

describe("mock gateway credits: the balance", () => {
  it("takes each served call's usage.cost off the balance, streamed or not", async () => {
    const { gateway, chat } = mockGateway({ credits: 0.5 });
    const plain = await (await chat({ model: GPT_41, max_tokens: 100 })).json();
    expect(gateway.credits).toBe(0.5 - plain.usage.cost);
    const before = gateway.credits;
    const { chunks } = parseEventStream(await (await chat({ model: GPT_41, max_tokens: 100, stream: true, stream_options: { include_usage: true } })).text());
    expect(gateway.credits).toBe(before - (chunks.at(-1)!.usage as unknown as { cost: number }).cost);
  });

  it("charges nothing for a refused request", async () => {
    const { gateway, chat } = mockGateway({ credits: 0.001 });
    await chat({ model: GPT_41, max_tokens: 4000 });
    await chat({ model: "acme/nothing" });
    expect(gateway.credits).toBe(0.001);
  });

  it("refuses once served calls have spent what a request needs", async () => {
    // Each call's worst case is 3 × 2 + 50 × 8 = 406 micro-USD; its real cost is lower, so a few calls fit.
    const { gateway, chat } = mockGateway({ credits: 0.001 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await chat({ model: GPT_41, max_tokens: 50 })).status);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses).toContain(402);
    expect(statuses.slice(statuses.indexOf(402))).toEqual(statuses.slice(statuses.indexOf(402)).map(() => 402));
    expect(gateway.credits).toBeGreaterThanOrEqual(0);
    expect(gateway.credits).toBeLessThan(0.000406);
  });

  it("is restored by reset()", async () => {
    const { gateway, chat } = mockGateway({ credits: 1 });
    await chat({ model: GPT_41 });
    expect(gateway.credits).toBeLessThan(1);
    gateway.reset();
    expect(gateway.credits).toBe(1);
  });
});

describe("mock gateway: route.max_cost", () => {
  function chosen(extra: Partial<ChatCompletionCreateParamsBase> & { route?: Record<string, unknown> }) {
    const result = chooseModel({ model: "auto", messages: hello, ...extra } as ChatCompletionCreateParamsBase, DEFAULT_CATALOGUE);
    return "model" in result ? result.model.id : result;
  }

  it("keeps only models whose worst case (prompt plus max_tokens at their prices) is within max_cost", () => {
    // With 1,000 tokens of reply: Sonnet 4.5 could cost 0.015009, Gemini 2.5 Pro 0.01000375, GPT-4.1 0.008006 USD.
    expect(chosen({ max_tokens: 1000, route: { sort: "quality" } })).toBe("anthropic/claude-sonnet-4.5");
    expect(chosen({ max_tokens: 1000, route: { sort: "quality", max_cost: 0.015 } })).toBe("google/gemini-2.5-pro");
    expect(chosen({ max_tokens: 1000, route: { sort: "quality", max_cost: 0.01 } })).toBe(GPT_41);
    expect(chosen({ max_tokens: 1000, route: { sort: "quality", max_cost: 0.008006 } })).toBe(GPT_41);
  });

  it("counts the model's max_output_tokens when the request sets no limit", () => {
    // GPT-4.1 writes up to 32,768 tokens (0.262 USD at most); Claude Haiku 4.5 up to 64,000 (0.32 USD).
    expect(chosen({ route: { sort: "quality", min_quality: 0.8, max_price: { prompt: 2 }, max_cost: 0.3 } })).toBe(GPT_41);
  });

  it("answers 400 no_route_available naming max_cost and the reply limit it counted, when no model fits", async () => {
    const { gateway, chat } = mockGateway();
    const error = await errorOf(await chat({ model: "auto", max_tokens: 100, route: { max_cost: 0.00001 } }), 400);
    expect(error).toMatchObject({ type: "invalid_request_error", code: "no_route_available", param: "route" });
    expect(error.message).toBe("No model satisfies the route filters (excluded by: max_cost 0.00001 (the prompt plus max_tokens at each model's prices)).");
    const unlimited = await errorOf(await chat({ model: "auto", route: { max_cost: 0.001 } }), 400);
    expect(unlimited.message).toContain("the prompt plus max_output_tokens at each model's prices");
    expect(gateway.credits).toBe(Infinity);
  });

  it("serves the chosen model through the gateway, and ignores max_cost for a named model", async () => {
    const { chat } = mockGateway();
    const routed = await (await chat({ model: "auto", max_tokens: 1000, route: { sort: "quality", max_cost: 0.01 } })).json();
    expect(routed.model).toBe(GPT_41);
    expect((await chat({ model: "anthropic/claude-sonnet-4.5", route: { max_cost: 0.00001 } })).status).toBe(200);
  });

  it.each(["-1", '"cheap"', "1e999"])("answers 400 naming route.max_cost for %s", async (value) => {
    const body = `{"model":"auto","messages":[{"role":"user","content":"Hi"}],"route":{"max_cost":${value}}}`;
    const error = await errorOf(await mockGateway().call("/v1/chat/completions", { body }), 400);
    expect(error).toMatchObject({ param: "route.max_cost", message: expect.stringContaining("`route.max_cost`") });
  });
});

describe("mock gateway: the limits a real gateway bills within", () => {
  const GPT_41_MODEL = DEFAULT_CATALOGUE.find((model) => model.id === GPT_41)!;
  const long = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ");

  it("refuses a prompt larger than a named model's context with a 400 context_length_exceeded, charging nothing", async () => {
    const { gateway, chat } = mockGateway({ credits: 1 });
    // Mistral Small holds 32,768 tokens; 40,000 words of "word " are 50,000 mock tokens.
    const messages = [{ role: "user", content: "word ".repeat(40_000) }];
    const error = await errorOf(await chat({ model: "mistralai/mistral-small", messages }), 400);
    expect(error).toMatchObject({ code: "context_length_exceeded", param: "messages", message: expect.stringContaining("32,768") });
    expect(gateway.credits).toBe(1);
    // A fallback that holds it serves it, as the gateway tries the next model after a failure.
    const served = await (await chat({ model: "mistralai/mistral-small", models: [GPT_41], messages })).json();
    expect(served.model).toBe(GPT_41);
  });

  it("cuts a fixed `reply` at the model's max_output_tokens when the request sends no limit", async () => {
    const tiny = { ...GPT_41_MODEL, id: "openai/tiny", max_output_tokens: 10 };
    const reply = await (await mockGateway({ models: [tiny], reply: long(2_000) }).chat({ model: "openai/tiny" })).json();
    expect(reply.usage.completion_tokens).toBe(10);
    expect(reply.choices[0].finish_reason).toBe("length");
    expect(reply.usage.cost).toBe((reply.usage.prompt_tokens * 2 + 10 * 8) / 1e6);
  });

  it("cuts a reply at the room the prompt leaves in the context", async () => {
    const small = { ...GPT_41_MODEL, id: "openai/small-context", context_length: 100, max_output_tokens: 1_000 };
    const messages = [{ role: "user", content: "abcd".repeat(90) }]; // 90 mock tokens
    const reply = await (await mockGateway({ models: [small], reply: long(500) }).chat({ model: small.id, messages, max_tokens: 500 })).json();
    expect(reply.usage.prompt_tokens).toBe(90);
    expect(reply.usage.completion_tokens).toBe(10);
    expect(reply.choices[0].finish_reason).toBe("length");
  });

  it("cuts tool calls, automatic or forced, at max_tokens, with finish_reason length", async () => {
    const longString = { type: "object", properties: { s: { type: "string", minLength: 40_000 } }, required: ["s"] };
    const manyProps = { type: "object", properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "integer" }])) };
    const fn = (name: string, parameters: unknown) => ({ type: "function", function: { name, parameters } });
    for (const extra of [
      { tools: [fn("f", longString)] },
      { tools: [fn("f", longString)], tool_choice: "required" },
      { tools: [fn("f", longString)], tool_choice: { type: "function", function: { name: "f" } } },
      { tools: ["a", "b", "c"].map((name) => fn(name, manyProps)), parallel_tool_calls: true },
    ]) {
      for (const limit of [1, 14, 77]) {
        const reply = await (await mockGateway().chat({ model: GPT_41, max_tokens: limit, ...extra })).json();
        const label = `${JSON.stringify(extra).slice(0, 80)} max_tokens ${limit}`;
        expect(reply.usage.completion_tokens, label).toBeLessThanOrEqual(limit);
        expect(reply.choices[0].finish_reason, label).toBe("length");
      }
    }
  });

  // Every kind of reply the mock writes, each asked to stop at a few limits, streamed and not.
  const jsonSchema = { type: "json_schema", json_schema: { name: "r", schema: { type: "object", properties: { s: { type: "string", minLength: 400 } }, required: ["s"] } } };
  const weather = { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string", minLength: 300 } }, required: ["city"] } } };
  const kinds: [string, Record<string, unknown>, MockGatewayOptions?][] = [
    ["generated text", { model: GPT_41 }],
    ["fixed reply", { model: GPT_41 }, { reply: long(300) }],
    ["reply function", { model: GPT_41 }, { reply: () => long(300) }],
    ["n = 3 choices", { model: GPT_41, n: 3 }, { reply: long(300) }],
    ["automatic tool call", { model: GPT_41, tools: [weather] }],
    ["two parallel tool calls", { model: GPT_41, tools: [weather, { ...weather, function: { ...weather.function, name: "get_time" } }] }],
    ["forced tool call", { model: GPT_41, tools: [weather], tool_choice: { type: "function", function: { name: "get_weather" } } }],
    ["answer to a tool result", { model: GPT_41, messages: [{ role: "user", content: "Weather?" }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: long(300) }] }],
    ["json_schema", { model: GPT_41, response_format: jsonSchema }],
    ["json_object", { model: GPT_41, response_format: { type: "json_object" } }],
    ["json_schema with a fixed reply", { model: GPT_41, response_format: jsonSchema }, { reply: long(300) }],
    ["reasoning", { model: "deepseek/deepseek-r1", reasoning: { effort: "high" } }],
    ["spoken reply", { model: "openai/gpt-4o-audio-preview", modalities: ["text", "audio"], audio: { voice: "alloy", format: "wav" } }, { reply: long(300) }],
    ["image with a caption", { model: "openai/gpt-image-1", modalities: ["image", "text"] }, { reply: long(300) }],
    ["video with a caption", { model: "google/veo-3.1" }, { reply: long(300) }],
  ];
  for (const [kind, body, options] of kinds) {
    it(`never bills more completion tokens than the limit sent: ${kind}`, async () => {
      for (const limit of [1, 2, 5, 17, 60]) {
        for (const field of ["max_tokens", "max_completion_tokens"]) {
          const { chat } = mockGateway({ ...options, chunkDelayMs: 0 });
          const request = { ...body, [field]: limit };
          const label = `${kind}, ${field} ${limit}`;
          const response = await chat(request);
          expect(response.status, label).toBe(200);
          const reply = await response.json();
          const choices = (body.n as number | undefined) ?? 1;
          expect(reply.usage.completion_tokens, label).toBeLessThanOrEqual(limit * choices);
          const model = DEFAULT_CATALOGUE.find((candidate) => candidate.id === reply.model)!;
          expect(reply.usage.cost, label).toBe((reply.usage.prompt_tokens * model.pricing.prompt + reply.usage.completion_tokens * model.pricing.completion) / 1e6);
          const streamed = parseEventStream(await (await chat({ ...request, stream: true, stream_options: { include_usage: true } })).text());
          expect(streamed.chunks.at(-1)!.usage, label).toEqual(reply.usage);
        }
      }
      // And a limit that cuts nothing leaves the reply whole.
      const whole = await (await mockGateway(options).chat({ ...body, max_tokens: 100_000 })).json();
      expect(whole.choices.every((choice: { finish_reason: string }) => choice.finish_reason !== "length"), kind).toBe(true);
    });
  }
});
