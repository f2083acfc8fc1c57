import { describe, expect, it } from "vitest";
import OpenAI from "openai";
import { ChatCompletionStreamingRunner } from "openai/lib/ChatCompletionStreamingRunner";
import ModelGate, { ChatCompletionStream } from "modelgate";
import { chunks, completion, scriptedFetch, type Scripted } from "./scripted-fetch.ts";

// What openai-node's own runner tests (tests/lib/ChatCompletionRunFunctions.test.ts) check of
// `runTools()`, written again here, and run twice: with modelgate and with the openai package,
// against the same scripted replies. A case is a habit openai's users rely on; each must pass
// under both SDKs. Only the client class, its key and its base URL differ between the two
// runs, as for a user who migrates; the body reader for toReadableStream() is each SDK's own.

const SDKS = [
  { name: "modelgate", make: (fetch: unknown) => new ModelGate({ apiKey: "sk-suite-0123456789", baseURL: "https://gateway.test", fetch: fetch as never, maxRetries: 0 }), reader: ChatCompletionStream },
  { name: "openai", make: (fetch: unknown) => new OpenAI({ apiKey: "sk-suite-0123456789", baseURL: "https://gateway.test/v1", fetch: fetch as never, maxRetries: 0 }), reader: ChatCompletionStreamingRunner },
] as const;

type AnyRunner = {
  on(event: string, listener: (...args: never[]) => unknown): AnyRunner;
  once(event: string, listener: (...args: never[]) => unknown): AnyRunner;
  done(): Promise<void>;
  abort(): void;
  messages: unknown[];
  allChatCompletions(): unknown[];
  finalContent(): Promise<string | null>;
  finalMessage(): Promise<unknown>;
  finalChatCompletion(): Promise<unknown>;
  finalFunctionToolCall(): Promise<unknown>;
  finalFunctionToolCallResult(): Promise<string | undefined>;
  totalUsage(): Promise<unknown>;
  toReadableStream(): ReadableStream<Uint8Array>;
  events(event: string): AsyncIterableIterator<unknown[]>;
  readonly currentChatCompletionSnapshot: { choices: { message: { content?: string | null } }[] } | undefined;
  readonly errored: boolean;
  readonly aborted: boolean;
};

/** Everything a runner tells, and the checks openai's tests make of any finished run: the final events agree with the events before and with the methods. */
class Listener {
  readonly messages: Record<string, unknown>[] = [];
  readonly completions: unknown[] = [];
  readonly calls: unknown[] = [];
  readonly results: string[] = [];
  readonly contents: string[] = [];
  final: Record<string, unknown> = {};
  error: Error | undefined;
  ended = false;
  onceMessages = 0;

  constructor(readonly runner: AnyRunner) {
    runner
      .on("message", (message: never) => this.messages.push(message))
      .on("chatCompletion", (done: never) => this.completions.push(done))
      .on("functionToolCall", (call: never) => this.calls.push(call))
      .on("functionToolCallResult", (result: never) => this.results.push(result))
      .on("content", (content: never) => this.contents.push(content))
      .on("error", (error: never) => (this.error = error))
      .on("abort", (error: never) => (this.error = error))
      .on("end", () => (this.ended = true))
      .once("message", () => this.onceMessages++);
    for (const event of ["finalContent", "finalMessage", "finalChatCompletion", "finalFunctionToolCall", "finalFunctionToolCallResult", "totalUsage"]) {
      runner.on(event, (value: never) => (this.final[event] = value));
    }
  }

  async check({ error }: { error?: string } = {}): Promise<void> {
    const { runner } = this;
    expect(this.ended).toBe(true);
    expect(this.onceMessages).toBeLessThanOrEqual(1);
    if (error) {
      expect(this.error?.message).toBe(error);
      expect(runner.errored).toBe(true);
      for (const final of [runner.finalContent(), runner.finalMessage(), runner.finalChatCompletion(), runner.done()]) await expect(final).rejects.toThrow(error);
      return;
    }
    expect(this.error).toBeUndefined();
    expect(runner.errored).toBe(false);
    const assistants = this.messages.filter((message) => message.role === "assistant");
    expect(this.final.finalMessage).toEqual(assistants.at(-1));
    expect(await runner.finalMessage()).toEqual(this.final.finalMessage);
    expect(await runner.finalContent()).toEqual((assistants.at(-1)?.content as string | null) ?? null);
    expect(this.final.finalChatCompletion).toEqual(this.completions.at(-1));
    expect(await runner.finalChatCompletion()).toEqual(this.completions.at(-1));
    expect(await runner.finalFunctionToolCall()).toEqual(this.calls.at(-1));
    expect(await runner.finalFunctionToolCallResult()).toEqual(this.results.at(-1));
    expect(runner.allChatCompletions()).toEqual(this.completions);
    expect(runner.messages.slice(-this.messages.length)).toEqual(this.messages);
  }
}

const user = { role: "user" as const, content: "How many properties are in {\"a\": 1, \"b\": 2, \"c\": 3}?" };
const numProperties = {
  type: "function" as const,
  function: {
    name: "numProperties",
    description: "counts the properties of an object",
    parameters: { type: "object" },
    parse: (text: string): object => {
      const value: unknown = JSON.parse(text);
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("must be an object");
      return value;
    },
    function: (value: object) => String(Object.keys(value).length),
  },
};
const getWeather = { type: "function" as const, function: { name: "getWeather", description: "the weather", parameters: {}, function: () => "it's raining" } };
const usage = (prompt: number, reply: number) => ({ prompt_tokens: prompt, completion_tokens: reply, total_tokens: prompt + reply });

for (const sdk of SDKS) {
  const run = (replies: Scripted[], params: Record<string, unknown>, options?: Record<string, unknown>) => {
    const { fetch, bodies } = scriptedFetch(replies);
    const client = sdk.make(fetch) as unknown as { chat: { completions: { runTools(params: unknown, options?: unknown): AnyRunner } } };
    const runner = client.chat.completions.runTools({ model: "gpt-4.1-mini", messages: [user], ...params }, options);
    return { runner, listener: new Listener(runner), bodies };
  };
  const sentMessages = (bodies: Record<string, unknown>[], index: number) => bodies[index]!.messages as Record<string, unknown>[];

  describe(`${sdk.name}: runTools() without streaming`, () => {
    it("successful flow: runs the call, sends its result, ends with the answer", async () => {
      const { runner, listener, bodies } = run([completion("1", { calls: [["123", "getWeather", ""]] }), completion("2", { content: "it's raining" })], { tools: [getWeather] });
      await runner.done();
      expect(bodies).toHaveLength(2);
      expect(sentMessages(bodies, 0)).toEqual([user]);
      expect(sentMessages(bodies, 1)).toEqual([user, { role: "assistant", content: null, tool_calls: [{ id: "123", type: "function", function: { name: "getWeather", arguments: "" } }] }, { role: "tool", tool_call_id: "123", content: "it's raining" }]);
      expect(listener.messages).toEqual([
        { role: "assistant", content: null, refusal: null, parsed: null, tool_calls: [{ id: "123", type: "function", function: { name: "getWeather", arguments: "", parsed_arguments: null } }] },
        { role: "tool", tool_call_id: "123", content: "it's raining" },
        { role: "assistant", content: "it's raining", refusal: null, parsed: null },
      ]);
      expect(listener.results).toEqual(["it's raining"]);
      expect(listener.contents).toEqual(["it's raining"]);
      await listener.check();
    });

    it("flow with abort: the turns before the abort stay, and the run fails with the abort", async () => {
      const { runner, listener, bodies } = run(
        [completion("1", { calls: [["123", "getWeather", ""]] }), completion("2", { content: "never read" })],
        { tools: [getWeather] },
        { afterCompletion: (_done: unknown, self: AnyRunner) => self.abort() },
      );
      await runner.done().catch(() => {});
      expect(bodies).toHaveLength(1);
      expect(listener.messages.map((message) => message.role)).toEqual(["assistant", "tool"]);
      expect(runner.aborted).toBe(true);
      await listener.check({ error: "Request was aborted." });
    });

    it("successful flow with parse: the function gets what parse returned, and the usage is summed", async () => {
      const { runner, listener } = run([completion("1", { calls: [["123", "numProperties", '{"a": 1, "b": 2, "c": 3}']] }, usage(20, 5)), completion("2", { content: "There are 3 properties." }, usage(25, 10))], { tools: [numProperties] });
      await runner.done();
      expect(listener.results).toEqual(["3"]);
      expect(await runner.totalUsage()).toEqual(usage(45, 15));
      expect(listener.final.totalUsage).toEqual(usage(45, 15));
      await listener.check();
    });

    it("flow with parse error: what parse threw is the tool message, and the model may try again", async () => {
      const { runner, listener } = run(
        [completion("1", { calls: [["1", "numProperties", "[1, 2, 3]"]] }), completion("2", { calls: [["2", "numProperties", '{"a": 1, "b": 2, "c": 3}']] }), completion("3", { content: "3" })],
        { tools: [numProperties] },
      );
      await runner.done();
      expect(listener.results).toEqual(["must be an object", "3"]);
      await listener.check();
    });

    it("single function call: a forced function ends the run once it has run", async () => {
      const { runner, listener, bodies } = run([completion("1", { calls: [["123", "getWeather", ""]] })], { tools: [getWeather], tool_choice: { type: "function", function: { name: "getWeather" } } });
      await runner.done();
      expect(bodies).toHaveLength(1);
      expect(listener.results).toEqual(["it's raining"]);
      await listener.check();
    });

    it("wrong function name: openai's sentence names the tools, and the model may try again", async () => {
      const { runner, listener } = run([completion("1", { calls: [["1", "get_weather", ""]] }), completion("2", { calls: [["2", "getWeather", ""]] }), completion("3", { content: "it's raining" })], { tools: [getWeather] });
      await runner.done();
      expect(listener.results).toEqual(['Invalid tool_call: "get_weather". Available options are: "getWeather". Please try again', "it's raining"]);
      await listener.check();
    });

    it("wrong function name with single function call: openai's sentence names the forced function", async () => {
      const { runner, listener } = run([completion("1", { calls: [["1", "numProperties", "{}"]] }), completion("2", { calls: [["2", "getWeather", ""]] })], {
        tools: [getWeather, numProperties],
        tool_choice: { type: "function", function: { name: "getWeather" } },
      });
      await runner.done();
      expect(listener.results).toEqual(['Invalid tool_call: "numProperties". "getWeather" requested. Please try again', "it's raining"]);
      await listener.check();
    });

    it("toolContext and afterCompletion: the context is each function's third argument, afterCompletion runs after each step's tool messages", async () => {
      const seen: unknown[] = [];
      const { runner, listener, bodies } = run(
        [completion("1", { calls: [["1", "withContext", "{}"]] }), completion("2", { content: "ok" })],
        { toolContext: { tenant: "t1" }, tools: [{ type: "function", function: { name: "withContext", parameters: {}, function: (_args: string, _self: unknown, context: unknown) => JSON.stringify(context) } }] },
        { afterCompletion: (done: { id: string }, self: AnyRunner) => void seen.push([done.id, self.messages.length]) },
      );
      await runner.done();
      expect(listener.results).toEqual(['{"tenant":"t1"}']);
      expect(seen).toEqual([["1", 3], ["2", 4]]);
      for (const body of bodies) expect(body).not.toHaveProperty("toolContext");
      await listener.check();
    });

    it("parallel_tool_calls: false runs the calls one after another, in order", async () => {
      const order: string[] = [];
      const step = (name: string) => ({ type: "function" as const, function: { name, parameters: {}, function: async () => (order.push(`${name} start`), await Promise.resolve(), order.push(`${name} end`), name) } });
      const { runner, listener } = run([completion("1", { calls: [["1", "first", ""], ["2", "second", ""]] }), completion("2", { content: "ok" })], { tools: [step("first"), step("second")], parallel_tool_calls: false });
      await runner.done();
      expect(order).toEqual(["first start", "first end", "second start", "second end"]);
      await listener.check();
    });
  });

  describe(`${sdk.name}: runTools() with stream: true`, () => {
    it("successful flow: tells the text as it streams, and keeps the conversation", async () => {
      const deltas: string[] = [];
      const { runner, listener, bodies } = run([chunks("1", { calls: [["123", "getWeather", "{}"]] }), chunks("2", { content: "it's raining today" })], { stream: true, tools: [getWeather] });
      runner.on("content", (delta: never) => deltas.push(delta));
      await runner.done();
      expect(deltas.join("")).toBe("it's raining today");
      expect(bodies.map((body) => body.stream)).toEqual([true, true]);
      expect(listener.messages).toEqual([
        { role: "assistant", content: null, refusal: null, parsed: null, tool_calls: [{ id: "123", type: "function", function: { name: "getWeather", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "123", content: "it's raining" },
        { role: "assistant", content: "it's raining today", refusal: null, parsed: null },
      ]);
      expect(listener.results).toEqual(["it's raining"]);
      expect(await runner.finalContent()).toBe("it's raining today");
    });

    it("events() and currentChatCompletionSnapshot: a loop over the messages, and the step's text so far while it streams", async () => {
      const { runner } = run([chunks("1", { calls: [["123", "getWeather", "{}"]] }), chunks("2", { content: "it's raining today" })], { stream: true, tools: [getWeather] });
      const sofar: unknown[] = [];
      runner.on("content", () => sofar.push(runner.currentChatCompletionSnapshot?.choices[0]?.message.content));
      const roles: unknown[] = [];
      for await (const [message] of runner.events("message")) roles.push((message as { role: string }).role);
      expect(roles).toEqual(["assistant", "tool", "assistant"]);
      expect(sofar).toEqual(["it's ", "it's raining ", "it's raining today"]);
      expect(runner.currentChatCompletionSnapshot).toBeUndefined();
    });

    it("toReadableStream(): the far side's reader rebuilds the whole conversation", async () => {
      const { runner } = run([chunks("1", { calls: [["123", "getWeather", "{}"]] }), chunks("2", { content: "it's raining" })], { stream: true, tools: [getWeather] });
      const body = runner.toReadableStream();
      const far = (sdk.reader as unknown as { fromReadableStream(body: ReadableStream<Uint8Array>): AnyRunner }).fromReadableStream(body);
      await runner.done();
      await far.done();
      expect(far.messages).toEqual(runner.messages.slice(1));
      expect(await far.finalContent()).toBe("it's raining");
      expect(far.allChatCompletions()).toHaveLength(2);
    });
  });
}
