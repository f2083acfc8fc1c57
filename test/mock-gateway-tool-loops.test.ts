import { describe, expect, it } from "vitest";
import type { ChatCompletion, ChatCompletionChunk } from "../src/index.ts";
import { validatorFor } from "./fixtures/json-schema-validator.ts";
import { mockGateway, parseEventStream } from "./fixtures/mock.ts";

// What a client's tool loop meets at the mock: calls the model makes on its own, with
// arguments that follow each tool's schema, two at once when several tools are offered, a
// text that uses the results sent back, and replies scripted step by step.

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] }, days: { type: "integer", minimum: 1, maximum: 7 } },
      required: ["city", "days"],
      additionalProperties: false,
    },
  },
};
const search = {
  type: "function",
  function: {
    name: "search",
    parameters: { type: "object", properties: { query: { type: "string", minLength: 3 }, limit: { type: "integer", minimum: 1 } }, required: ["query"] },
  },
};
const clock = { type: "function", function: { name: "current_time" } };
const schemas: Record<string, Record<string, unknown>> = {
  get_weather: weather.function.parameters,
  search: search.function.parameters,
  current_time: { type: "object", properties: {}, additionalProperties: false },
};

async function completion(response: Response): Promise<ChatCompletion & { usage: { cost: number } }> {
  expect(response.status, await response.clone().text()).toBe(200);
  return await response.json();
}

/** Choice 0 of a stream put together: content, tool calls joined by index, finish reason. */
async function joined(response: Response) {
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const { chunks, done } = parseEventStream(await response.text());
  expect(done).toBe(true);
  const deltas = chunks.flatMap((chunk: ChatCompletionChunk) => chunk.choices.filter((choice) => choice.index === 0));
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const fragment of deltas.flatMap((choice) => choice.delta.tool_calls ?? [])) {
    const call = (calls[fragment.index] ??= { arguments: "" });
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name = fragment.function.name;
    call.arguments += fragment.function?.arguments ?? "";
  }
  const content = deltas.map((choice) => choice.delta.content ?? "").join("");
  return { content, calls, finishReason: deltas.at(-1)?.finish_reason, usage: chunks.at(-1)?.usage as { cost: number } | undefined };
}

function expectArgumentsFollowSchemas(calls: { function: { name: string; arguments: string } }[]) {
  for (const call of calls) {
    const args = JSON.parse(call.function.arguments);
    expect(validatorFor(schemas[call.function.name]!)(args), `${call.function.name}(${call.function.arguments})`).toEqual([]);
  }
}

describe("mock gateway tool loops: calls the model makes on its own", () => {
  it.each([undefined, "auto", "required"])("generates arguments that follow the tool's schema with tool_choice %s", async (toolChoice) => {
    const reply = await completion(await mockGateway().chat({ model: "auto", tools: [weather], tool_choice: toolChoice }));
    expect(reply.choices[0]?.finish_reason).toBe("tool_calls");
    expectArgumentsFollowSchemas(reply.choices[0]!.message.tool_calls!);
  });

  it("draws the arguments from the seed: other seeds give other arguments, the same seed the same", async () => {
    const args = async (seed: number) =>
      (await completion(await mockGateway({ seed }).chat({ model: "auto", tools: [weather] }))).choices[0]!.message.tool_calls![0]!.function.arguments;
    const values = await Promise.all([1, 2, 3, 4, 5, 6].map(args));
    expect(new Set(values).size).toBeGreaterThan(1);
    expect(await args(3)).toBe(values[2]);
  });

  it("gives a function declared without parameters an empty object", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", tools: [clock] }));
    expect(reply.choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: "current_time", arguments: "{}" });
  });

  it("calls the first two of several tools in one message, with distinct ids", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", tools: [weather, search, clock] }));
    const calls = reply.choices[0]!.message.tool_calls!;
    expect(calls.map((call) => call.function.name)).toEqual(["get_weather", "search"]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(reply.choices[0]?.finish_reason).toBe("tool_calls");
    expectArgumentsFollowSchemas(calls);
  });

  it("calls two tools with tool_choice required, and one when parallel_tool_calls is false", async () => {
    const { chat } = mockGateway();
    const required = await completion(await chat({ model: "auto", tools: [weather, search], tool_choice: "required" }));
    expect(required.choices[0]?.message.tool_calls).toHaveLength(2);
    const single = await completion(await chat({ model: "auto", tools: [weather, search], parallel_tool_calls: false }));
    expect(single.choices[0]?.message.tool_calls?.map((call) => call.function.name)).toEqual(["get_weather"]);
    expect((await completion(await chat({ model: "auto", tools: [weather, search], parallel_tool_calls: true }))).choices[0]?.message.tool_calls).toHaveLength(2);
  });

  it("streams both calls as fragments with indexes 0 and 1 that join into the non-streamed calls", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto", tools: [weather, search] }));
    const { calls, finishReason } = await joined(await chat({ model: "auto", tools: [weather, search], stream: true }));
    expect(finishReason).toBe("tool_calls");
    expect(calls).toEqual(whole.choices[0]!.message.tool_calls!.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })));
  });

  it("answers 400 for a parallel_tool_calls that is not a boolean", async () => {
    const response = await mockGateway().chat({ model: "auto", tools: [weather], parallel_tool_calls: "yes" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe("parallel_tool_calls");
  });
});

describe("mock gateway tool loops: replies to tool results", () => {
  it("answers the results of a two-call step in text that quotes each one under its function's name, finish_reason stop", async () => {
    const { chat } = mockGateway();
    const first = await completion(await chat({ model: "auto", tools: [weather, search] }));
    const [a, b] = first.choices[0]!.message.tool_calls!;
    const messages = [
      { role: "user", content: "Plan my week" },
      first.choices[0]!.message,
      { role: "tool", tool_call_id: a!.id, content: '{"celsius":21}' },
      { role: "tool", tool_call_id: b!.id, content: "3 museums open late" },
    ];
    const answer = await completion(await chat({ model: "auto", tools: [weather, search], messages }));
    expect(answer.choices[0]?.finish_reason).toBe("stop");
    expect(answer.choices[0]?.message.tool_calls).toBeUndefined();
    const text = answer.choices[0]!.message.content!;
    expect(text).toContain('get_weather returned {"celsius":21}');
    expect(text).toContain("search returned 3 museums open late");
    const streamed = await joined(await chat({ model: "auto", tools: [weather, search], messages, stream: true }));
    expect(streamed).toMatchObject({ content: text, calls: [], finishReason: "stop" });
  });

  it("quotes a result whose call it cannot find under a generic name", async () => {
    const messages = [{ role: "user", content: "Hi" }, { role: "tool", tool_call_id: "call_unknown", content: "42" }];
    const answer = await completion(await mockGateway().chat({ model: "auto", messages }));
    expect(answer.choices[0]?.message.content).toContain("the tool returned 42");
  });
});

describe("mock gateway tool loops: scripted replies", () => {
  it("answers exactly the scripted tool calls, arguments as the raw string given (broken JSON too)", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city": "Oslo"' }, { name: "no_such_tool", arguments: "{}" }] });
    const reply = await completion(await chat({ model: "auto", tools: [weather] }));
    const calls = reply.choices[0]!.message.tool_calls!;
    expect(calls.map((call) => call.function)).toEqual([
      { name: "get_weather", arguments: '{"city": "Oslo"' },
      { name: "no_such_tool", arguments: "{}" },
    ]);
    expect(calls.every((call) => /^call_\w+$/.test(call.id))).toBe(true);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(reply.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { content: null } });
  });

  it("streams the scripted calls so that they join into the same arguments", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Oslo","days":2}' }, { name: "search", arguments: "not json at all" }] });
    const { calls, finishReason } = await joined(await chat({ model: "auto", tools: [weather], stream: true }));
    expect(calls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: "get_weather", args: '{"city":"Oslo","days":2}' },
      { name: "search", args: "not json at all" },
    ]);
    expect(finishReason).toBe("tool_calls");
  });

  it("answers scripted content as it is, never cut by max_tokens, streamed or not", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", content: "All done: it is 21 °C in Oslo." }, 2);
    const plain = await completion(await chat({ model: "auto", tools: [weather], max_tokens: 2 }));
    expect(plain.choices[0]).toEqual({ index: 0, message: { role: "assistant", content: "All done: it is 21 °C in Oslo." }, finish_reason: "stop" });
    expect(await joined(await chat({ model: "auto", max_tokens: 2, stream: true }))).toMatchObject({ content: "All done: it is 21 °C in Oslo.", finishReason: "stop" });
  });

  it("sends content and calls together when both are scripted", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", content: "Let me check.", toolCalls: [{ name: "search", arguments: '{"query":"oslo"}' }] });
    const reply = await completion(await chat({ model: "auto" }));
    expect(reply.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { content: "Let me check.", tool_calls: [{ function: { name: "search", arguments: '{"query":"oslo"}' } }] } });
  });

  it("gives every choice of n the script", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", content: "Same." });
    const reply = await completion(await chat({ model: "auto", n: 3 }));
    expect(reply.choices.map((choice) => choice.message.content)).toEqual(["Same.", "Same.", "Same."]);
  });

  it("reports the scripted cost as usage.cost, and charges the credits that much", async () => {
    const { gateway, chat } = mockGateway({ credits: 1 });
    gateway.inject({ type: "reply", content: "Costly.", cost: 0.25 }, 2);
    expect((await completion(await chat({ model: "auto" }))).usage.cost).toBe(0.25);
    expect(gateway.credits).toBe(0.75);
    const streamed = await joined(await chat({ model: "auto", stream: true, stream_options: { include_usage: true } }));
    expect(streamed.usage?.cost).toBe(0.25);
    expect(gateway.credits).toBe(0.5);
    const computed = await completion(await chat({ model: "auto" }));
    expect(computed.usage.cost).toBeLessThan(0.001);
  });

  it("queues scripts in order, each for `times` chat completions (Infinity: until reset), then replies as usual", async () => {
    const { gateway, chat } = mockGateway();
    gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: "{}" }] }, 2);
    gateway.inject({ type: "reply", content: "Done." });
    const contents = [];
    for (let i = 0; i < 4; i++) {
      const message = (await completion(await chat({ model: "auto", tools: [weather] }))).choices[0]!.message;
      contents.push(message.content ?? message.tool_calls![0]!.function.arguments);
    }
    expect(contents.slice(0, 3)).toEqual(["{}", "{}", "Done."]);
    expect(contents[3]).not.toBe("{}");
    gateway.inject({ type: "reply", content: "Forever." }, Infinity);
    for (let i = 0; i < 3; i++) expect((await completion(await chat({ model: "auto" }))).choices[0]?.message.content).toBe("Forever.");
    gateway.reset();
    expect((await completion(await chat({ model: "auto" }))).choices[0]?.message.content).not.toBe("Forever.");
  });

  it("waits for a chat completion the mock serves: /v1/models, refused requests and status faults leave it queued", async () => {
    const { gateway, call, chat } = mockGateway({ credits: 0.001 });
    gateway.inject({ type: "reply", content: "Scripted." });
    await call("/v1/models");
    expect((await chat({ model: "acme/nothing" })).status).toBe(404);
    expect((await chat({ model: "openai/gpt-4.1", max_tokens: 4000 })).status).toBe(402);
    gateway.inject({ type: "status", status: 503 });
    expect((await chat({ model: "auto", max_tokens: 10 })).status).toBe(503);
    expect((await completion(await chat({ model: "auto", max_tokens: 10 }))).choices[0]?.message.content).toBe("Scripted.");
  });

  it("is not used up by a structured script, nor uses one up", async () => {
    const { gateway, chat } = mockGateway();
    const format = { type: "json_schema", json_schema: { name: "answer", schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } } };
    gateway.inject({ type: "structured", as: "refusal" });
    gateway.inject({ type: "reply", content: "Scripted." });
    // The reply script answers the structured request, and the structured script stays queued...
    const scripted = await completion(await chat({ model: "openai/gpt-4.1-mini", response_format: format }));
    expect(scripted.choices[0]?.message).toMatchObject({ content: "Scripted." });
    // ...for the next structured reply.
    const refused = await completion(await chat({ model: "openai/gpt-4.1-mini", response_format: format }));
    expect(refused.choices[0]?.message).toMatchObject({ content: null, refusal: expect.any(String) });
  });

  it("throws a TypeError at inject() for a script that is not well formed", () => {
    const { gateway } = mockGateway();
    const bad = [
      { type: "reply", toolCalls: [{ name: "f", arguments: { city: "Oslo" } }] },
      { type: "reply", toolCalls: "f()" },
      { type: "reply", content: 42 },
      { type: "reply", cost: -1 },
      { type: "reply", cost: "0.1" },
    ];
    for (const script of bad) expect(() => gateway.inject(script as never), JSON.stringify(script)).toThrow(TypeError);
  });
});

describe("mock gateway tool loops: a whole loop", () => {
  it("runs call → results → answer: two calls, then text that uses both results", async () => {
    const { gateway, chat } = mockGateway();
    const tools = [weather, search];
    const messages: Record<string, unknown>[] = [{ role: "user", content: "Weather in Oslo, and what to do there?" }];
    let steps = 0;
    for (; steps < 5; steps++) {
      const reply = await completion(await chat({ model: "auto", tools, messages }));
      const message = reply.choices[0]!.message;
      messages.push(message as unknown as Record<string, unknown>);
      if (!message.tool_calls) break;
      for (const call of message.tool_calls) messages.push({ role: "tool", tool_call_id: call.id, content: `result of ${call.function.name}` });
    }
    expect(steps).toBe(1);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(messages.at(-1)?.content).toMatch(/get_weather returned result of get_weather; search returned result of search/);
    expect(gateway.requests).toHaveLength(2);
  });
});
