import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ModelGate, tool, type ToolRunEvent } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { EventLog } from "../src/features/tools/event-log.ts";
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

  it("streams a step answered with a whole completion (a proxy that does not stream) as create() does: one chunk", async () => {
    const whole = { id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "fin" }, finish_reason: "stop" }] };
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", maxRetries: 0, fetch: async () => Response.json(whole) });
    const run = client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather], stream: true });
    const result = await run;
    expect(result.stopReason).toBe("done");
    expect(result.message?.content).toBe("fin");
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

describe("runTools() against the mock gateway: what no model should send", () => {
  /**
   * The mock, with the message of its first chat completion changed by `rewrite` (as a
   * provider that sends malformed calls would have sent it); every later request is served,
   * and checked, by the mock as it is.
   */
  function rewritingMock(rewrite: (message: Record<string, unknown>) => void) {
    const gateway = createMockGateway({ chunkDelayMs: 0 });
    let rewritten = false;
    const client = new ModelGate({
      apiKey: MOCK_API_KEY,
      baseURL: "https://mock.test",
      maxRetries: 0,
      fetch: async (input, init) => {
        const response = await gateway(input, init);
        if (rewritten || !String(input instanceof Request ? input.url : input).endsWith("/chat/completions") || !response.ok) return response;
        rewritten = true;
        const body = (await response.json()) as { choices: { message: Record<string, unknown> }[] };
        rewrite(body.choices[0]!.message);
        return Response.json(body, { headers: response.headers });
      },
    });
    return { gateway, client };
  }

  it("sends the mock a valid next step after calls with object, null or no arguments, no name, no function, or not an object", async () => {
    calls.length = 0;
    const { gateway, client } = rewritingMock((message) => {
      const [call] = message.tool_calls as { id: string; function: { name: string; arguments: string } }[];
      message.tool_calls = [
        { ...call, function: { name: call!.function.name, arguments: JSON.parse(call!.function.arguments) } },
        { id: "c2", type: "function", function: { name: "get_weather", arguments: null } },
        { id: "c3", type: "function", function: { name: "get_weather" } },
        { id: "c4", type: "function", function: { arguments: "{}" } },
        { id: "c5", type: "function" },
        42,
      ];
    });
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }] }, 1);
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    expect(result.steps).toHaveLength(2);
    expect(calls).toEqual(["weather:Lisbon"]);
    const [objectArgs, nullArgs, noArgs, noName, noFunction, notObject] = result.steps[0]!.toolCalls;
    expect(objectArgs!.result).toEqual({ city: "Lisbon", celsius: 21 });
    expect(nullArgs!.error).toMatch(/do not match the tool's schema: city/);
    expect(noArgs!.error).toMatch(/do not match the tool's schema: city/);
    expect(noName!.error).toMatch(/no tool name/);
    expect(noFunction!.error).toMatch(/no `function`/);
    expect(notObject!.error).toMatch(/could not be read: it is number 42/);
    // The mock checks every request as a gateway does: a call it cannot read in the history is a 400.
    const chats = gateway.requests.filter((request) => request.url.endsWith("/v1/chat/completions"));
    expect(chats).toHaveLength(2);
    const sentBack = (chats[1]!.body as { messages: { tool_calls?: { function: { name: string; arguments: string } }[] }[] }).messages[1]!.tool_calls!;
    expect(sentBack.map((call) => call.function.arguments)).toEqual(['{"city":"Lisbon"}', "{}", "{}", "{}", "{}", "{}"]);
    expect(sentBack.map((call) => call.function.name)).toEqual(["get_weather", "get_weather", "get_weather", "unnamed_call", "unnamed_call", "unnamed_call"]);
  });

  it("keeps the refusal of a forced call in messages, streamed or not", async () => {
    for (const stream of [false, true]) {
      const { gateway, client } = mock();
      gateway.inject({ type: "structured", as: "refusal" }, 1);
      const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather], tool_choice: { type: "function", function: { name: "get_weather" } }, stream });
      expect(result.stopReason).toBe("done");
      expect(result.messages.at(-1)).toEqual({ role: "assistant", content: null, refusal: expect.stringMatching(/can't help/), parsed: null });
    }
  });

  it("holds none of a long streamed answer's chunks when nobody iterates the run", async () => {
    const { gateway, client } = mock();
    const answer = Array.from({ length: 5_000 }, (_, i) => `word${i}`).join(" ");
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }] }, 1);
    gateway.inject({ type: "reply", content: answer }, 1);
    const logs = new Set<EventLog<ToolRunEvent>>();
    const pushLive = EventLog.prototype.pushLive;
    const seen = vi.spyOn(EventLog.prototype, "pushLive").mockImplementation(function (this: EventLog<ToolRunEvent>, event) {
      logs.add(this);
      pushLive.call(this, event);
    });
    try {
      const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather], stream: true });
      expect(result.message?.content).toBe(answer);
      expect(seen.mock.calls.length).toBeGreaterThan(1_500);
      expect(logs.size).toBe(1);
      // The lasting events only: step.start, tool_call, tool_result, step.end, step.start, step.end.
      expect([...logs][0]!.held).toBe(6);
    } finally {
      seen.mockRestore();
    }
  });
});
