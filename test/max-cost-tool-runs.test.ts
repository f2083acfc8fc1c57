import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APIUserAbortError, ModelGate, tool } from "../src/index.ts";
import { createMockGateway, DEFAULT_CATALOGUE, MOCK_API_KEY } from "../src/testing/index.ts";
import { mockClient } from "./fixtures/mock.ts";
import { standingAfterTurns } from "./fixtures/promises.ts";
import { echoTool, pricedModel, scriptedReplies, weatherTool } from "./fixtures/scripted-run.ts";

// maxCost on runTools(): before each step, the step's worst case at the catalogue's prices must
// fit in what the steps so far left of the budget, or the run stops with "max_cost". The
// budget of one call is in max-cost.test.ts; the runner's other stop conditions in
// tool-runner.test.ts.

const messages = [{ role: "user" as const, content: "Go." }];
/** The prompt the embeddings-model case's budgets were set for: the worst case counts its size. */
const weatherInLisbon = [{ role: "user" as const, content: "Weather in Lisbon?" }];

describe("runTools() within maxCost: the check before each step", () => {
  it("keeps the budget when the gateway reports no cost, counting each step at its worst case", async () => {
    // Each step: the prompt bound plus 1 token at $1,000 per million, reported nowhere.
    const { client, bodies } = scriptedReplies([{ calls: [{ name: "echo", arguments: '{"text":"a"}' }] }, { calls: [{ name: "echo", arguments: '{"text":"b"}' }] }, { calls: [{ name: "echo", arguments: '{"text":"c"}' }] }], { models: [pricedModel({ prompt: 1_000, completion: 1_000 }, { max_output_tokens: 1 })] });
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echoTool], max_tokens: 1 }, { maxCost: 0.5 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies.length).toBeLessThanOrEqual(3);
    expect(result.cost).toBeNull();
  });

  it("prices every fallback model and every choice before a step", async () => {
    const models = [pricedModel({ prompt: 0, completion: 1 }), { ...pricedModel({ prompt: 0, completion: 1_000 }), id: "dear/model" }];
    const fallbacks = scriptedReplies([{ content: "x" }], { models });
    const viaFallback = await fallbacks.client.chat.completions.runTools({ model: "priced/model", models: ["dear/model"], messages, tools: [echoTool], max_tokens: 100 }, { maxCost: 0.05 });
    expect(viaFallback.stopReason).toBe("max_cost");
    const choices = scriptedReplies([{ content: "x" }], { models: [pricedModel({ prompt: 0, completion: 1_000 })] });
    const manyChoices = await choices.client.chat.completions.runTools({ model: "priced/model", messages, tools: [echoTool], max_tokens: 100, n: 4 }, { maxCost: 0.2 });
    expect(manyChoices.stopReason).toBe("max_cost");
  });
});

describe('runTools() within maxCost: model "auto"', () => {
  it('stops with "max_cost" for model "auto" when not even the cheapest model could fit what is left', async () => {
    const { client, bodies } = scriptedReplies([{ calls: [{ name: "echo", arguments: "{}" }], cost: 0.9 }], { models: [pricedModel({ prompt: 1, completion: 1 }, { max_output_tokens: 1_000 })] });
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echoTool] }, { maxCost: 0.9001 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(1);
    expect(result.steps).toHaveLength(1);
  });

  it('stops an auto tool run with "max_cost" when only models that cannot serve it (an embeddings model) would fit', async () => {
    for (const maxCost of [2e-5, 4e-5, 6e-5]) {
      const gateway = createMockGateway({ chunkDelayMs: 0 });
      gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }] }, Infinity);
      const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
      const result = await client.chat.completions.runTools({ model: "auto", messages: weatherInLisbon, tools: [weatherTool] }, { maxCost });
      expect(result.stopReason).toBe("max_cost");
    }
  });
});

describe("runTools() within maxCost: waiting for the catalogue", () => {
  it("ends at once when the run is aborted", async () => {
    const { client } = scriptedReplies([{ content: "x" }], { models: [pricedModel()], catalogueHangs: true });
    const controller = new AbortController();
    const run = client.chat.completions.runTools({ model: "priced/model", messages, tools: [echoTool] }, { maxCost: 1, signal: controller.signal });
    expect(await standingAfterTurns(run), "the run, waiting on the catalogue").toEqual({ settled: false });
    controller.abort();
    const ended = await standingAfterTurns(run);
    expect(ended.settled, "the run a few event-loop turns after the abort").toBe(true);
    expect(ended.error).toBeInstanceOf(APIUserAbortError);
  });
});

describe("runTools() within maxCost against the mock gateway", () => {
  // The budget below is set for this prompt and this tool's schema, which the worst case counts.
  const messages = [{ role: "user" as const, content: "Plan my day in Lisbon." }];
  const getWeather = tool({
    name: "get_weather",
    description: "Current weather in a city",
    parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
    run: async ({ city }) => ({ city, celsius: 21 }),
  });

  it("checks the worst case before each step for a model id, with the catalogue's prices", async () => {
    const { client, gateway } = mockClient();
    const model = DEFAULT_CATALOGUE.find((entry) => entry.id === "openai/gpt-4.1-mini")!;
    const oneStep = (1_000 * model.pricing!.prompt + 100 * model.pricing!.completion) / 1e6;
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }], cost: oneStep * 0.9 }, Infinity);
    const result = await client.chat.completions.runTools({ model: model.id, messages, tools: [getWeather], max_tokens: 100 }, { maxCost: oneStep * 1.5 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.steps).toHaveLength(1);
  });
});
