import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool } from "../src/index.ts";
import { mockClient as mock } from "./fixtures/mock.ts";

// runTools() driving real loops against the mock gateway: it calls the tools it is given
// (with arguments that follow their schemas, two at once), answers their results, and can be
// scripted per step to reach every stop condition. The budget's check before each step is in
// max-cost-tool-runs.test.ts.

const messages = [{ role: "user" as const, content: "Plan my day in Lisbon." }];
const calls: string[] = [];
const getWeather = tool({
  name: "get_weather",
  description: "Current weather in a city",
  parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }),
  run: async ({ city }) => {
    calls.push(`weather:${city}`);
    return { city, celsius: 21 };
  },
});
const getTime = tool({
  name: "get_time",
  parameters: z.object({ zone: z.string() }),
  run: ({ zone }) => {
    calls.push(`time:${zone}`);
    return `12:00 in ${zone}`;
  },
});

describe("runTools() against the mock gateway", () => {
  it("runs a real loop to its answer: two calls at once, then a reply that uses their results", async () => {
    const { client } = mock();
    calls.length = 0;
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather, getTime] });
    expect(result.stopReason).toBe("done");
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls).toHaveLength(2);
    expect(result.steps[0]!.toolCalls.every((outcome) => outcome.error === undefined)).toBe(true);
    expect(calls).toHaveLength(2);
    expect(result.message?.content).toContain("12:00");
    expect(result.cost).toBeGreaterThan(0);
    expect(result.steps[0]!.model).toBe(result.steps[0]!.gateway?.model);
  });

  it("streams the same loop, with chunk events", async () => {
    const { client } = mock();
    const run = client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather, getTime], stream: true });
    let chunks = 0;
    for await (const event of run) if (event.type === "chunk") chunks++;
    expect(chunks).toBeGreaterThan(2);
    expect((await run).stopReason).toBe("done");
  });

  it("sends broken JSON back to the model and goes on", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city": "Lis' }] }, 1);
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] });
    expect(result.steps[0]!.toolCalls[0]!.error).toMatch(/not valid JSON/);
    expect(result.stopReason).toBe("done");
  });

  it('stops with "repeated_call" when the model makes the same call forever', async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }] }, Infinity);
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("repeated_call");
    expect(result.steps).toHaveLength(3);
  });

  it('stops with "max_steps" at the limit and "max_cost" once the reported cost reaches the budget', async () => {
    const looping = mock();
    let n = 0;
    const next = () => ({ type: "reply" as const, toolCalls: [{ name: "get_weather", arguments: JSON.stringify({ city: `City ${n++}` }) }], cost: 0.01 });
    for (let step = 0; step < 10; step++) looping.gateway.inject(next(), 1);
    const capped = await looping.client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] }, { maxSteps: 4 });
    expect(capped.stopReason).toBe("max_steps");
    expect(capped.steps).toHaveLength(4);
    const spending = mock();
    for (let step = 0; step < 10; step++) spending.gateway.inject(next(), 1);
    const budgeted = await spending.client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] }, { maxCost: 0.025 });
    expect(budgeted.stopReason).toBe("max_cost");
    expect(budgeted.steps).toHaveLength(3);
    expect(budgeted.cost).toBeCloseTo(0.03);
  });
});
