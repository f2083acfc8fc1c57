import { describe, expect, it } from "vitest";
import { PaymentRequiredError } from "../src/index.ts";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mockClient as mock } from "./fixtures/mock.ts";

// What auto chose and what it cost, end to end against the mock gateway, which follows
// ModelGate's conventions: usage.cost from its prices, x-generation-id, credits and 402s.
// maxCost against the mock (route.max_cost, ETags on /v1/models) is in max-cost.test.ts.

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
