import { describe, expect, it } from "vitest";
import type { ChatCompletion, ChatCompletionChunk } from "../src/index.ts";
import { mockGateway, MOCK_URL, parseEventStream } from "./fixtures/mock.ts";
import { bodyReader } from "./fixtures/mock-stream.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { validatorFor } from "./fixtures/json-schema-validator.ts";

// What the mock answers: deterministic text and tool calls, streamed and not. Streamed bodies
// are read by hand, so the framing itself (comments, events, [DONE]) is what is checked.

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "integer" },
        hourly: { type: "boolean" },
        note: { type: "string" },
      },
      required: ["city", "days", "hourly"],
    },
  },
};

async function completion(response: Response): Promise<ChatCompletion> {
  expect(response.status).toBe(200);
  return (await response.json()) as ChatCompletion;
}

async function streamed(response: Response) {
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  return parseEventStream(await response.text());
}

/** The tool calls of choice 0, joined from their fragments by index. */
function joinToolCalls(chunks: ChatCompletionChunk[]) {
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const fragment of chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])) {
    const call = (calls[fragment.index!] ??= { arguments: "" });
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name = fragment.function.name;
    call.arguments += fragment.function?.arguments ?? "";
  }
  return calls;
}

describe("mock gateway: replies", () => {
  it("is deterministic: the same request gives the same reply, another seed another", async () => {
    const text = async (seed: number) => (await completion(await mockGateway({ seed }).chat({ model: "auto" }))).choices[0]!.message.content;
    expect(await text(1)).toBe(await text(1));
    expect(await text(1)).not.toBe(await text(2));
    expect(await text(42)).toBe((await completion(await mockGateway().chat({ model: "auto" }))).choices[0]!.message.content);
  });

  it("refers to the words of the last user message", async () => {
    const { chat } = mockGateway();
    const reply = await completion(await chat({ model: "auto", messages: [{ role: "user", content: "Tell me about rivers" }] }));
    expect(reply.choices[0]?.message.content).toContain('You asked: "Tell me about rivers".');
  });

  it("answers a complete ChatCompletion with usage", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto" }));
    expect(reply).toMatchObject({ id: expect.stringMatching(/^chatcmpl-/), object: "chat.completion", created: expect.any(Number), model: "mistralai/mistral-small", provider: "mistralai" });
    expect(reply.choices).toEqual([{ index: 0, message: { role: "assistant", content: expect.any(String) }, finish_reason: "stop" }]);
    const words = reply.choices[0]!.message.content!.split(/\s+/).length;
    const prompt = Math.ceil("Hello there".length / 4);
    // Mistral Small's prices: 0.1 and 0.3 USD per million tokens.
    expect(reply.usage).toEqual({ prompt_tokens: prompt, completion_tokens: words, total_tokens: prompt + words, cost: (prompt * 0.1 + words * 0.3) / 1e6 });
  });

  it("uses the `reply` option verbatim, as a string or a function of the request", async () => {
    const fixed = await completion(await mockGateway({ reply: "Exactly this." }).chat({ model: "auto" }));
    expect(fixed.choices[0]?.message.content).toBe("Exactly this.");
    expect(fixed.usage).toMatchObject({ completion_tokens: 2, total_tokens: fixed.usage!.prompt_tokens + 2 });
    const echo = await completion(await mockGateway({ reply: (params) => `model was ${params.model}` }).chat({ model: "auto" }));
    expect(echo.choices[0]?.message.content).toBe("model was auto");
  });

  it("answers 500 in the error shape when the `reply` function throws", async () => {
    const response = await mockGateway({ reply: () => { throw new Error("oops"); } }).chat({ model: "auto" });
    expect(response.status).toBe(500);
    expect((await response.json()).error.message).toContain("oops");
  });

  it("cuts the text at max_completion_tokens (or max_tokens) with finish_reason length", async () => {
    const { chat } = mockGateway({ reply: "one two three four five" });
    const cut = await completion(await chat({ model: "auto", max_tokens: 3 }));
    expect(cut.choices[0]).toMatchObject({ message: { content: "one two three" }, finish_reason: "length" });
    expect((await completion(await chat({ model: "auto", max_completion_tokens: 9 }))).choices[0]?.finish_reason).toBe("stop");
  });

  it("calls a tool with arguments generated from its JSON schema", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", tools: [weatherTool] }));
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls![0]!;
    expect(call).toMatchObject({ id: expect.stringMatching(/^call_\w+$/), type: "function", function: { name: "get_weather" } });
    const args = JSON.parse(call.function.arguments);
    expect(validatorFor(weatherTool.function.parameters)(args)).toEqual([]);
    expect(args).toMatchObject({ city: expect.any(String), days: expect.any(Number), hourly: expect.any(Boolean) });
  });

  it("calls the tool named by tool_choice, and none with tool_choice none", async () => {
    const { chat } = mockGateway();
    const tools = [weatherTool, { type: "function", function: { name: "search", parameters: { type: "object", properties: { query: { type: "string" } } } } }];
    const named = await completion(await chat({ model: "auto", tools, tool_choice: { type: "function", function: { name: "search" } } }));
    expect(named.choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: "search", arguments: '{"query":"sample query"}' });
    const none = await completion(await chat({ model: "auto", tools, tool_choice: "none" }));
    expect(none.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: expect.any(String) } });
  });

  it("answers a tool result with a text that quotes it", async () => {
    const messages = [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: '{"temp":21}' },
    ];
    const reply = await completion(await mockGateway().chat({ model: "auto", messages, tools: [weatherTool] }));
    expect(reply.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: expect.stringContaining('{"temp":21}') } });
  });

  it("gives n choices with different texts", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", n: 3 }));
    expect(reply.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(new Set(reply.choices.map((choice) => choice.message.content)).size).toBe(3);
  });
});

describe("mock gateway: streamed replies", () => {
  it("frames the stream: a comment first, role chunk next, pieces of 1 to 3 words, keep-alives, finish, [DONE] last", async () => {
    const { chat } = mockGateway({ keepAliveEvery: 3 });
    const { comments, chunks, done, raw } = await streamed(await chat({ model: "auto", stream: true }));
    expect(raw[0]).toBe(": PROCESSING");
    expect(raw.at(-1)).toBe("data: [DONE]");
    expect(done).toBe(true);
    expect(comments).toHaveLength(1 + Math.floor(chunks.length / 3));
    expect(raw.slice(1, 5).map((event) => event.slice(0, 6))).toEqual(["data: ", "data: ", "data: ", ": PROC"]);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: "chat.completion.chunk", id: chunks[0]!.id, created: chunks[0]!.created });
    const pieces = chunks.slice(1, -1).map((chunk) => chunk.choices[0]!.delta.content!);
    for (const piece of pieces) expect(piece.trim().split(/\s+/).length).toBeLessThanOrEqual(3);
    expect(chunks.at(-1)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
  });

  it("streams exactly the non-streamed content, and the same bytes for the same request", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto" }));
    const once = await (await chat({ model: "auto", stream: true })).text();
    const twice = await (await chat({ model: "auto", stream: true })).text();
    const text = parseEventStream(once).chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(twice.replace(/chatcmpl-mock\d+/g, "")).toBe(once.replace(/chatcmpl-mock\d+/g, ""));
  });

  it("sends keep-alives only when keepAliveEvery is above 0", async () => {
    const { raw } = await streamed(await mockGateway({ keepAliveEvery: 0 }).chat({ model: "auto", stream: true }));
    expect(raw.some((event) => event.includes(": PROCESSING"))).toBe(false);
  });

  it("adds a usage-only chunk before [DONE] only with stream_options.include_usage", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto" }));
    const { chunks, done } = await streamed(await chat({ model: "auto", stream: true, stream_options: { include_usage: true } }));
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: whole.usage });
    expect(chunks.slice(0, -1).some((chunk) => chunk.usage)).toBe(false);
  });

  it("streams a tool call as fragments (index, id, type, name first; then 2 to 4 argument pieces) that join into schema-valid JSON", async () => {
    const { chunks } = await streamed(await mockGateway().chat({ model: "auto", tools: [weatherTool], stream: true }));
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toEqual({ index: 0, id: expect.stringMatching(/^call_/), type: "function", function: { name: "get_weather", arguments: "" } });
    expect(fragments.length - 1).toBeGreaterThanOrEqual(2);
    expect(fragments.length - 1).toBeLessThanOrEqual(4);
    for (const fragment of fragments.slice(1)) expect(Object.keys(fragment).sort()).toEqual(["function", "index"]);
    const [call] = joinToolCalls(chunks);
    expect(validatorFor(weatherTool.function.parameters)(JSON.parse(call!.arguments))).toEqual([]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("interleaves the choices of n = 2, each with its own role chunk, text and finish", async () => {
    const { chat } = mockGateway();
    const whole = await completion(await chat({ model: "auto", n: 2 }));
    const { chunks } = await streamed(await chat({ model: "auto", n: 2, stream: true }));
    expect(chunks.slice(0, 4).map((chunk) => chunk.choices[0]?.index)).toEqual([0, 1, 0, 1]);
    for (const index of [0, 1]) {
      const own = chunks.filter((chunk) => chunk.choices[0]?.index === index);
      expect(own[0]?.choices[0]?.delta.role).toBe("assistant");
      expect(own.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(whole.choices[index]?.message.content);
      expect(own.filter((chunk) => chunk.choices[0]?.finish_reason === "stop")).toHaveLength(1);
    }
  });

  it("errors the body and stops producing when the request is aborted mid-stream, as fetch does", async () => {
    const { gateway } = mockGateway({ chunkDelayMs: 20 });
    const controller = new AbortController();
    const response = await gateway(
      new Request(`${MOCK_URL}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer mg-mock-key" },
        body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true }),
        signal: controller.signal,
      }),
    );
    const body = bodyReader(response);
    await body.until((text) => text.includes("data: {"));
    expect(gateway.activeStreams).toBe(1);
    controller.abort();
    await expect(body.rest()).rejects.toThrow(/abort/i);
    expect(gateway.activeStreams).toBe(0);
  });

  it("stops producing when the reader cancels", async () => {
    const { gateway, chat } = mockGateway({ chunkDelayMs: 50 });
    const body = bodyReader(await chat({ model: "auto", stream: true }));
    await body.until((text) => text.includes("data: {"));
    await body.cancel();
    expect(gateway.activeStreams).toBe(0);
  });
});

describe("mock gateway: pacing", () => {
  // The pauses run on a fake clock: their sum is exact, whatever the machine's load.
  useFakeClock();

  it("paces chunks by chunkDelayMs", async () => {
    const { value, elapsedMs } = await inFakeTime(mockGateway({ chunkDelayMs: 5, reply: "a b c d e f" }).chat({ model: "auto", stream: true }).then(streamed));
    const { chunks } = value!;
    expect(elapsedMs, `fake milliseconds for ${chunks.length} chunks`).toBeGreaterThanOrEqual(5 * (chunks.length - 1));
  });
});
