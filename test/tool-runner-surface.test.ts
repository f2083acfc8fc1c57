import OpenAI from "openai";
import { zodFunction } from "openai/helpers/zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { APIUserAbortError, ChatCompletionStream, ModelGate, ModelGateError, Stream, tool, type ChatCompletionChunk, type ToolRun, type ToolRunEvent } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGateway } from "../src/testing/index.ts";
import { hearAll, names, printed } from "./fixtures/helper-events.ts";
import { eventually } from "./fixtures/mock-stream.ts";

// The awaitable runTools() result also has openai's runner surface, and runs tools in openai's
// runnable shape as openai's runner does. Where the mock gateway can answer both, the events are
// compared with those of the real `openai` package's runTools() on a twin gateway.

const model = "openai/gpt-4.1-mini";
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];
const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

let gateway: MockGateway;
let client: ModelGate;
beforeEach(() => {
  gateway = createMockGateway();
  client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
});
afterEach(async () => {
  await eventually(() => gateway.activeStreams === 0);
  expect(gateway.activeStreams).toBe(0);
});

/** The next reply calls get_weather for Paris (the mock's own calls pick a city at random). */
const callsParis = () => gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Paris"}' }] });

/** A tool in openai's runnable shape; `seen` gets each call's arguments and runner. */
function weatherFunction(seen: { args: unknown; runner: unknown }[] = []) {
  return {
    type: "function" as const,
    function: {
      function: async (args: { city: string }, runner: unknown) => {
        seen.push({ args, runner });
        return { city: args.city, celsius: 21 };
      },
      parse: JSON.parse,
      parameters,
      name: "get_weather",
      description: "Current weather in a city",
    },
  };
}

describe("runTools(): openai's runner events, compared with openai's own runner", () => {
  it("emits the same events with the same payloads as openai's runTools()", async () => {
    const ours = hearAll(client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }));
    const openai = new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: createMockGateway() as never, maxRetries: 0 });
    const theirs = hearAll(openai.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }));
    const [mine, openaiHeard] = await Promise.all([ours.ended, theirs.ended]);
    expect(names(mine)).toEqual(names(openaiHeard));
    expect(printed(mine, ["functionToolCall", "finalFunctionToolCall"])).toEqual(printed(openaiHeard, ["functionToolCall", "finalFunctionToolCall"]));
    expect(names(mine)).toEqual(expect.arrayContaining(["functionToolCall", "functionToolCallResult", "content", "finalContent", "totalUsage"]));
  });

  it("streamed, emits openai's chunk events too, as openai's streaming runner does", async () => {
    const ours = hearAll(client.chat.completions.runTools({ model, messages, tools: [weatherFunction()], stream: true }));
    const openai = new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: createMockGateway() as never, maxRetries: 0 });
    const theirs = hearAll(openai.chat.completions.runTools({ model, messages, tools: [weatherFunction()], stream: true }));
    const [mine, openaiHeard] = await Promise.all([ours.ended, theirs.ended]);
    // modelgate's steps ask for the usage chunk (for the run's cost): one chunk more per step, and totalUsage.
    const alike = (heard: typeof mine) => names(heard).filter((event) => event !== "chunk" && event !== "totalUsage");
    expect(alike(mine)).toEqual(alike(openaiHeard));
    expect(printed(mine, ["totalUsage", "functionToolCall", "finalFunctionToolCall"])).toEqual(printed(openaiHeard, ["totalUsage", "functionToolCall", "finalFunctionToolCall"]));
    expect(names(mine)).toEqual(expect.arrayContaining(["chunk", "content.delta", "content.done", "tool_calls.function.arguments.done"]));
  });
});

describe("runTools(): openai's runner surface", () => {
  it("gives the final values, the conversation and every completion, as the result has them", async () => {
    callsParis();
    const run = client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] });
    expect(run.messages).toEqual([]);
    expect(run.allChatCompletions()).toEqual([]);
    const result = await run;
    expect(run.messages).toBe(result.messages);
    expect(run.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(run.allChatCompletions()).toEqual(result.steps.map((step) => step.completion));
    expect(await run.finalContent()).toBe(result.message?.content);
    expect(await run.finalMessage()).toEqual({ ...result.message, refusal: null, parsed: null });
    expect(await run.finalChatCompletion()).toBe(result.steps.at(-1)?.completion);
    expect(await run.finalFunctionToolCall()).toEqual(result.steps[0]?.toolCalls[0]?.call.function);
    expect(await run.finalFunctionToolCallResult()).toBe('{"city":"Paris","celsius":21}');
    expect(await run.totalUsage()).toEqual({ prompt_tokens: result.usage.prompt_tokens, completion_tokens: result.usage.completion_tokens, total_tokens: result.usage.total_tokens });
    await expect(run.done()).resolves.toBeUndefined();
  });

  it("toReadableStream() writes the chunks of every streamed step (not the run's events), as openai's streaming runner does", async () => {
    callsParis();
    const run = client.chat.completions.runTools({ model, messages, tools: [weatherFunction()], stream: true });
    const [ours, theirs] = run.toReadableStream().tee();
    const { ChatCompletionStream: OpenAIChatCompletionStream } = await import("openai/lib/ChatCompletionStream");
    const [content, openaiContent] = await Promise.all([ChatCompletionStream.fromReadableStream(ours).finalContent(), OpenAIChatCompletionStream.fromReadableStream(theirs).finalContent()]);
    expect(content).toBe(await run.finalContent());
    expect(content).toBeTruthy();
    expect(openaiContent).toBe(content);
    expect((await run.finalChatCompletion()).choices[0]?.message.tool_calls).toBeUndefined();
  });

  it("toReadableStream() of a run without stream: true writes the error frame saying so, not an empty answer", async () => {
    const run = client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] });
    const error = await Stream.fromReadableStream<ChatCompletionChunk>(run.toReadableStream())
      .finalChatCompletion()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/needs stream: true/);
    await run;
  });

  it("is awaitable and iterable as before, and then, catch and finally behave as a promise's", async () => {
    const run = client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] });
    const events: ToolRunEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events.map((event) => event.type)).toEqual(["step.start", "tool_call", "tool_result", "step.end", "step.start", "step.end"]);
    expect((await run).stopReason).toBe("done");
    let settled = false;
    await run.finally(() => (settled = true));
    expect(settled).toBe(true);
    const failing = client.chat.completions.runTools({ model, messages, tools: [] });
    expect(await failing.catch((error: unknown) => error)).toBeInstanceOf(ModelGateError);
  });

  it("stops on abort(): abort then end, the run rejects with APIUserAbortError, and the running tool's signal aborts", async () => {
    let toolSignal: AbortSignal | undefined;
    const slow = tool({
      name: "get_weather",
      parameters: z.object({ city: z.string() }),
      run: (_args, { signal }) => {
        toolSignal = signal;
        return new Promise(() => {});
      },
    });
    const run = client.chat.completions.runTools({ model, messages, tools: [slow] });
    const { ended } = hearAll(run);
    await eventually(() => toolSignal !== undefined);
    run.abort();
    expect(names(await ended).slice(-2)).toEqual(["abort", "end"]);
    expect(toolSignal?.aborted).toBe(true);
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(run.finalContent()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("turns a failure into the error event, and rejects done() and the run with it, without an unhandled rejection", async () => {
    const run = client.chat.completions.runTools({ model: "", messages, tools: [weatherFunction()] });
    const error = await run.emitted("error");
    expect(error.message).toMatch(/`model`/);
    await expect(run.done()).rejects.toBe(error);
    await expect(run).rejects.toBe(error);
  });

  it("never lets a listener of end or error that throws crash the process: after a success the run rejects with it; after a failure it keeps the run's error and the throw goes to the client's logger", async () => {
    const crashes: unknown[] = [];
    const record = (reason: unknown) => crashes.push(reason);
    process.on("unhandledRejection", record).on("uncaughtException", record);
    try {
      const logged: unknown[][] = [];
      const logger = { error: (...line: unknown[]) => logged.push(line), warn: () => {}, info: () => {}, debug: () => {} };
      const logging = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, logger });
      const endBug = new Error("end listener bug");
      const succeeded = logging.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }).on("end", () => {
        throw endBug;
      });
      const rejected = (await succeeded.then(() => undefined, (error: unknown) => error)) as ModelGateError;
      expect(rejected).toBeInstanceOf(ModelGateError);
      expect(rejected.message).toMatch(/`end` listener threw: end listener bug/);
      expect(rejected.cause).toBe(endBug);
      await expect(succeeded.done()).rejects.toBe(rejected);
      await expect(succeeded.finalContent()).rejects.toBe(rejected);

      const failed = logging.chat.completions.runTools({ model, messages, tools: [weatherFunction()] });
      failed
        .on("message", () => {
          throw new Error("message listener bug");
        })
        .on("error", () => {
          throw new Error("error listener bug");
        })
        .on("end", () => {
          throw new Error("second end listener bug");
        });
      const heard: unknown[] = [];
      failed.on("error", (error) => heard.push(error));
      await expect(failed).rejects.toThrow("message listener bug");
      expect(heard, "a listener after the one that threw is still told").toHaveLength(1);
      expect(logged.map(([line]) => line)).toEqual([expect.stringMatching(/`error` listener threw: error listener bug/), expect.stringMatching(/`end` listener threw: second end listener bug/)]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(crashes).toEqual([]);
    } finally {
      process.off("unhandledRejection", record).off("uncaughtException", record);
    }
  });

  it("rejects a listener that is not a function before sending anything, with a ModelGateError naming the event", async () => {
    const run = client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }).on("message", 5 as never);
    const error = await run.then(() => undefined, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/on\("message"\): `listener` must be a function/);
    expect(gateway.requests).toHaveLength(0);
  });

  it("takes maxChatCompletions as openai's name for maxSteps", async () => {
    const result = await client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }, { maxChatCompletions: 1 });
    expect(result.stopReason).toBe("max_steps");
    expect(result.steps).toHaveLength(1);
    await expect(client.chat.completions.runTools({ model, messages, tools: [weatherFunction()] }, { maxChatCompletions: 0 })).rejects.toThrow(/`maxChatCompletions` must be a whole number/);
  });
});

describe("runTools(): tools in openai's runnable shape", () => {
  it("calls function(args, runner) with what parse returned, and the run as runner", async () => {
    const seen: { args: unknown; runner: unknown }[] = [];
    callsParis();
    const run: ToolRun = client.chat.completions.runTools({ model, messages, tools: [weatherFunction(seen)] });
    await run;
    expect(seen).toEqual([{ args: { city: "Paris" }, runner: run }]);
    const sent = (gateway.requests[0]?.body as { tools: unknown[] }).tools;
    expect(sent).toEqual([{ type: "function", function: { name: "get_weather", parameters, description: "Current weather in a city" } }]);
  });

  it("passes the raw JSON text without parse, names the tool after its function, and tells the model when parse throws", async () => {
    const raw: unknown[] = [];
    async function get_weather(args: string) {
      raw.push(args);
      return "sunny";
    }
    callsParis();
    await client.chat.completions.runTools({ model, messages, tools: [{ type: "function", function: { function: get_weather, parameters } }] });
    expect(raw).toEqual(['{"city":"Paris"}']);

    const result = await client.chat.completions.runTools(
      { model, messages, tools: [{ type: "function", function: { name: "get_weather", function: () => "never", parse: () => { throw new Error("city must be in France"); }, parameters } }] },
      { maxSteps: 1 },
    );
    expect(result.messages[2]).toMatchObject({ role: "tool", content: "city must be in France" });
  });

  it("runs a zodFunction() tool with its parsed arguments, and refuses one without a function", async () => {
    const calls: unknown[] = [];
    const getWeather = zodFunction({ name: "get_weather", parameters: z.object({ city: z.string() }), function: (args) => (calls.push(args), "sunny") });
    callsParis();
    const result = await client.chat.completions.runTools({ model, messages, tools: [getWeather] });
    expect(calls).toEqual([{ city: "Paris" }]);
    expect(result.messages[2]).toMatchObject({ role: "tool", content: "sunny" });
    const withoutFunction = zodFunction({ name: "get_weather", parameters: z.object({ city: z.string() }) });
    await expect(client.chat.completions.runTools({ model, messages, tools: [withoutFunction as never] })).rejects.toThrow(/zodFunction\(\) was given no `function`/);
  });

  it("ends the run once a function tool_choice forces has run, as openai's does; tool() tools keep going", async () => {
    const tool_choice = { type: "function" as const, function: { name: "get_weather" } };
    const forced = await client.chat.completions.runTools({ model, messages, tools: [weatherFunction()], tool_choice });
    expect(forced.stopReason).toBe("done");
    expect(forced.steps).toHaveLength(1);
    expect(forced.messages.at(-1)?.role).toBe("tool");

    const ours = tool({ name: "get_weather", parameters: z.object({ city: z.string() }), run: () => "sunny" });
    const kept = await client.chat.completions.runTools({ model, messages, tools: [ours], tool_choice }, { maxSteps: 2 });
    expect(kept.steps).toHaveLength(2);
  });
});
