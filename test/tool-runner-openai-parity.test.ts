import { describe, expect, it } from "vitest";
import { z } from "zod";
import ModelGate, { ChatCompletionStream, tool, type ChatCompletionMessageParam } from "modelgate";
import { ChatCompletionStreamingRunner } from "openai/lib/ChatCompletionStreamingRunner";
import { chunks, completion, scriptedFetch, type Scripted } from "./openai-suite/scripted-fetch.ts";

// What openai's runner does that its users rely on, kept by ours: the bridge carries the tool
// messages, afterCompletion, toolContext, parallel_tool_calls: false, openai's null fields and
// its sentences for a call it cannot run.

function client(replies: Scripted[]) {
  const { fetch, bodies } = scriptedFetch(replies);
  return { client: new ModelGate({ apiKey: "sk-parity-key-0123456789", baseURL: "https://gateway.test", fetch, maxRetries: 0 }), bodies };
}

const user: ChatCompletionMessageParam = { role: "user", content: "Weather in Paris?" };
const weather = (reply: unknown = "sunny") => ({
  type: "function" as const,
  function: { name: "getWeather", description: "weather", parameters: { type: "object" }, parse: JSON.parse, function: () => reply },
});
const callTurn = [completion("1", { calls: [["c1", "getWeather", '{"city":"Paris"}']] }), completion("2", { content: "Sunny." })];
const streamedTurns = [chunks("1", { calls: [["c1", "getWeather", '{"city":"Paris"}'], ["c2", "getWeather", '{"city":"Rome"}']] }), chunks("2", { content: "Sunny in both." })];

describe("runTools(): toReadableStream() carries the tool messages, as openai's streaming runner writes them", () => {
  it("writes openai's message frame for each tool message, which openai's reader and ours rebuild into the whole conversation", async () => {
    const { client: mg } = client(streamedTurns);
    const runner = mg.chat.completions.runTools({ model: "m", stream: true, messages: [user], tools: [weather()] });
    const text = await new Response(runner.toReadableStream()).text();
    await runner.done();
    const expected = runner.messages.slice(1);
    expect(expected.map((message) => message.role)).toEqual(["assistant", "tool", "tool", "assistant"]);

    const ours = ChatCompletionStream.fromReadableStream(new Response(text).body!);
    await ours.done();
    const theirs = ChatCompletionStreamingRunner.fromReadableStream(new Response(text).body!);
    await theirs.done();
    for (const read of [ours.messages, theirs.messages]) {
      expect(read.map((message) => message.role)).toEqual(["assistant", "tool", "tool", "assistant"]);
      expect(read[0]).toMatchObject({ role: "assistant", content: null, refusal: null, tool_calls: [{ id: "c1", function: { name: "getWeather", arguments: '{"city":"Paris"}' } }, { id: "c2" }] });
      expect(read.slice(1, 3)).toEqual(expected.slice(1, 3));
      expect(read[3]).toMatchObject({ role: "assistant", content: "Sunny in both.", refusal: null });
    }
    expect(ours.allChatCompletions()).toHaveLength(2);
    expect(theirs.allChatCompletions()).toHaveLength(2);
  });
});

describe("runTools(): afterCompletion(completion, runner)", () => {
  it("is awaited after each step's tool messages and after the final reply; what it pushes onto messages goes out next", async () => {
    const { client: mg, bodies } = client(callTurn);
    const seen: [string, string[]][] = [];
    const runner = mg.chat.completions.runTools(
      { model: "m", messages: [user], tools: [weather()] },
      {
        afterCompletion: async (done, run) => {
          await Promise.resolve();
          seen.push([done.id, run.messages.map((message) => message.role)]);
          if (done.id === "1") run.messages.push({ role: "user", content: "In Celsius, please." });
        },
      },
    );
    expect(await runner.finalContent()).toBe("Sunny.");
    expect(seen).toEqual([
      ["1", ["user", "assistant", "tool"]],
      ["2", ["user", "assistant", "tool", "user", "assistant"]],
    ]);
    expect((bodies[1]!.messages as { content: unknown }[]).at(-1)).toEqual({ role: "user", content: "In Celsius, please." });
  });

  it("is awaited the same way in a streamed run", async () => {
    const { client: mg, bodies } = client(streamedTurns);
    const seen: string[][] = [];
    const runner = mg.chat.completions.runTools(
      { model: "m", stream: true, messages: [user], tools: [weather()] },
      {
        afterCompletion: (_done, run) => {
          seen.push(run.messages.map((message) => message.role));
          if (seen.length === 1) run.messages.push({ role: "user", content: "Briefly." });
        },
      },
    );
    await runner.done();
    expect(seen).toEqual([
      ["user", "assistant", "tool", "tool"],
      ["user", "assistant", "tool", "tool", "user", "assistant"],
    ]);
    expect((bodies[1]!.messages as unknown[]).at(-1)).toEqual({ role: "user", content: "Briefly." });
  });

  it("ends the run with what it throws, and rejects an afterCompletion that is not a function before sending", async () => {
    const { client: mg, bodies } = client(callTurn);
    const failing = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] }, { afterCompletion: () => Promise.reject(new Error("audit log down")) });
    await expect(failing.done()).rejects.toThrow("audit log down");
    const wrong = client(callTurn);
    const bad = wrong.client.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] }, { afterCompletion: "log" as never });
    await expect(bad.done()).rejects.toThrow(/afterCompletion/);
    expect(wrong.bodies).toHaveLength(0);
    expect(bodies).toHaveLength(1);
  });
});

describe("runTools(): toolContext", () => {
  it("goes to openai-shaped functions as their third argument and never into the request", async () => {
    const { client: mg, bodies } = client(callTurn);
    const got: unknown[] = [];
    const context = { userID: 7 };
    const result = await mg.chat.completions.runTools({
      model: "m",
      messages: [user],
      toolContext: context,
      tools: [{ type: "function", function: { name: "getWeather", parameters: { type: "object" }, parse: JSON.parse, function: (args: unknown, _runner: unknown, ctx: unknown) => (got.push(args, ctx), "ok") } }],
    });
    expect(result.stopReason).toBe("done");
    expect(got).toEqual([{ city: "Paris" }, context]);
    expect(got[1]).toBe(context);
    for (const body of bodies) expect("toolContext" in body).toBe(false);
  });
});

describe("runTools(): parallel_tool_calls: false", () => {
  it("runs a turn's calls one after another, in call order, each answered before the next starts", async () => {
    const { client: mg } = client([completion("1", { calls: [["a", "slow", '{"n":1}'], ["b", "slow", '{"n":2}'], ["c", "slow", '{"n":3}']] }), completion("2", { content: "done" })]);
    const log: string[] = [];
    let running = 0;
    const slow = tool({
      name: "slow",
      parameters: z.object({ n: z.number() }),
      run: async ({ n }) => {
        running++;
        log.push(`start ${n} (${running} running)`);
        // Let any other call start if it were going to: one that runs alone sees only itself.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        running--;
        log.push(`end ${n}`);
        return n;
      },
    });
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [slow], parallel_tool_calls: false });
    runner.on("message", (message) => {
      if (message.role === "tool") log.push(`message ${message.tool_call_id}`);
    });
    await runner.done();
    expect(log).toEqual(["start 1 (1 running)", "end 1", "message a", "start 2 (1 running)", "end 2", "message b", "start 3 (1 running)", "end 3", "message c"]);
  });
});

describe("runTools(): openai's null fields in message events and messages", () => {
  it("gives every assistant turn parsed: null, each call parsed_arguments (null for a tool that parses nothing), and the completion the same fields", async () => {
    const { client: mg } = client(callTurn);
    const events: ChatCompletionMessageParam[] = [];
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] }).on("message", (message) => events.push(message));
    await runner.done();
    expect(events[0]).toEqual({
      role: "assistant",
      content: null,
      refusal: null,
      parsed: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "getWeather", arguments: '{"city":"Paris"}', parsed_arguments: null } }],
    });
    expect(events[2]).toEqual({ role: "assistant", content: "Sunny.", refusal: null, parsed: null });
    expect(runner.messages.slice(1)).toEqual(events);
    expect(runner.allChatCompletions().map((done) => done.choices[0]!.message)).toEqual([events[0], events[2]]);
  });

  it("gives a streamed turn refusal: null, as openai's stream helper finishes a message", async () => {
    const { client: mg } = client(streamedTurns);
    const runner = mg.chat.completions.runTools({ model: "m", stream: true, messages: [user], tools: [weather()] });
    await runner.done();
    expect(runner.messages[1]).toMatchObject({ role: "assistant", content: null, refusal: null, parsed: null });
    expect(runner.messages[4]).toEqual({ role: "assistant", content: "Sunny in both.", refusal: null, parsed: null });
  });

  it("gives a strict function tool's calls their arguments parsed by JSON.parse", async () => {
    const { client: mg } = client(callTurn);
    const strict = { ...weather(), function: { ...weather().function, strict: true } };
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [strict] });
    await runner.done();
    expect(runner.messages[1]).toMatchObject({ tool_calls: [{ function: { parsed_arguments: { city: "Paris" } } }] });
  });

  it("still emits the message events of the turns before an abort", async () => {
    const { client: mg } = client([completion("1", { calls: [["c1", "getWeather", "{}"]] }), completion("2", { calls: [["c2", "getWeather", "{}"]] }), completion("3", { content: "x" })]);
    const roles: string[] = [];
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] }, { afterCompletion: (done, run) => (done.id === "2" ? run.abort() : undefined) });
    runner.on("message", (message) => roles.push(message.role));
    await expect(runner.done()).rejects.toThrow();
    expect(runner.aborted).toBe(true);
    expect(roles).toEqual(["assistant", "tool", "assistant", "tool"]);
  });
});

describe("runTools(): openai's tool messages for calls it cannot run", () => {
  it("answers a call of no known tool with openai's sentence, and a rejected parse with its error's message", async () => {
    const { client: mg } = client([
      completion("1", { calls: [["a", "teleport", "{}"], ["b", "getWeather", "not json"]] }),
      completion("2", { content: "ok" }),
    ]);
    const result = await mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] });
    const tools = result.messages.filter((message) => message.role === "tool").map((message) => message.content);
    expect(tools[0]).toBe('Invalid tool_call: "teleport". Available options are: "getWeather". Please try again');
    let parseError = "";
    try {
      JSON.parse("not json");
    } catch (error) {
      parseError = (error as Error).message;
    }
    expect(tools[1]).toBe(parseError);
  });

  it("answers a call of another tool than the one tool_choice forces with openai's sentence, without running it", async () => {
    const { client: mg } = client([completion("1", { calls: [["a", "other", "{}"]] }), completion("2", { calls: [["b", "getWeather", "{}"]] })]);
    let ran = false;
    const other = { type: "function" as const, function: { name: "other", parameters: {}, function: () => ((ran = true), "x") } };
    const result = await mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather(), other], tool_choice: { type: "function", function: { name: "getWeather" } } });
    expect(ran).toBe(false);
    expect(result.messages[2]).toEqual({ role: "tool", tool_call_id: "a", content: 'Invalid tool_call: "other". "getWeather" requested. Please try again' });
    expect(result.messages[4]).toEqual({ role: "tool", tool_call_id: "b", content: "sunny" });
  });
});

describe("runTools(): openai's runner methods", () => {
  it("has every helper method openai's runner has", () => {
    const { client: mg } = client(callTurn);
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] });
    for (const name of ["finalChatCompletion", "finalContent", "finalMessage", "finalFunctionToolCall", "finalFunctionToolCallResult", "totalUsage", "allChatCompletions", "done", "abort", "on", "off", "once", "emitted", "events", "toReadableStream"] as const) {
      expect(typeof runner[name], name).toBe("function");
    }
    expect("currentChatCompletionSnapshot" in runner).toBe(true);
    runner.abort();
    return runner.done().catch(() => {});
  });

  it("events(name) yields each event's arguments in a loop, ends at the end, and rejects with the run's failure", async () => {
    const { client: mg } = client(callTurn);
    const runner = mg.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] });
    const roles: string[] = [];
    for await (const [message] of runner.events("message")) roles.push(message.role);
    expect(roles).toEqual(["assistant", "tool", "assistant"]);
    const failing = client([]).client.chat.completions.runTools({ model: "m", messages: [user], tools: [weather()] });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const args of failing.events("message")) seen.push(args);
      })(),
    ).rejects.toThrow(/no reply scripted/);
    expect(seen).toEqual([]);
  });

  it("currentChatCompletionSnapshot holds a streamed step as its chunks build it, and is gone once the step's completion is finished", async () => {
    const { client: mg } = client(streamedTurns);
    const runner = mg.chat.completions.runTools({ model: "m", stream: true, messages: [user], tools: [weather()] });
    const seen: unknown[] = [];
    runner.on("content", () => seen.push(runner.currentChatCompletionSnapshot?.choices[0]?.message.content));
    runner.on("chatCompletion", () => seen.push(runner.currentChatCompletionSnapshot));
    await runner.done();
    expect(seen).toEqual([undefined, "Sunny ", "Sunny in ", "Sunny in both.", undefined]);
  });
});
