import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { APIUserAbortError, BadRequestError, jsonSchema, ModelGateError, tool, type ChatCompletion, type ToolRunEvent } from "../src/index.ts";
import { EventLog } from "../src/features/tools/event-log.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, DONE, sseData, toolFragment, usageChunk } from "./fixtures/chunks.ts";
import { echoTool, SCRIPTED_KEY, scriptedReplies } from "./fixtures/scripted-run.ts";
import { recordingClient } from "./fixtures/client.ts";

// runTools() against scripted replies: the step rules, the stop conditions, the events.

type Call = { name: string; arguments: string; id?: string };
const messages = [{ role: "user" as const, content: "What is the weather in Paris and Rome?" }];

function completion(reply: { calls?: Call[]; content?: string; cost?: number; model?: string }): Omit<ChatCompletion, "gateway"> {
  const tool_calls = reply.calls?.map((call, index) => ({ id: call.id ?? `call_${index}`, type: "function" as const, function: { name: call.name, arguments: call.arguments } }));
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: reply.model ?? "cheap/model",
    choices: [{ index: 0, message: { role: "assistant", content: reply.content ?? null, ...(tool_calls ? { tool_calls } : {}) }, finish_reason: tool_calls ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, ...(reply.cost === undefined ? {} : { cost: reply.cost }) },
  };
}

/** A client whose gateway answers each chat request with the next scripted reply (the last one repeats). */
function scripted(replies: ((body: Record<string, unknown>) => Response)[], models: unknown[] = []) {
  const { client, sent: bodies } = recordingClient((body) => replies[Math.min(bodies.length - 1, replies.length - 1)]!(body), { apiKey: "sk-test-key-1234", models });
  return { client, bodies };
}
const reply = (value: Parameters<typeof completion>[0]) => () => Response.json(completion(value));

const getWeather = tool({
  name: "get_weather",
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  run: async ({ city }) => ({ city, celsius: city.length }),
});

describe("runTools(): steps", () => {
  it("runs the calls of a reply, sends their results in call order, and ends with the answer", async () => {
    const { client, bodies } = scripted([
      reply({ calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }, { name: "get_weather", arguments: '{"city":"Rome"}' }], cost: 0.001 }),
      reply({ content: "Paris 5, Rome 4.", cost: 0.002 }),
    ]);
    const result = await client.chat.completions.runTools({ model: "cheap/model", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    expect(result.message?.content).toBe("Paris 5, Rome 4.");
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(result.messages[2]).toEqual({ role: "tool", tool_call_id: "call_0", content: '{"city":"Paris","celsius":5}' });
    expect(result.messages[3]).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"city":"Rome","celsius":4}' });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls.map((outcome) => outcome.result)).toEqual([{ city: "Paris", celsius: 5 }, { city: "Rome", celsius: 4 }]);
    expect(result.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(result.cost).toBeCloseTo(0.003);
    // `messages` holds openai's parsed fields; the request carries only what a request may.
    expect(result.messages[1]).toMatchObject({ parsed: null, tool_calls: [{ function: { parsed_arguments: { city: "Paris" } } }, { function: { parsed_arguments: { city: "Rome" } } }] });
    const replayedCall = (id: string, city: string) => ({ id, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city }) } });
    expect(bodies[1]!.messages).toEqual([messages[0], { role: "assistant", content: null, tool_calls: [replayedCall("call_0", "Paris"), replayedCall("call_1", "Rome")] }, result.messages[2], result.messages[3]]);
    // The tool's wire definition, its schema closed and strict (see structured-outputs.test.ts).
    const { function: definition } = getWeather;
    expect(bodies[0]!.tools).toEqual([{ type: "function", function: { ...definition, parameters: { ...definition.parameters, additionalProperties: false }, strict: true } }]);
  });

  it("runs the calls of one step at the same time", async () => {
    let running = 0;
    let mostAtOnce = 0;
    const slow = tool({
      name: "slow",
      parameters: z.object({ n: z.number() }),
      run: async ({ n }) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return n;
      },
    });
    const { client } = scripted([reply({ calls: [0, 1, 2].map((n) => ({ name: "slow", arguments: `{"n":${n}}` })) }), reply({ content: "done" })]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [slow] });
    expect(mostAtOnce).toBe(3);
    expect(result.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual(["0", "1", "2"]);
  });

  it("sends the model what went wrong instead of ending the run: bad JSON, bad arguments, unknown tool, a throw", async () => {
    const failing = tool({ name: "failing", parameters: z.object({}), run: () => { throw new Error("the database is down"); } });
    const { client } = scripted([
      reply({
        calls: [
          { name: "get_weather", arguments: '{"city": Paris}' },
          { name: "get_weather", arguments: '{"town":"Paris"}' },
          { name: "teleport", arguments: "{}" },
          { name: "failing", arguments: "{}" },
        ],
      }),
      reply({ content: "Sorry." }),
    ]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather, failing] });
    expect(result.stopReason).toBe("done");
    const errors = result.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
    expect(errors[0]).toMatch(/^Error: The arguments are not valid JSON \(/);
    expect(errors[1]).toMatch(/^Error: The arguments do not match the tool's schema: city: /);
    // openai's runner's sentence, word for word.
    expect(errors[2]).toBe('Invalid tool_call: "teleport". Available options are: "get_weather", "failing". Please try again');
    expect(errors[3]).toBe("Error: The tool failed: the database is down");
    expect(result.steps[0]!.toolCalls.map((outcome) => outcome.error !== undefined)).toEqual([true, true, true, true]);
  });

  it("sends a string result as it is, and gives run its step, call and signal", async () => {
    let seen: { step: number; id: string; signal: boolean } | undefined;
    const echo = tool({
      name: "echo",
      parameters: z.object({ text: z.string() }),
      run: ({ text }, { step, call, signal }) => {
        seen = { step, id: call.id, signal: signal instanceof AbortSignal };
        return text;
      },
    });
    const { client } = scripted([reply({ calls: [{ name: "echo", arguments: '{"text":"plain words"}', id: "c7" }] }), reply({ content: "ok" })]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [echo] });
    expect(result.messages[2]).toEqual({ role: "tool", tool_call_id: "c7", content: "plain words" });
    expect(seen).toEqual({ step: 1, id: "c7", signal: true });
  });

  it("reports odd throws, non-object arguments and results that are not JSON to the model, with the key redacted", async () => {
    const odd = tool({ name: "odd", parameters: jsonSchema({ type: "object" }), run: () => { throw Object.assign(Object.create(null), { code: 7 }); } });
    const leaky = tool({ name: "leaky", parameters: z.object({}), run: () => { throw new Error(`auth failed for ${SCRIPTED_KEY}`); } });
    const big = tool({ name: "big", parameters: z.object({}), run: () => 10n });
    const { client } = scriptedReplies([{ calls: [{ name: "odd", arguments: "{}" }, { name: "echo", arguments: "42" }, { name: "leaky", arguments: "{}" }, { name: "big", arguments: "{}" }] }, { content: "ok" }]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [odd, echoTool, leaky, big] });
    const [oddCall, numberArgs, leakyCall, bigCall] = result.steps[0]!.toolCalls;
    expect(oddCall!.error).toBe('The tool failed: {"code":7}');
    expect(numberArgs!.error).toMatch(/must be a JSON object/);
    expect(leakyCall!.error).toBe("The tool failed: auth failed for [redacted]");
    expect(bigCall!.error).toMatch(/cannot be sent as JSON/);
    expect(JSON.stringify(result.messages)).not.toContain(SCRIPTED_KEY);
  });

  it("tells the model a result that has no JSON (a symbol, a function) cannot be sent, instead of sending \"null\"", async () => {
    const symbol = tool({ name: "symbol", parameters: z.object({}), run: () => Symbol("x") });
    const fn = tool({ name: "fn", parameters: z.object({}), run: () => () => 1 });
    const nothing = tool({ name: "nothing", parameters: z.object({}), run: () => undefined });
    const { client, bodies } = scriptedReplies([{ calls: [{ name: "symbol", arguments: "{}" }, { name: "fn", arguments: "{}" }, { name: "nothing", arguments: "{}" }] }, { content: "ok" }]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [symbol, fn, nothing] });
    const [symbolCall, fnCall, nothingCall] = result.steps[0]!.toolCalls;
    expect(symbolCall).toEqual(expect.objectContaining({ error: "The tool's result cannot be sent as JSON (it is a symbol)." }));
    expect(fnCall).toEqual(expect.objectContaining({ error: "The tool's result cannot be sent as JSON (it is a function)." }));
    expect("result" in symbolCall! || "result" in fnCall!).toBe(false);
    const sentTools = (bodies[1]!.messages as { role: string; content: string }[]).filter((message) => message.role === "tool").map((message) => message.content);
    expect(sentTools).toEqual(["Error: The tool's result cannot be sent as JSON (it is a symbol).", "Error: The tool's result cannot be sent as JSON (it is a function).", "null"]);
    expect(nothingCall!.result).toBeUndefined();
  });

  it("survives deeply nested arguments, calls without ids or with repeated ids, and keeps messages ready to continue", async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const { client, bodies } = scriptedReplies([
      { calls: [{ name: "echo", arguments: deep }, { name: "echo", arguments: '{"text":"x"}', id: null }, { name: "echo", arguments: '{"text":"y"}', id: "dup" }, { name: "echo", arguments: '{"text":"z"}', id: "dup" }] },
      { content: "done" },
    ]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [echoTool] });
    expect(result.stopReason).toBe("done");
    const ids = (bodies[1]!.messages as { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[]).filter((message) => message.role === "tool").map((message) => message.tool_call_id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    const assistant = (bodies[1]!.messages as { tool_calls?: { id: string }[] }[])[1]!;
    expect(assistant.tool_calls!.map((call) => call.id)).toEqual(ids);
  });

  it("makes a caller's idempotency key one per step", async () => {
    const { client, keys } = scriptedReplies([{ calls: [{ name: "echo", arguments: "{}" }] }, { content: "done" }]);
    await client.chat.completions.runTools({ model: "m", messages, tools: [echoTool] }, { idempotencyKey: "run-42" });
    expect(keys).toEqual(["run-42-step-1", "run-42-step-2"]);
  });
});

describe("runTools(): stop conditions", () => {
  it('stops with "max_steps" after maxSteps completions, the last calls answered', async () => {
    let n = 0;
    const { client, bodies } = scripted([() => Response.json(completion({ calls: [{ name: "get_weather", arguments: `{"city":"C${n++}"}` }] }))]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }, { maxSteps: 3 });
    expect(result.stopReason).toBe("max_steps");
    expect(bodies).toHaveLength(3);
    expect(result.messages.at(-1)!.role).toBe("tool");
  });

  it('ends "done", not "max_steps", when the last allowed step answers', async () => {
    const { client } = scripted([reply({ calls: [{ name: "get_weather", arguments: '{"city":"A"}' }] }), reply({ content: "fine" })]);
    expect((await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }, { maxSteps: 2 })).stopReason).toBe("done");
  });

  it('stops with "repeated_call" when a call repeats with the same arguments in three steps in a row, whatever their key order', async () => {
    const args = ['{"city":"Paris"}', '{ "city": "Paris" }', '{"city":"Paris"}'];
    let n = 0;
    const { client, bodies } = scripted([() => Response.json(completion({ calls: [{ name: "get_weather", arguments: args[n++ % 3]! }] }))]);
    let ran = 0;
    const counting = tool({ name: "get_weather", parameters: z.object({ city: z.string() }), run: () => ++ran });
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [counting] });
    expect(result.stopReason).toBe("repeated_call");
    expect(bodies).toHaveLength(3);
    expect(ran).toBe(2);
    expect(String(result.messages.at(-1)!.content)).toMatch(/^Error: Not run: /);
  });

  it('stops with "max_cost" once the reported cost reaches the budget', async () => {
    const { client, bodies } = scripted([reply({ calls: [{ name: "get_weather", arguments: '{"city":"A"}' }], cost: 0.03, model: "auto-picked" })]);
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] }, { maxCost: 0.05 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies.map((body) => (body.route as { max_cost: number }).max_cost)).toEqual([0.05, expect.closeTo(0.02, 10)]);
    expect(result.cost).toBeCloseTo(0.06);
  });

  it('stops before a step whose worst case would pass what is left, and runs one that fits exactly', async () => {
    const models = [{ id: "priced/model", object: "model", created: 0, owned_by: "x", pricing: { prompt: 0, completion: 1_000 }, max_output_tokens: 10 }];
    // Each step's worst case: 10 tokens at $1,000 per million = $0.01; each step reports $0.01.
    const { client, bodies } = scripted([reply({ calls: [{ name: "get_weather", arguments: '{"city":"A"}' }], cost: 0.01 })], models);
    const exact = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [getWeather], max_tokens: 10 }, { maxCost: 0.02, maxSteps: 5 });
    expect(exact.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(2);
    const before = scripted([reply({ content: "never sent" })], models);
    const result = await before.client.chat.completions.runTools({ model: "priced/model", messages, tools: [getWeather], max_tokens: 10 }, { maxCost: 0.009 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.steps).toHaveLength(0);
    expect(result.message).toBeNull();
    expect(before.bodies).toHaveLength(0);
  });

  it("records every call of the step a repeated call stops, and treats empty arguments as {}", async () => {
    const args = ["", "{}", " "];
    let step = 0;
    const { client } = scriptedReplies([0, 1, 2].map(() => ({ calls: [{ name: "echo", arguments: args[step++ % 3]! }] })));
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [echoTool] });
    expect(result.stopReason).toBe("repeated_call");
    expect(result.steps).toHaveLength(3);
    expect(result.steps[2]!.toolCalls).toHaveLength(1);
    expect(result.steps[2]!.toolCalls[0]!.error).toMatch(/^Not run: /);
  });
});

describe("runTools(): events, streaming, abort and errors", () => {
  it("is iterable for its events, and awaiting it afterwards gives the same result without running again", async () => {
    const { client, bodies } = scripted([reply({ calls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }] }), reply({ content: "Sunny." })]);
    const run = client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    expect(types).toEqual(["step.start", "tool_call", "tool_result", "step.end", "step.start", "step.end"]);
    expect((await run).stopReason).toBe("done");
    expect(bodies).toHaveLength(2);
  });

  it("streams each step with stream: true, a chunk event per chunk, and asks for the usage chunk", async () => {
    const stepOne = [sseData(chunk(toolFragment({ index: 0, id: "c1", name: "get_weather", arguments: '{"city":"Oslo"}' }))), sseData(chunk({}, { finish: "tool_calls" })), sseData(usageChunk({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.5 })), DONE];
    const stepTwo = [sseData(chunk({ content: "Cold." }, { finish: "stop" })), sseData(usageChunk({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.25 })), DONE];
    const { client, bodies } = scripted([() => sseResponse(stepOne), () => sseResponse(stepTwo)]);
    const events: ToolRunEvent[] = [];
    const run = client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    for await (const event of run) events.push(event);
    const result = await run;
    expect(events.filter((event) => event.type === "chunk")).toHaveLength(5);
    expect(result.message?.content).toBe("Cold.");
    expect(result.cost).toBe(0.75);
    expect(bodies[0]!.stream_options).toEqual({ include_usage: true });
  });

  it("ends a streamed step at its finish_reason when the provider ignores the usage chunk the runner asked for itself; a caller who asked for it gets the cut", async () => {
    // No [DONE], no usage chunk: a provider that ignores stream_options (API.md, "How a stream ends").
    const noUsage = () => sseResponse([sseData(chunk({ content: "Cold." })), sseData(chunk({}, { finish: "stop" }))]);
    const { client, bodies } = scripted([noUsage]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    expect(result.stopReason).toBe("done");
    expect(result.message?.content).toBe("Cold.");
    expect(bodies[0]!.stream_options).toEqual({ include_usage: true });
    const asked = client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true, stream_options: { include_usage: true } });
    await expect(asked).rejects.toThrow("The stream ended before it finished (no [DONE], and no usage chunk, which stream_options.include_usage asked for): the connection was probably cut.");
  });

  it("aborts the request in flight and every running tool, and rejects with APIUserAbortError", async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const hanging = tool({
      name: "hanging",
      parameters: z.object({}),
      run: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            toolSawAbort = true;
            reject(new Error("stopped"));
          });
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const { client } = scripted([reply({ calls: [{ name: "hanging", arguments: "{}" }] })]);
    const error = await client.chat.completions.runTools({ model: "m", messages, tools: [hanging] }, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(toolSawAbort).toBe(true);
  });

  it("rejects with an API error of a step, its message naming the step", async () => {
    const { client } = scripted([reply({ calls: [{ name: "get_weather", arguments: '{"city":"A"}' }] }), () => Response.json({ error: { message: "bad" } }, { status: 400 })]);
    const error = (await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toMatch(/^Step 2 of the tool run failed: 400 bad/);
  });

  it("names what it cannot run before sending anything", async () => {
    const { client, bodies } = scripted([reply({ content: "x" })]);
    const plain = { type: "function" as const, function: { name: "plain", parameters: {} } };
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [plain as never] })).rejects.toThrow(/each needs a `run` function: define "plain" with tool/);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }, { maxSteps: 0 })).rejects.toThrow(ModelGateError);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [] })).rejects.toThrow(/`tools` must be a non-empty array/);
    expect(bodies).toHaveLength(0);
  });

  it("never starts a tool after the run was aborted while its arguments were checked", async () => {
    const controller = new AbortController();
    let started = false;
    const slowCheck = tool({
      name: "send",
      parameters: z.object({ to: z.string() }).refine(async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 10));
        return true;
      }),
      run: () => {
        started = true;
        return "sent";
      },
    });
    const { client } = scriptedReplies([{ calls: [{ name: "send", arguments: '{"to":"x"}' }] }]);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [slowCheck] }, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).toBe(false);
  });

  it("rejects two tools of one name, a reply without choices, and names the step of a catalogue failure", async () => {
    const { client } = scriptedReplies([{ noChoices: true }], { catalogueStatus: 500 });
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [echoTool, echoTool] })).rejects.toThrow(/two tools are named "echo"/);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [echoTool] })).rejects.toThrow(/^Step 1 of the tool run failed: the reply has no message/);
    await expect(client.chat.completions.runTools({ model: "priced/model", messages, tools: [echoTool] }, { maxCost: 1 })).rejects.toThrow(/^Step 1 of the tool run failed: 500 catalogue down/);
    expect(() => tool({ name: "any", parameters: jsonSchema({ anyOf: [{ type: "string" }, { type: "number" }] }) })).toThrow(ModelGateError);
  });
});

describe("runTools(): the events are a live view", () => {
  it("keeps no chunk event nobody reads, and every other event for a reader made later, in order", async () => {
    const log = new EventLog<string>();
    log.push("step.start");
    for (let i = 0; i < 100_000; i++) log.pushLive(`chunk ${i}`);
    log.push("step.end");
    expect(log.held).toBe(2);
    const late = log.reader();
    log.pushLive("chunk after the late reader");
    log.push("tool_call");
    log.end();
    const read: string[] = [];
    for (let next = await late.next(); !next.done; next = await late.next()) read.push(next.value);
    expect(read).toEqual(["step.start", "step.end", "chunk after the late reader", "tool_call"]);
    expect(log.held).toBe(3);
  });

  it("holds a chunk only until every reader that was there has read it, and nothing for a reader that stopped", async () => {
    const log = new EventLog<number>();
    const along = log.reader();
    const lagging = log.reader();
    let mostHeld = 0;
    const readAlong: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      log.pushLive(i);
      readAlong.push((await along.next()).value as number);
      mostHeld = Math.max(mostHeld, log.held);
    }
    expect(readAlong).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    // The reader that keeps up holds nothing; the one that lags holds what it has not read.
    expect(log.held).toBe(10_000);
    expect((await lagging.next()).value).toBe(0);
    expect(log.held).toBe(9_999);
    await lagging.return!();
    expect(log.held).toBe(0);
    expect(mostHeld).toBe(10_000);
    log.end();
    expect((await along.next()).done).toBe(true);
    expect((await lagging.next()).done).toBe(true);
  });

  it("gives a reader that keeps up a backlog of at most one event, however long the stream", async () => {
    const log = new EventLog<number>();
    const reader = log.reader();
    let mostHeld = 0;
    for (let i = 0; i < 50_000; i++) {
      log.pushLive(i);
      mostHeld = Math.max(mostHeld, log.held);
      await reader.next();
    }
    expect(mostHeld).toBe(1);
    expect(log.held).toBe(0);
  });

  it("keeps none of a streamed run's chunks when nobody iterates, and gives a later iterator every other event", async () => {
    const words = Array.from({ length: 2_000 }, (_, i) => `word${i} `);
    const stepOne = [sseData(chunk(toolFragment({ index: 0, id: "c1", name: "get_weather", arguments: '{"city":"Oslo"}' }))), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    const stepTwo = [...words.map((word) => sseData(chunk({ content: word }))), sseData(chunk({}, { finish: "stop" })), DONE];
    const { client } = scripted([() => sseResponse(stepOne), () => sseResponse(stepTwo)]);
    const logs = new Set<EventLog<ToolRunEvent>>();
    const pushLive = EventLog.prototype.pushLive;
    const seen = vi.spyOn(EventLog.prototype, "pushLive").mockImplementation(function (this: EventLog<ToolRunEvent>, event) {
      logs.add(this);
      pushLive.call(this, event);
    });
    try {
      const run = client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
      const result = await run;
      expect(result.message?.content).toBe(words.join(""));
      const [log] = [...logs];
      expect(seen).toHaveBeenCalledTimes(2 + words.length + 1);
      // step.start, tool_call, tool_result, step.end of each step: the 2,003 chunks are gone.
      expect(log!.held).toBe(6);
      const types: string[] = [];
      for await (const event of run) types.push(event.type);
      expect(types).toEqual(["step.start", "tool_call", "tool_result", "step.end", "step.start", "step.end"]);
    } finally {
      seen.mockRestore();
    }
  });

  it("gives an iterator made in the middle of a stream the chunks from then on, after every earlier event but the chunks", async () => {
    const encoder = new TextEncoder();
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
    const { client } = scripted([() => new Response(stream, { headers: { "content-type": "text/event-stream" } })]);
    const run = client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    const first = run[Symbol.asyncIterator]();
    body.enqueue(encoder.encode(sseData(chunk({ content: "early " }))));
    const firstSeen: string[] = [];
    for (let next = await first.next(); !next.done; next = await first.next()) {
      firstSeen.push(next.value.type);
      if (next.value.type === "chunk") break;
    }
    const second = run[Symbol.asyncIterator]();
    body.enqueue(encoder.encode(sseData(chunk({ content: "late" }, { finish: "stop" })) + DONE));
    body.close();
    const secondSeen: string[] = [];
    for (let next = await second.next(); !next.done; next = await second.next()) {
      secondSeen.push(next.value.type === "chunk" ? `chunk:${next.value.chunk.choices[0]?.delta.content}` : next.value.type);
    }
    expect(firstSeen).toEqual(["step.start", "chunk"]);
    expect(secondSeen).toEqual(["step.start", "chunk:late", "step.end"]);
    expect((await run).message?.content).toBe("early late");
  });
});
