import { describe, expect, it } from "vitest";
import type { ChatCompletionChunk } from "../src/index.ts";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// Reasoning models at the mock: the thinking in `message.reasoning` (or a provider's
// `reasoning_content`), streamed before the answer, left out on request, and always billed.

const R1 = "deepseek/deepseek-r1";
const question = [{ role: "user", content: "Why is the sky blue?" }];

interface Reasoned {
  choices: { message: { content: string | null; reasoning?: string; reasoning_content?: string }; finish_reason: string }[];
  usage: { completion_tokens: number; completion_tokens_details?: { reasoning_tokens?: number }; cost: number };
}

async function reply(response: Response): Promise<Reasoned> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Reasoned;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

async function streamed(response: Response) {
  const { chunks } = parseEventStream(await response.text());
  const deltas = chunks.flatMap((chunk: ChatCompletionChunk) => chunk.choices.map((choice) => choice.delta as Record<string, unknown>));
  return { chunks, deltas, joined: (field: string) => deltas.map((delta) => (typeof delta[field] === "string" ? delta[field] : "")).join("") };
}

describe("mock gateway reasoning", () => {
  it("answers with message.reasoning beside the content, and counts it as reasoning tokens within completion_tokens", async () => {
    const { choices, usage } = await reply(await mockGateway().chat({ model: R1, messages: question }));
    const { message, finish_reason } = choices[0]!;
    expect(finish_reason).toBe("stop");
    expect(message.reasoning).toMatch(/^The question is "Why is the sky blue\?"\. /);
    expect(message).not.toHaveProperty("reasoning_content");
    expect(usage.completion_tokens_details).toEqual({ reasoning_tokens: words(message.reasoning!) });
    expect(usage.completion_tokens).toBe(words(message.content!) + words(message.reasoning!));
    const pricing = DEFAULT_CATALOGUE.find((model) => model.id === R1)!.pricing;
    expect(usage.cost).toBe((Math.ceil("Why is the sky blue?".length / 4) * pricing.prompt + usage.completion_tokens * pricing.completion) / 1e6);
  });

  it("answers what a model without reasoning would: the thinking comes on top", async () => {
    const plain = DEFAULT_CATALOGUE.map((model) => (model.id === R1 ? { ...model, capabilities: [] } : model));
    const withReasoning = await reply(await mockGateway().chat({ model: R1, messages: question }));
    const without = await reply(await mockGateway({ models: plain }).chat({ model: R1, messages: question }));
    expect(withReasoning.choices[0]!.message.content).toBe(without.choices[0]!.message.content);
    expect(without.choices[0]!.message).not.toHaveProperty("reasoning");
    expect(without.usage).not.toHaveProperty("completion_tokens_details");
  });

  it("streams delta.reasoning pieces before the first piece of content, joining into the same texts", async () => {
    const { chat } = mockGateway();
    const whole = (await reply(await chat({ model: R1, messages: question }))).choices[0]!.message;
    const { deltas, joined } = await streamed(await chat({ model: R1, messages: question, stream: true }));
    const lastReasoning = Math.max(...deltas.map((delta, index) => (typeof delta.reasoning === "string" ? index : -1)));
    const firstContent = deltas.findIndex((delta) => typeof delta.content === "string" && delta.content !== "");
    expect(deltas.filter((delta) => typeof delta.reasoning === "string").length).toBeGreaterThan(1);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(joined("reasoning")).toBe(whole.reasoning);
    expect(joined("content")).toBe(whole.content);
  });

  it("reports reasoning_tokens in the usage chunk of a stream", async () => {
    const { chat } = mockGateway();
    const whole = await reply(await chat({ model: R1, messages: question }));
    const { chunks } = await streamed(await chat({ model: R1, messages: question, stream: true, stream_options: { include_usage: true } }));
    expect(chunks.at(-1)?.usage).toEqual(whole.usage);
  });

  it('uses the provider spelling reasoning_content, in messages and deltas, with reasoningField: "reasoning_content"', async () => {
    const { chat } = mockGateway({ reasoningField: "reasoning_content" });
    const { message } = (await reply(await chat({ model: R1, messages: question }))).choices[0]!;
    expect(message.reasoning_content).toMatch(/^The question is/);
    expect(message).not.toHaveProperty("reasoning");
    const { deltas, joined } = await streamed(await chat({ model: R1, messages: question, stream: true }));
    expect(joined("reasoning_content")).toBe(message.reasoning_content);
    expect(deltas.some((delta) => "reasoning" in delta)).toBe(false);
  });

  it("sends no reasoning text with reasoning: { exclude: true }, but still bills the reasoning tokens", async () => {
    const { chat } = mockGateway();
    const shown = await reply(await chat({ model: R1, messages: question }));
    const hidden = await reply(await chat({ model: R1, messages: question, reasoning: { exclude: true } }));
    expect(hidden.choices[0]!.message).not.toHaveProperty("reasoning");
    expect(hidden.choices[0]!.message.content).toBe(shown.choices[0]!.message.content);
    expect(hidden.usage).toEqual(shown.usage);
    const { deltas } = await streamed(await chat({ model: R1, messages: question, reasoning: { exclude: true }, stream: true }));
    expect(deltas.some((delta) => "reasoning" in delta)).toBe(false);
  });

  it("thinks longer with more effort (reasoning.effort, else reasoning_effort), and not at all with none", async () => {
    const { chat } = mockGateway();
    const tokens = async (extra: Record<string, unknown>) => (await reply(await chat({ model: R1, messages: question, ...extra }))).usage.completion_tokens_details!.reasoning_tokens!;
    const [low, medium, high] = [await tokens({ reasoning_effort: "low" }), await tokens({}), await tokens({ reasoning: { effort: "high" } })];
    expect(low).toBeLessThan(medium);
    expect(medium).toBeLessThan(high);
    expect(await tokens({ reasoning_effort: "low", reasoning: { effort: "high" } })).toBe(high);
    const none = await reply(await chat({ model: R1, messages: question, reasoning_effort: "none" }));
    expect(none.choices[0]!.message).not.toHaveProperty("reasoning");
    expect(none.usage.completion_tokens_details).toEqual({ reasoning_tokens: 0 });
  });

  it("cuts the thinking at reasoning.max_tokens", async () => {
    const { choices, usage } = await reply(await mockGateway().chat({ model: R1, messages: question, reasoning: { max_tokens: 4 } }));
    expect(words(choices[0]!.message.reasoning!)).toBe(4);
    expect(usage.completion_tokens_details).toEqual({ reasoning_tokens: 4 });
  });

  it("spends max_tokens on the thinking first: a limit it uses up leaves no content, finish_reason length", async () => {
    const { choices, usage } = await reply(await mockGateway().chat({ model: R1, messages: question, max_tokens: 5 }));
    expect(choices[0]).toMatchObject({ finish_reason: "length", message: { content: "" } });
    expect(words(choices[0]!.message.reasoning!)).toBe(5);
    expect(usage.completion_tokens).toBe(5);
  });

  it("gives models without reasoning neither the field nor reasoning_tokens", async () => {
    const { choices, usage } = await reply(await mockGateway().chat({ model: "openai/gpt-4.1", messages: question }));
    expect(choices[0]!.message).not.toHaveProperty("reasoning");
    expect(usage).not.toHaveProperty("completion_tokens_details");
  });

  it.each([
    ["reasoning not an object", { reasoning: "deep" }, "reasoning"],
    ["reasoning.exclude not a boolean", { reasoning: { exclude: "yes" } }, "reasoning.exclude"],
    ["reasoning.effort unknown", { reasoning: { effort: "extreme" } }, "reasoning.effort"],
    ["reasoning.max_tokens negative", { reasoning: { max_tokens: -1 } }, "reasoning.max_tokens"],
    ["reasoning_effort unknown", { reasoning_effort: "extreme" }, "reasoning_effort"],
  ])("answers 400 for %s, naming %s", async (_, extra, param) => {
    const response = await mockGateway().chat({ model: R1, messages: question, ...extra });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe(param);
  });
});
