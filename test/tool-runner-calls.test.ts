import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool, type ChatCompletionMessageParam, type ToolRunEvent } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";

// runTools() against hand-made replies that no well-behaved model sends: whatever a call looks
// like, it becomes that call's `tool` message and the next step is a valid request.

const KEY = "sk-calls-test-key-0123456789";
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];

/** A client whose gateway answers with `messages[i]` as the assistant message of the i-th reply (the last one repeats). */
function replying(...replies: unknown[]) {
  let served = 0;
  return recordingClient(
    () => {
      const message = replies[Math.min(served++, replies.length - 1)];
      return Response.json({ id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message, finish_reason: "stop" }] });
    },
    { apiKey: KEY },
  );
}
const assistant = (tool_calls: unknown, extra: Record<string, unknown> = {}) => ({ role: "assistant", content: null, tool_calls, ...extra });
const answer = { role: "assistant", content: "Done." };

const ran: unknown[] = [];
const getWeather = tool({
  name: "get_weather",
  parameters: z.object({ city: z.string().optional() }),
  run: (args) => {
    ran.push(args);
    return { celsius: 20, ...args };
  },
});

/**
 * What a strict gateway checks in the messages it is sent: every tool call an object with a
 * unique non-empty string `id`, `type: "function"`, a non-empty string name and string
 * `arguments`; every tool message answering a call of the assistant turn before it.
 */
function expectValidConversation(conversation: unknown): void {
  const ids = new Set<string>();
  let open = new Set<string>();
  for (const message of conversation as ChatCompletionMessageParam[]) {
    if (message.role === "assistant") {
      open = new Set();
      for (const call of message.tool_calls ?? []) {
        expect(call).toEqual(expect.objectContaining({ id: expect.any(String), type: "function", function: expect.objectContaining({ name: expect.any(String), arguments: expect.any(String) }) }));
        expect(call.id, "a call id is not empty").not.toBe("");
        expect(call.function.name, "a call's name is not empty").not.toBe("");
        expect(ids.has(call.id), `the id ${call.id} is used once in the conversation`).toBe(false);
        ids.add(call.id);
        open.add(call.id);
      }
    }
    if (message.role === "tool") {
      expect(open.has(message.tool_call_id), `the tool message ${message.tool_call_id} answers a call of the turn before`).toBe(true);
      open.delete(message.tool_call_id);
    }
  }
}

const toolTexts = (conversation: ChatCompletionMessageParam[]) => conversation.filter((message) => message.role === "tool").map((message) => String(message.content));

describe("runTools(): malformed calls become that call's tool message", () => {
  it("uses `arguments` sent as an object as the arguments, and sends them back as JSON text", async () => {
    ran.length = 0;
    const { client, sent } = replying(assistant([{ id: "c1", type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } }]), answer);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    expect(ran).toEqual([{ city: "Paris" }]);
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ result: { celsius: 20, city: "Paris" } });
    expect(result.steps[0]!.toolCalls[0]!.error).toBeUndefined();
    expect((sent[1]!.messages as ChatCompletionMessageParam[])[1]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] });
    expectValidConversation(sent[1]!.messages);
  });

  it("runs a call whose `arguments` is null or missing as a call without arguments, sent back as \"{}\"", async () => {
    ran.length = 0;
    const { client, sent } = replying(
      assistant([
        { id: "c1", type: "function", function: { name: "get_weather", arguments: null } },
        { id: "c2", type: "function", function: { name: "get_weather" } },
      ]),
      answer,
    );
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    expect(ran).toEqual([{}, {}]);
    const calls = (sent[1]!.messages as { tool_calls?: { function: { arguments: unknown } }[] }[])[1]!.tool_calls!;
    expect(calls.map((call) => call.function.arguments)).toEqual(["{}", "{}"]);
    expectValidConversation(sent[1]!.messages);
  });

  it("tells the model about a call without `function`, without a name, with a name that is not a string, or that is not an object, and runs none of them", async () => {
    let placeholderRuns = 0;
    // A tool named like the name a nameless call is given must not run in its place.
    const unnamed = tool({ name: "unnamed_call", parameters: z.object({}), run: () => ++placeholderRuns });
    const { client, sent } = replying(
      assistant([
        { id: "a", type: "function" },
        { id: "b", type: "function", function: "get_weather" },
        { id: "c", type: "function", function: { arguments: '{"city":"Paris"}' } },
        { id: "d", type: "function", function: { name: "", arguments: "{}" } },
        { id: "e", type: "function", function: { name: 42, arguments: "{}" } },
        "get_weather",
        null,
      ]),
      answer,
    );
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather, unnamed] });
    expect(result.stopReason).toBe("done");
    expect(placeholderRuns).toBe(0);
    expect(toolTexts(result.messages)).toEqual([
      "Error: The tool call has no `function` (the tool's name and its arguments). Call the tool again.",
      'Error: The tool call has no `function` (the tool\'s name and its arguments): it is "get_weather". Call the tool again.',
      "Error: The tool call has no tool name. Call the tool again by its name.",
      "Error: The tool call has no tool name. Call the tool again by its name.",
      "Error: The tool call has no tool name: it is number 42, not a string. Call the tool again by its name.",
      'Error: The tool call could not be read: it is "get_weather", not an object. Call the tool again.',
      "Error: The tool call could not be read: it is null, not an object. Call the tool again.",
    ]);
    expect(result.steps[0]!.toolCalls.every((outcome) => outcome.error !== undefined && outcome.result === undefined)).toBe(true);
    // The name a call goes back with, and its arguments kept when they could be read.
    const calls = (sent[1]!.messages as { tool_calls?: { function: { name: string; arguments: string } }[] }[])[1]!.tool_calls!;
    expect(calls.map((call) => call.function.name)).toEqual(Array(7).fill("unnamed_call"));
    expect(calls[2]!.function.arguments).toBe('{"city":"Paris"}');
    expectValidConversation(sent[1]!.messages);
  });

  it("gives every call an id unique in the conversation, never one it made up for another call, and type \"function\"", async () => {
    const earlier: ChatCompletionMessageParam[] = [
      ...messages,
      { role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_0", content: "{}" },
    ];
    const call = (id: unknown, extra: Record<string, unknown> = {}) => ({ ...(id === undefined ? {} : { id }), function: { name: "get_weather", arguments: "{}" }, ...extra });
    const { client, sent } = replying(
      // The first call's id is the one made up for the second, which has none; the third
      // repeats one of an earlier turn; then an empty id, a number, a repeat, a custom type.
      assistant([call("call_step1_1"), call(undefined), call("call_0"), call(""), call(7), call("x"), call("x"), call("y", { type: "custom" })]),
      answer,
    );
    const result = await client.chat.completions.runTools({ model: "m", messages: earlier, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    const turn = (sent[1]!.messages as { tool_calls?: { id: string; type: string }[] }[])[3]!;
    const ids = turn.tool_calls!.map((entry) => entry.id);
    expect(ids[0]).toBe("call_step1_1");
    expect(ids[5]).toBe("x");
    expect(ids[7]).toBe("y");
    expect(new Set([...ids, "call_0"]).size).toBe(9);
    expect(turn.tool_calls!.every((entry) => entry.type === "function")).toBe(true);
    expect(result.steps[0]!.toolCalls.map((outcome) => outcome.call.id)).toEqual(ids);
    expectValidConversation(sent[1]!.messages);
  });

  it("keeps the provider's own fields of a call it sends back", async () => {
    const signed = { id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" }, extra_content: { google: { thought_signature: "sig" } } };
    const { client, sent } = replying(assistant([signed]), answer);
    await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect((sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls).toEqual([signed]);
  });

  it("sends back only a call's own fields: an object of calls by index as the list it stands for, a call of another type without its payload", async () => {
    const call = { id: "a", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } };
    ran.length = 0;
    const byIndex = replying(assistant({ 0: call }), answer);
    await byIndex.client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect(ran).toEqual([{ city: "Oslo" }]);
    expect((byIndex.sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls).toEqual([call]);

    const custom = replying(assistant([{ id: "b", type: "custom", custom: { name: "get_weather", input: "{}" } }]), answer);
    const result = await custom.client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect(toolTexts(result.messages)).toEqual(["Error: The tool call has no `function` (the tool's name and its arguments). Call the tool again."]);
    expect((custom.sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls).toEqual([{ id: "b", type: "function", function: { name: "unnamed_call", arguments: "{}" } }]);
    expectValidConversation(custom.sent[1]!.messages);
  });

  it("answers a streamed call that came without an id or a name, and sends it back valid", async () => {
    const parts = [sseData(chunk(toolFragment({ index: 0, arguments: '{"city":"Oslo"}' }))), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    let served = 0;
    const { client, sent } = recordingClient(() => (served++ === 0 ? sseResponse(parts) : sseResponse([sseData(chunk({ content: "Cold." }, { finish: "stop" })), DONE])));
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    expect(result.stopReason).toBe("done");
    expect(toolTexts(result.messages)).toEqual(["Error: The tool call has no tool name. Call the tool again by its name."]);
    expect((sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls).toEqual([{ id: "call_step1_0", type: "function", function: { name: "unnamed_call", arguments: '{"city":"Oslo"}' } }]);
    expectValidConversation(sent[1]!.messages);
  });

  it("reads a streamed call as a non-streamed one: object arguments as their JSON, a lone call object as a list of one", async () => {
    const lone = { index: 0, id: "s1", type: "function", function: { name: "get_weather", arguments: { city: "Oslo" } } };
    const parts = [sseData(chunk({ tool_calls: lone } as never)), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    let served = 0;
    ran.length = 0;
    const { client, sent } = recordingClient(() => (served++ === 0 ? sseResponse(parts) : sseResponse([sseData(chunk({ content: "Cold." }, { finish: "stop" })), DONE])));
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    expect(ran).toEqual([{ city: "Oslo" }]);
    expect((sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls).toEqual([{ id: "s1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }]);
    expect(result.stopReason).toBe("done");
  });

  it("refuses a streamed call whose arguments are a list, a number or true, as a non-streamed one is refused, and never runs it with {}", async () => {
    for (const args of [[1, 2], 42, true]) {
      const call = { index: 0, id: "s1", type: "function", function: { name: "get_weather", arguments: args } };
      const parts = [sseData(chunk({ tool_calls: [call] } as never)), sseData(chunk({}, { finish: "tool_calls" })), DONE];
      let served = 0;
      ran.length = 0;
      const { client, sent } = recordingClient(() => (served++ === 0 ? sseResponse(parts) : sseResponse([sseData(chunk({ content: "Cold." }, { finish: "stop" })), DONE])));
      await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
      expect(ran, JSON.stringify(args)).toEqual([]);
      const turn = (sent[1]!.messages as { tool_calls?: { function: { arguments: string } }[] }[])[1]!;
      expect(turn.tool_calls![0]!.function.arguments).toBe(JSON.stringify(args));
      expect(toolTexts(sent[1]!.messages as never)[0]).toMatch(/JSON object/);
    }
  });

  it("adds one abort listener to the caller's signal for a step, however many calls it makes", async () => {
    const calls = Array.from({ length: 30 }, (_, index) => ({ id: `c${index}`, type: "function", function: { name: "get_weather", arguments: "{}" } }));
    const { client } = replying(assistant(calls), answer);
    const controller = new AbortController();
    let most = 0;
    let listening = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<AbortSignal["addEventListener"]>) => {
      most = Math.max(most, ++listening);
      add(...args);
    }) as AbortSignal["addEventListener"];
    controller.signal.removeEventListener = ((...args: Parameters<AbortSignal["removeEventListener"]>) => {
      listening--;
      remove(...args);
    }) as AbortSignal["removeEventListener"];
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }, { signal: controller.signal });
    expect(result.steps[0]!.toolCalls).toHaveLength(30);
    // The request in flight holds one, the step's wait for its calls another: never one per call.
    expect(most).toBeLessThanOrEqual(3);
  });

  it("keeps the SDK's own JSON error as `cause` with the key cut out of it", async () => {
    const { client } = replying(assistant([{ id: "j", type: "function", function: { name: "get_weather", arguments: `{"q": ${KEY}}` } }]), answer);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    const record = result.steps[0]!.toolCalls[0]!;
    expect(record.cause).toBeInstanceOf(SyntaxError);
    for (const shown of [String((record.cause as Error).message), record.error ?? ""]) expect(shown).not.toContain(KEY.slice(0, 8));
  });

  it("keeps a refusal in messages as the model sent it", async () => {
    const { client } = replying({ role: "assistant", content: null, refusal: "I can't help with that." });
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect(result.stopReason).toBe("done");
    // With openai's `parsed: null` beside it, as openai's runner keeps every assistant turn.
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: null, refusal: "I can't help with that.", parsed: null });
  });

  it("keeps a refusal beside tool calls, and the next step carries it", async () => {
    const { client, sent } = replying(assistant([{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }], { refusal: "Not that part." }), answer);
    await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expect((sent[1]!.messages as { refusal?: string }[])[1]!.refusal).toBe("Not that part.");
  });
});

describe("runTools(): what a tool throws", () => {
  /** A tool per thrown value; the run's record of each call. */
  async function runThrowing(values: (() => unknown)[]) {
    const tools = values.map((value, index) => tool({ name: `t${index}`, parameters: z.object({}), run: () => { throw value(); } }));
    const { client } = replying(assistant(tools.map((_, index) => ({ id: `c${index}`, type: "function", function: { name: `t${index}`, arguments: "{}" } }))), answer);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools });
    expect(result.stopReason).toBe("done");
    return result;
  }

  it("sends a tool message for a throw whose message cannot be read, and keeps the thrown value as `cause`", async () => {
    const getterThrows = new Error("hidden");
    Object.defineProperty(getterThrows, "message", { get: () => { throw new Error("no message for you"); } });
    const trapsThrow = new Proxy({}, { get: () => { throw new Error("trap"); }, getPrototypeOf: () => { throw new Error("trap"); }, has: () => { throw new Error("trap"); } });
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const toStringThrows = { toJSON: () => { throw new Error("no JSON"); }, toString: () => { throw new Error("no text"); } };
    const symbol = Symbol("odd");
    const thrown = [getterThrows, trapsThrow, revoked, toStringThrows, symbol, undefined];
    const result = await runThrowing(thrown.map((value) => () => value));
    const records = result.steps[0]!.toolCalls;
    const texts = toolTexts(result.messages);
    expect(texts).toHaveLength(thrown.length);
    for (const text of texts) expect(text).toMatch(/^Error: The tool failed: \S/);
    expect(texts[1]).toBe("Error: The tool failed: it threw a value whose message cannot be read");
    expect(texts[3]).toBe("Error: The tool failed: it threw [object Object], whose message cannot be read");
    expect(texts[4]).toBe("Error: The tool failed: Symbol(odd)");
    expect(texts[5]).toBe("Error: The tool failed: it threw undefined");
    records.forEach((record, index) => {
      expect("cause" in record, `call ${index} keeps what it threw`).toBe(true);
      expect(record.cause, `call ${index} keeps the very value thrown`).toBe(thrown[index]);
    });
  });

  it("keeps what the tool threw as `cause`, as it is, beside the error text the key is cut out of", async () => {
    const leak = new Error(`auth failed for ${KEY}`);
    const result = await runThrowing([() => leak]);
    const [record] = result.steps[0]!.toolCalls;
    expect(record!.error).toBe("The tool failed: auth failed for [redacted]");
    expect(record!.cause).toBe(leak);
    expect(JSON.stringify(result.messages)).not.toContain(KEY);
  });

  it("keeps `cause` in the tool_result event, and has none where nothing was thrown", async () => {
    const failing = tool({ name: "failing", parameters: z.object({}), run: () => { throw new RangeError("out of range"); } });
    const checkThrows = tool({ name: "strict", parameters: z.object({}).refine(() => { throw new TypeError("the check broke"); }), run: () => "never" });
    const { client } = replying(
      assistant([
        { id: "a", type: "function", function: { name: "failing", arguments: "{}" } },
        { id: "b", type: "function", function: { name: "get_weather", arguments: "{}" } },
        { id: "c", type: "function", function: { name: "nowhere", arguments: "{}" } },
        { id: "d", type: "function", function: { name: "strict", arguments: "{}" } },
      ]),
      answer,
    );
    const run = client.chat.completions.runTools({ model: "m", messages, tools: [failing, getWeather, checkThrows] });
    const results: Extract<ToolRunEvent, { type: "tool_result" }>[] = [];
    for await (const event of run) if (event.type === "tool_result") results.push(event);
    const byID = new Map(results.map((event) => [event.call.id, event]));
    expect(byID.get("a")!.cause).toBeInstanceOf(RangeError);
    expect(byID.get("d")!.cause).toEqual(new TypeError("the check broke"));
    expect(byID.get("d")!.error).toBe("The arguments were rejected: the check broke");
    expect("cause" in byID.get("b")!).toBe(false);
    expect("cause" in byID.get("c")!).toBe(false);
    expect((await run).steps[0]!.toolCalls[0]!.cause).toBe(byID.get("a")!.cause);
  });
});

describe("runTools(): what a reply carried, kept in messages and sent back as a request's fields", () => {
  const signature = { google: { thought_signature: "CtwFAVSoXO" } };
  const details = [{ type: "reasoning.text", text: "Check the weather first.", signature: "EqQB", format: "anthropic-claude-v1", index: 0 }];
  const citation = { type: "url_citation", url_citation: { url: "https://met.example", title: "Met", start_index: 0, end_index: 4 } };
  /** What the next step must send for the reply's assistant turn: its request fields, the call's provider fields, reasoning_details. */
  const replayed = {
    role: "assistant",
    content: "Let me look.",
    refusal: "not this",
    tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' }, extra_content: signature }],
    reasoning_details: details,
  };

  const expectKeptAndReplayed = (result: { messages: ChatCompletionMessageParam[] }, sent: Record<string, unknown>[], replay: Record<string, unknown> = replayed) => {
    const kept = result.messages[1] as unknown as Record<string, unknown>;
    expect(kept).toMatchObject({ annotations: [citation], reasoning_details: details, provider_trace: "t1", reasoning: "Check the weather first." });
    expect((kept.tool_calls as unknown[])[0]).toMatchObject({ extra_content: signature });
    expect((sent[1]!.messages as unknown[])[1]).toEqual(replay);
  };

  it("replays a streamed turn as its request fields, Gemini's extra_content and OpenRouter's reasoning_details, and keeps the rest in messages", async () => {
    const stepOne = [
      sseData(chunk({ role: "assistant", content: "Let me look.", annotations: [citation], reasoning: "Check the weather first.", provider_trace: "t1" } as never)),
      sseData(chunk({ refusal: "not this", reasoning_details: details } as never)),
      sseData(chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":' }, extra_content: signature }] })),
      sseData(chunk(toolFragment({ index: 0, arguments: '"Oslo"}' }))),
      sseData(chunk({}, { finish: "tool_calls" })),
      DONE,
    ];
    let served = 0;
    const { client, sent } = recordingClient(() => (served++ === 0 ? sseResponse(stepOne) : sseResponse([sseData(chunk({ content: "Cold." }, { finish: "stop" })), DONE])));
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], stream: true });
    expect(result.stopReason).toBe("done");
    expectKeptAndReplayed(result, sent);
  });

  it("sends back a call's provider field named __proto__ as a field, changing no prototype", async () => {
    const call = JSON.parse('{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"},"__proto__":{"polluted":"yes"}}');
    const { client, sent } = replying(assistant([call]), answer);
    await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    const replay = (sent[1]!.messages as { tool_calls?: unknown[] }[])[1]!.tool_calls![0];
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(replay)).toBe(JSON.stringify(call));
  });

  it("does the same for a non-streamed reply, never sending parsed, annotations, reasoning_content or unknown fields", async () => {
    const reply = {
      ...assistant([{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}', parsed_arguments: { city: "Oslo" } }, extra_content: signature, index: 0 }]),
      content: "Let me look.",
      refusal: "not this",
      annotations: [citation],
      reasoning_details: details,
      reasoning_content: "Check the weather first.",
      reasoning: "Check the weather first.",
      parsed: null,
      provider_trace: "t1",
      name: "forecaster",
      audio: { id: "audio_1", data: "UklGR", transcript: "Let me look.", expires_at: 1_700_000_000 },
    };
    const { client, sent } = replying(reply, answer);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] });
    expectKeptAndReplayed(result, sent, { ...replayed, name: "forecaster", audio: { id: "audio_1" } });
  });
});
