import { describe, expect, it } from "vitest";
import type { ChatCompletion, ChatCompletionCreateParamsBase } from "../src/index.ts";
import { chooseModel, DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// `model: "auto"` routing, one test per rule. chooseModel() is pure, so most rules are
// checked on it directly; the gateway tests check the answers built from its result.

const hello = [{ role: "user" as const, content: "Hello there" }];

function chosen(extra: Partial<ChatCompletionCreateParamsBase>): string {
  const result = chooseModel({ model: "auto", messages: hello, ...extra }, DEFAULT_CATALOGUE);
  if ("error" in result) throw new Error(`expected a model, got: ${result.error}`);
  return result.model.id;
}

describe("auto routing (chooseModel)", () => {
  it("picks the cheapest model (prompt + completion price) by default", () => {
    expect(chosen({})).toBe("mistralai/mistral-small");
    expect(chosen({ route: { sort: "price" } })).toBe("mistralai/mistral-small");
  });

  it("breaks a price tie by the higher quality", () => {
    const [a, b] = [DEFAULT_CATALOGUE[0]!, DEFAULT_CATALOGUE[1]!];
    const tied = [
      { ...a, id: "x/low", pricing: { prompt: 1, completion: 1 }, quality: 0.5 },
      { ...b, id: "x/high", pricing: { prompt: 1, completion: 1 }, quality: 0.9 },
    ];
    const result = chooseModel({ model: "auto", messages: hello }, tied);
    expect("model" in result && result.model.id).toBe("x/high");
  });

  it("keeps only models at or above route.min_quality", () => {
    expect(chosen({ route: { min_quality: 0.75 } })).toBe("openai/gpt-4.1-mini");
  });

  it("keeps only models with every capability in route.capabilities", () => {
    expect(chosen({ route: { capabilities: ["audio"] } })).toBe("google/gemini-2.5-flash");
  });

  it("infers vision from an image_url part", () => {
    const messages = [{ role: "user" as const, content: [{ type: "text" as const, text: "What is this?" }, { type: "image_url" as const, image_url: { url: "https://x/cat.png" } }] }];
    expect(chosen({ messages })).toBe("openai/gpt-4.1-mini");
  });

  it("infers audio from an input_audio part", () => {
    const messages = [{ role: "user" as const, content: [{ type: "input_audio" as const, input_audio: { data: "UklGRg==", format: "wav" as const } }] }];
    expect(chosen({ messages })).toBe("google/gemini-2.5-flash");
  });

  it("infers tools from a non-empty tools list", () => {
    const tools = [{ type: "function" as const, function: { name: "f" } }];
    expect(chosen({ route: { min_quality: 0.6 } })).toBe("meta-llama/llama-3.3-70b-instruct");
    expect(chosen({ tools, route: { min_quality: 0.6 }, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] })).toBe("openai/gpt-4.1-mini");
    expect(chosen({ tools: [] })).toBe("mistralai/mistral-small");
  });

  it("infers json from a json_object or json_schema response format", () => {
    expect(chosen({ route: { min_quality: 0.7 } })).toBe("deepseek/deepseek-chat");
    expect(chosen({ response_format: { type: "json_object" }, route: { capabilities: ["vision"] } })).toBe("openai/gpt-4.1-mini");
    expect(chosen({ response_format: { type: "json_schema", json_schema: { name: "x" } }, route: { min_quality: 0.7 } })).toBe("deepseek/deepseek-chat");
  });

  it("infers long_context from a prompt above 32k estimated tokens, and needs a context that fits it", () => {
    expect(chosen({ messages: [{ role: "user", content: "word ".repeat(40_000) }] })).toBe("openai/gpt-4.1-mini");
    expect(chosen({ messages: [{ role: "user", content: "word ".repeat(160_000) }] })).toBe("google/gemini-2.5-flash");
  });

  it("keeps only models within route.max_price, prompt and completion separately", () => {
    expect(chosen({ route: { min_quality: 0.85 } })).toBe("openai/gpt-4.1");
    expect(chosen({ route: { min_quality: 0.85, max_price: { prompt: 1.5 } } })).toBe("google/gemini-2.5-pro");
    expect(chosen({ route: { min_quality: 0.9, max_price: { completion: 12 } } })).toBe("google/gemini-2.5-pro");
  });

  it("orders by quality (highest, ties to the cheaper) or latency (lowest) when asked", () => {
    expect(chosen({ route: { sort: "quality" } })).toBe("anthropic/claude-sonnet-4.5");
    expect(chosen({ route: { sort: "latency" } })).toBe("mistralai/mistral-small");
    expect(chosen({ route: { sort: "latency", capabilities: ["vision"] } })).toBe("google/gemini-2.5-flash");
  });

  it("routes chat to an image generator only when asked for images", () => {
    expect(chosen({ route: { sort: "quality" } })).toBe("anthropic/claude-sonnet-4.5");
    expect(chosen({ route: { capabilities: ["image_generation"] } })).toBe("google/gemini-2.5-flash-image");
    expect(chosen({ modalities: ["image", "text"] })).toBe("google/gemini-2.5-flash-image");
  });

  it("uses a named model as it is, and the first known one of [model, ...models]", () => {
    expect(chosen({ model: "openai/gpt-4.1" } as Partial<ChatCompletionCreateParamsBase>)).toBe("openai/gpt-4.1");
    expect(chosen({ model: "acme/gone", models: ["acme/also-gone", "anthropic/claude-haiku-4.5", "openai/gpt-4.1"] })).toBe("anthropic/claude-haiku-4.5");
  });

  it("says which filters excluded every model", () => {
    const result = chooseModel({ model: "auto", messages: hello, route: { capabilities: ["audio"], min_quality: 0.95 } }, DEFAULT_CATALOGUE);
    expect(result).toEqual({ code: "no_route_available", error: expect.stringMatching(/capability audio, min_quality 0.95/) });
  });
});

describe("auto routing through the gateway", () => {
  it("answers a 5 MB prompt with 413 context_length_exceeded, saying the prompt is too large, not blaming route filters", async () => {
    const response = await mockGateway().chat({ model: "auto", messages: [{ role: "user", content: "x".repeat(5_000_000) }] });
    expect(response.status).toBe(413);
    const { error } = await response.json();
    expect(error).toMatchObject({ type: "invalid_request_error", code: "context_length_exceeded", param: "messages" });
    expect(error.message).toBe(
      "The prompt is too large: about 1,250,000 tokens, more than the context of every model (the largest, google/gemini-2.5-flash, holds 1,048,576).",
    );
  });

  it("names route filters only when the request set some", async () => {
    const textOnly = DEFAULT_CATALOGUE.filter((model) => model.id === "mistralai/mistral-small");
    const image = [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/cat.png" } }] }];
    const { chat } = mockGateway({ models: textOnly });

    const unfiltered = (await (await chat({ model: "auto", messages: image })).json()).error;
    expect(unfiltered).toMatchObject({ code: "no_route_available", param: null, message: "No model can serve this request (excluded by: capability vision)." });

    const filtered = (await (await chat({ model: "auto", messages: image, route: { min_quality: 0.1, sort: "price" } })).json()).error;
    expect(filtered).toMatchObject({ code: "no_route_available", param: "route", message: "No model satisfies the route filters (excluded by: capability vision)." });

    const sortedOnly = (await (await chat({ model: "auto", messages: image, route: { sort: "latency" } })).json()).error;
    expect(sortedOnly.message).toMatch(/^No model can serve this request/);
  });

  it("answers 400 no_route_available with the excluding filters in the message", async () => {
    const response = await mockGateway().chat({ model: "auto", route: { min_quality: 0.9, max_price: { prompt: 0.5 } } });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ type: "invalid_request_error", code: "no_route_available", param: "route" });
    expect(error.message).toMatch(/min_quality 0.9.*max_price.prompt 0.5/);
  });

  it("answers 404 model_not_found for an unknown model, naming every id tried", async () => {
    const { chat } = mockGateway();
    const unknown = await chat({ model: "acme/nothing" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ type: "not_found_error", code: "model_not_found", param: "model" });
    const none = await chat({ model: "acme/nothing", models: ["acme/else"] });
    expect((await none.json()).error.message).toMatch(/'acme\/nothing', 'acme\/else'/);
  });

  it("falls back through `models` to the first model in the catalogue", async () => {
    const fallback = await mockGateway().chat({ model: "acme/nothing", models: ["acme/also-nothing", "mistralai/mistral-small"] });
    expect(((await fallback.json()) as ChatCompletion).model).toBe("mistralai/mistral-small");
  });

  it("reports the chosen model and its provider in the completion and in every chunk", async () => {
    const { chat } = mockGateway();
    const completion = (await (await chat({ model: "auto", route: { sort: "quality" } })).json()) as ChatCompletion;
    expect([completion.model, completion.provider]).toEqual(["anthropic/claude-sonnet-4.5", "anthropic"]);
    const { chunks } = parseEventStream(await (await chat({ model: "auto", route: { sort: "quality" }, stream: true, stream_options: { include_usage: true } })).text());
    expect(new Set(chunks.map((chunk) => `${chunk.model} ${chunk.provider}`))).toEqual(new Set(["anthropic/claude-sonnet-4.5 anthropic"]));
  });
});
