import { describe, expect, it } from "vitest";
import { BudgetExceededError, ModelGate, PaymentRequiredError } from "../src/index.ts";
import { createMockGateway, DEFAULT_CATALOGUE, MOCK_API_KEY } from "../src/testing/index.ts";

// What auto chose and what it cost, end to end against the mock gateway, which follows
// ModelGate's conventions: usage.cost from its prices, x-generation-id, credits and 402s,
// route.max_cost, ETags on /v1/models.

function mock(options: Parameters<typeof createMockGateway>[0] = {}) {
  const gateway = createMockGateway({ chunkDelayMs: 0, ...options });
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
  return { gateway, client };
}
const messages = [{ role: "user" as const, content: "Write two sentences about the sea." }];

describe("gateway info against the mock", () => {
  it("says which model and provider auto chose, the generation id from the header, and the cost at the catalogue's prices", async () => {
    const { client } = mock();
    const completion = await client.chat.completions.create({ model: "auto", messages });
    const info = completion.gateway!;
    const model = DEFAULT_CATALOGUE.find((entry) => entry.id === completion.model)!;
    expect(info).toMatchObject({ requestedModel: "auto", model: model.id, provider: model.provider, attempts: 1 });
    expect(info.generationID).toMatch(/^gen-/);
    expect(info.generationID).not.toBe(completion.id);
    const usage = completion.usage!;
    expect(info.cost).toBeCloseTo((usage.prompt_tokens * model.pricing!.prompt + usage.completion_tokens * model.pricing!.completion) / 1e6, 12);
  });

  it("fills a stream's info from the headers, its first chunk and its usage chunk", async () => {
    const { client } = mock();
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
    expect(stream.gateway.generationID).toMatch(/^gen-/);
    expect(stream.gateway.model).toBeNull();
    await stream.text();
    expect(stream.gateway.model).toEqual(expect.any(String));
    expect(stream.gateway.cost).toBeGreaterThan(0);
  });

  it("counts the attempts of a retried call", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "status", status: 503, retryAfterMs: 0 }, 2);
    const completion = await client.chat.completions.create({ model: "auto", messages }, { maxRetries: 2 });
    expect(completion.gateway?.attempts).toBe(3);
  });
});

describe("credits, 402 and shrinkToAffordable against the mock", () => {
  it("answers 402 with affordable_tokens, and shrinkToAffordable retries once with that many", async () => {
    const { client, gateway } = mock({ credits: 0.0005 });
    const model = "openai/gpt-4.1-mini";
    const error = (await client.chat.completions.create({ model, messages, max_tokens: 4_000 }).catch((caught: unknown) => caught)) as PaymentRequiredError;
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.affordableTokens).toBeGreaterThan(0);
    expect(error.message).toContain(`can only afford ${error.affordableTokens}`);
    expect(error.gateway.requestedModel).toBe(model);
    const completion = await client.chat.completions.create({ model, messages, max_tokens: 4_000 }, { shrinkToAffordable: true });
    expect(gateway.requests.at(-1)!.body).toMatchObject({ max_tokens: error.affordableTokens });
    expect(completion.gateway?.attempts).toBe(2);
    expect(gateway.credits).toBeGreaterThanOrEqual(0);
  });
});

describe("maxCost against the mock", () => {
  it("lowers max_tokens for a model id from the mock's catalogue, fetched once and revalidated by ETag", async () => {
    const { client, gateway } = mock();
    const model = DEFAULT_CATALOGUE.find((entry) => entry.id === "openai/gpt-4.1-mini")!;
    const budget = (200 * model.pricing!.completion) / 1e6 + 0.0001;
    await client.chat.completions.create({ model: model.id, messages, max_tokens: 4_000 }, { maxCost: budget });
    const sent = gateway.requests.at(-1)!.body as { max_tokens: number };
    expect(sent.max_tokens).toBeLessThan(4_000);
    expect(sent.max_tokens).toBeGreaterThan(0);
    const completion = await client.chat.completions.create({ model: model.id, messages, max_tokens: 4_000 }, { maxCost: budget });
    expect(completion.gateway!.cost!).toBeLessThanOrEqual(budget);
    expect(gateway.requests.filter((request) => request.url.endsWith("/v1/models"))).toHaveLength(1);
  });

  it("throws BudgetExceededError for a budget the prompt alone passes, sending nothing", async () => {
    const { client, gateway } = mock();
    await expect(client.chat.completions.create({ model: "openai/gpt-4.1", messages }, { maxCost: 1e-12 })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(gateway.requests.filter((request) => request.url.endsWith("/chat/completions"))).toHaveLength(0);
  });

  it('lets the mock route "auto" within route.max_cost', async () => {
    const { client } = mock();
    const cheap = await client.chat.completions.create({ model: "auto", messages, max_tokens: 100, route: { sort: "quality" } }, { maxCost: 0.0001 });
    const best = await client.chat.completions.create({ model: "auto", messages, max_tokens: 100, route: { sort: "quality" } });
    expect(cheap.model).not.toBe(best.model);
    expect(cheap.gateway!.cost!).toBeLessThanOrEqual(0.0001);
  });
});
