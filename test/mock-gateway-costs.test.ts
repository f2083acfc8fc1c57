import { describe, expect, it } from "vitest";
import type { ChatCompletion } from "../src/index.ts";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// What a served call reports about itself, as ModelGate does: the model and provider that
// answered, `usage.cost` in USD from the catalogue's prices, and an `x-generation-id` header.

const PROMPT_TOKENS = Math.ceil("Hello there".length / 4);

function pricing(id: string) {
  const model = DEFAULT_CATALOGUE.find((candidate) => candidate.id === id);
  if (!model) throw new Error(`no model ${id} in the catalogue`);
  return model.pricing;
}

async function completion(response: Response): Promise<ChatCompletion & { usage: { cost: number } }> {
  expect(response.status, await response.clone().text()).toBe(200);
  return await response.json();
}

describe("mock gateway: usage.cost", () => {
  it.each(["mistralai/mistral-small", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-pro"])(
    "charges (prompt × prompt price + completion × completion price) / 1e6 for %s",
    async (id) => {
      const reply = await completion(await mockGateway().chat({ model: id }));
      const { prompt, completion: completionPrice } = pricing(id);
      const { prompt_tokens, completion_tokens, cost } = reply.usage;
      expect(prompt_tokens).toBe(PROMPT_TOKENS);
      expect(cost).toBe((prompt_tokens * prompt + completion_tokens * completionPrice) / 1e6);
      expect(cost).toBeGreaterThan(0);
    },
  );

  it("charges the model that `auto` chose, not a fixed price", async () => {
    const { chat } = mockGateway();
    const cheap = await completion(await chat({ model: "auto" }));
    const best = await completion(await chat({ model: "auto", route: { sort: "quality" } }));
    expect([cheap.model, best.model]).toEqual(["mistralai/mistral-small", "anthropic/claude-sonnet-4.5"]);
    const { prompt, completion: completionPrice } = pricing(best.model);
    expect(best.usage.cost).toBe((best.usage.prompt_tokens * prompt + best.usage.completion_tokens * completionPrice) / 1e6);
  });

  it("puts the same cost in the usage chunk of a stream that asked for include_usage", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto" }));
    const { chunks } = parseEventStream(await (await chat({ model: "auto", stream: true, stream_options: { include_usage: true } })).text());
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { ...whole.usage, cost: whole.usage.cost } });
  });

  it("sums the completion tokens of every choice into the cost of n choices", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", n: 3 }));
    const { prompt, completion: completionPrice } = pricing(reply.model);
    expect(reply.usage.completion_tokens).toBe(reply.choices.reduce((sum, choice) => sum + choice.message.content!.split(/\s+/).length, 0));
    expect(reply.usage.cost).toBe((reply.usage.prompt_tokens * prompt + reply.usage.completion_tokens * completionPrice) / 1e6);
  });
});

describe("mock gateway: model and provider", () => {
  it("names the served model and its provider in a completion and in every chunk, for a named model too", async () => {
    const { chat } = mockGateway();
    const reply = await completion(await chat({ model: "google/gemini-2.5-flash" }));
    expect([reply.model, reply.provider]).toEqual(["google/gemini-2.5-flash", "google"]);
    const { chunks } = parseEventStream(await (await chat({ model: "google/gemini-2.5-flash", stream: true })).text());
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect([chunk.model, chunk.provider]).toEqual(["google/gemini-2.5-flash", "google"]);
  });
});

describe("mock gateway: x-generation-id", () => {
  it("sends gen- and 16 hex digits on a completion and on a stream, distinct from the body's id", async () => {
    const { chat } = mockGateway();
    const plain = await chat({ model: "auto" });
    const streamed = await chat({ model: "auto", stream: true });
    const ids = [plain.headers.get("x-generation-id"), streamed.headers.get("x-generation-id")];
    for (const id of ids) expect(id).toMatch(/^gen-[0-9a-f]{16}$/);
    expect(ids[0]).not.toBe(ids[1]);
    const body = await plain.json();
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(ids).not.toContain(body.id);
    const { chunks } = parseEventStream(await streamed.text());
    expect(ids).not.toContain(chunks[0]!.id);
  });

  it("is deterministic: the same seed and request number give the same id, another seed another", async () => {
    const first = async (seed: number) => (await mockGateway({ seed }).chat({ model: "auto" })).headers.get("x-generation-id");
    expect(await first(7)).toBe(await first(7));
    expect(await first(7)).not.toBe(await first(8));
  });

  it("is not sent with an error answer", async () => {
    const response = await mockGateway().chat({ model: "acme/nothing" });
    expect(response.status).toBe(404);
    expect(response.headers.has("x-generation-id")).toBe(false);
  });

  it("is readable by a browser page (exposed to CORS)", async () => {
    const response = await mockGateway().chat({ model: "auto" });
    expect(response.headers.get("access-control-expose-headers")?.split(", ")).toContain("x-generation-id");
  });
});
