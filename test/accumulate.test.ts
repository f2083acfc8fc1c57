import { describe, expect, it } from "vitest";
import { gatewayInfo } from "../src/gateway/info.ts";
import { ModelGateError, type ChatCompletionChunk, type ChatCompletionTokenLogprob } from "../src/index.ts";
import { ChatCompletionAccumulator } from "../src/streaming/accumulate.ts";
import { ChunkEvents } from "../src/streaming/chunk-events.ts";
import { chunk, textChunks, toolFragment, usageChunk } from "./fixtures/chunks.ts";

/**
 * Chunks as a stream hands them to the accumulator: through `ChunkEvents`, which fills in the
 * tool-call `index` that some providers leave out.
 */
function assemble(chunks: ChatCompletionChunk[]) {
  const events = new ChunkEvents<ChatCompletionChunk>({}, gatewayInfo(undefined, undefined, 1));
  for (const piece of chunks) events.add({ event: undefined, data: JSON.stringify(piece), id: undefined, retry: undefined }, false);
  const accumulator = new ChatCompletionAccumulator();
  for (let piece = events.queued.shift(); piece !== undefined; piece = events.queued.shift()) accumulator.add(piece);
  return accumulator.result();
}

function token(text: string): ChatCompletionTokenLogprob {
  return { token: text, logprob: -0.5, bytes: null, top_logprobs: [] };
}

describe("ChatCompletionAccumulator: content", () => {
  it("joins content fragments into the shape of a non-streamed completion", () => {
    const completion = assemble([
      chunk({ role: "assistant", content: "" }),
      ...textChunks(["Hel", "lo"]),
      chunk({}, { finish: "stop" }),
    ]);
    expect(completion).toEqual({
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "mock/model",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }],
    });
  });

  it("keeps choices apart when n > 1 and their chunks interleave", () => {
    const completion = assemble([
      chunk({ content: "A1" }, { index: 0 }),
      chunk({ content: "B1" }, { index: 1 }),
      chunk({ content: "A2" }, { index: 0 }),
      chunk({}, { index: 1, finish: "length" }),
      chunk({ content: "B2" }, { index: 1 }),
      chunk({}, { index: 0, finish: "stop" }),
    ]);
    expect(completion.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, "A1A2", "stop"],
      [1, "B1B2", "length"],
    ]);
  });

  it("sorts choices by index whatever order they first appear in", () => {
    const completion = assemble([...textChunks(["second"], 1), ...textChunks(["first"], 0)]);
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, "first"],
      [1, "second"],
    ]);
  });

  it("assembles a message when no chunk carries a role", () => {
    const completion = assemble(textChunks(["no ", "role"]));
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: "no role" });
  });

  it("skips null and absent content deltas", () => {
    const completion = assemble([chunk({ content: null }), chunk({ content: "x" }), chunk({}), chunk({ content: null })]);
    expect(completion.choices[0]?.message.content).toBe("x");
  });

  it("gives an empty string as content, and no tool_calls, when nothing arrived", () => {
    const completion = assemble([chunk({ role: "assistant" }, { finish: "stop" })]);
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: "" });
  });

  it("joins refusal fragments, with content: null as in a non-streamed refusal", () => {
    const completion = assemble([chunk({ refusal: "I can't " }), chunk({ refusal: "help with that." }, { finish: "stop" })]);
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: null, refusal: "I can't help with that." });
  });

  it("joins logprobs tokens across chunks", () => {
    const completion = assemble([
      chunk({ content: "a" }, { logprobs: { content: [token("a")], refusal: null } }),
      chunk({ content: "b" }, { logprobs: { content: [token("b")], refusal: null } }),
    ]);
    expect(completion.choices[0]?.logprobs).toEqual({ content: [token("a"), token("b")], refusal: null });
  });
});

describe("ChatCompletionAccumulator: tool calls", () => {
  it("joins interleaved parallel tool calls by index, with arguments split mid-JSON", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "get_weather", arguments: "" })),
      chunk(toolFragment({ index: 1, id: "call_b", name: "get_time", arguments: '{"tz":' })),
      chunk(toolFragment({ index: 0, arguments: '{"city":"Li' })),
      chunk(toolFragment({ index: 1, arguments: '"UTC"}' })),
      chunk(toolFragment({ index: 0, arguments: 'sbon"}' })),
      chunk({}, { finish: "tool_calls" }),
    ]);
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Lisbon"}' } },
          { id: "call_b", type: "function", function: { name: "get_time", arguments: '{"tz":"UTC"}' } },
        ],
      },
      finish_reason: "tool_calls",
    });
  });

  it("keeps text content next to tool calls when both arrived", () => {
    const completion = assemble([chunk({ content: "Let me check." }), chunk(toolFragment({ index: 0, id: "call_a", name: "a", arguments: "{}" }))]);
    expect(completion.choices[0]?.message.content).toBe("Let me check.");
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(1);
  });

  it("joins a legacy function_call's fragments into message.function_call, with content: null, apart from tool calls", () => {
    const completion = assemble([
      chunk({ role: "assistant", content: null, function_call: { name: "get_weather", arguments: "" } }),
      chunk({ function_call: { arguments: '{"city":' } }),
      chunk({ function_call: { arguments: '"Oslo"}' } }, { finish: "function_call" }),
    ]);
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      finish_reason: "function_call",
    });
    const both = assemble([chunk({ function_call: { name: "f", arguments: "{}" } }), chunk(toolFragment({ index: 0, id: "call_1", name: "g", arguments: "{}" }))]);
    expect(both.choices[0]!.message.function_call).toEqual({ name: "f", arguments: "{}" });
    expect(both.choices[0]!.message.tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "g", arguments: "{}" } }]);
    // A provider's negative tool-call index stays a tool call.
    const negative = assemble([chunk({ function_call: { name: "f", arguments: "{}" } }), chunk(toolFragment({ index: -1, id: "call_n", name: "g", arguments: "[]" }))]);
    expect(negative.choices[0]!.message.function_call).toEqual({ name: "f", arguments: "{}" });
    expect(negative.choices[0]!.message.tool_calls).toEqual([{ id: "call_n", type: "function", function: { name: "g", arguments: "[]" } }]);
  });

  it("keeps the name of a call's first fragment when later fragments of the same id, or without one, name it again", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "lookup" })),
      chunk(toolFragment({ index: 0, id: "call_a", name: "lookup_again", arguments: "{" })),
      chunk(toolFragment({ index: 0, name: "lookup_more", arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: "call_a", type: "function", function: { name: "lookup", arguments: "{}" } },
    ]);
  });

  // Until API.md's Stream section said otherwise, fragments were joined by index alone, and
  // this case gave one call named "lookup" with the second call's arguments.
  it("starts a new call for a fragment with a name and another id at an index whose call has an id", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "lookup" })),
      chunk(toolFragment({ index: 0, id: "call_z", name: "lookup_again", arguments: "{}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: "call_a", type: "function", function: { name: "lookup", arguments: "" } },
      { id: "call_z", type: "function", function: { name: "lookup_again", arguments: "{}" } },
    ]);
  });

  it("continues a fragment without index by the call with the same id", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "a", arguments: "{" })),
      chunk(toolFragment({ index: 1, id: "call_b", name: "b", arguments: "{" })),
      chunk(toolFragment({ id: "call_a", arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ["call_a", "{}"],
      ["call_b", "{"],
    ]);
  });

  it("continues a fragment without index or id as the choice's last call", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "a", arguments: '{"x":' })),
      chunk(toolFragment({ arguments: "1}" })),
      chunk(toolFragment({ index: 1, id: "call_b", name: "b", arguments: "{" })),
      chunk(toolFragment({ arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ["call_a", '{"x":1}'],
      ["call_b", "{}"],
    ]);
  });

  it("starts call 0 with a fragment without index when the choice has no call yet", () => {
    const completion = assemble([chunk(toolFragment({ name: "a", arguments: "{" })), chunk(toolFragment({ arguments: "}" }))]);
    expect(completion.choices[0]?.message.tool_calls).toEqual([{ id: "", type: "function", function: { name: "a", arguments: "{}" } }]);
  });

  it("starts a new call for a fragment without index that brings a new id", () => {
    const completion = assemble([
      chunk(toolFragment({ id: "call_a", name: "a", arguments: "{}" })),
      chunk(toolFragment({ id: "call_b", name: "b", arguments: "{" })),
      chunk(toolFragment({ id: "call_b", arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ["call_a", "a", "{}"],
      ["call_b", "b", "{}"],
    ]);
  });

  it("keeps the tool calls of each choice apart when n > 1", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "a", arguments: "{}" }), { index: 0 }),
      chunk(toolFragment({ index: 0, id: "call_b", name: "b", arguments: "{}" }), { index: 1 }),
    ]);
    expect(completion.choices.map((choice) => choice.message.tool_calls?.map((call) => call.id))).toEqual([["call_a"], ["call_b"]]);
  });
});

describe("ChatCompletionAccumulator: finish_reason, usage and metadata", () => {
  it("defaults a missing finish_reason to stop", () => {
    expect(assemble(textChunks(["x"])).choices[0]?.finish_reason).toBe("stop");
  });

  it("keeps the last non-null finish_reason of each choice", () => {
    const completion = assemble([chunk({}, { finish: "length" }), chunk({ content: "x" }), chunk({}, { finish: "stop" })]);
    expect(completion.choices[0]?.finish_reason).toBe("stop");
  });

  it("takes usage from the usage-only final chunk without adding a choice", () => {
    const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
    const completion = assemble([chunk({ content: "ok" }), chunk({}, { finish: "stop" }), usageChunk(usage)]);
    expect(completion.usage).toEqual(usage);
    expect(completion.choices).toHaveLength(1);
  });

  it("leaves usage out when no chunk carried it", () => {
    expect(assemble(textChunks(["x"]))).not.toHaveProperty("usage");
  });

  it("takes the model from the first chunk that names one", () => {
    const completion = assemble([chunk({ content: "a" }, { model: "" }), chunk({ content: "b" }, { model: "google/gemini-2.5-flash" }), chunk({}, { model: "other/model" })]);
    expect(completion.model).toBe("google/gemini-2.5-flash");
  });

  it("takes id, provider and system_fingerprint from the first chunk that has them", () => {
    const completion = assemble([
      chunk({ role: "assistant" }, { id: "" }),
      chunk({ content: "a" }, { id: "gen-1", provider: "anthropic", system_fingerprint: "fp_1" }),
      chunk({ content: "b" }, { id: "gen-2", provider: "openai", system_fingerprint: "fp_2" }),
    ]);
    expect(completion).toMatchObject({ id: "gen-1", provider: "anthropic", system_fingerprint: "fp_1" });
  });

  it("describes the chunks added so far on each call of result(), leaving earlier results unchanged", () => {
    const accumulator = new ChatCompletionAccumulator();
    accumulator.add(chunk({ content: "a" }, { logprobs: { content: [token("a")], refusal: null } }));
    const early = accumulator.result();
    accumulator.add(chunk({ content: "b" }, { logprobs: { content: [token("b")], refusal: null } }));
    expect(early.choices[0]).toMatchObject({ message: { content: "a" }, logprobs: { content: [token("a")] } });
    expect(accumulator.result().choices[0]).toMatchObject({ message: { content: "ab" }, logprobs: { content: [token("a"), token("b")] } });
  });

  it("throws a ModelGateError when no chunk was added at all", () => {
    expect(() => new ChatCompletionAccumulator().result()).toThrow(ModelGateError);
  });
});

describe("ChatCompletionAccumulator: what else the deltas carried", () => {
  const citation = (url: string, start: number, end: number) => ({ type: "url_citation" as const, url_citation: { url, title: url, start_index: start, end_index: end } });

  // OpenRouter's web search streams its `url_citation` annotations in deltas (its docs,
  // "Web Search": the annotations schema), a later chunk adding more.
  it("concatenates streamed annotations in arrival order, without de-duplication", () => {
    const completion = assemble([
      chunk({ content: "See ", annotations: [citation("https://a.example", 0, 3)] }),
      chunk({ content: "this.", annotations: [citation("https://b.example", 4, 9), citation("https://a.example", 0, 3)] }),
      chunk({}, { finish: "stop" }),
    ]);
    expect(completion.choices[0]!.message.annotations).toEqual([citation("https://a.example", 0, 3), citation("https://b.example", 4, 9), citation("https://a.example", 0, 3)]);
  });

  // OpenRouter streams reasoning_details fragments of one block under one `index` (its docs,
  // "Reasoning Tokens": preserving reasoning blocks), the signature in a later fragment.
  it("merges reasoning_details with the same index (text concatenated) and appends the others", () => {
    const completion = assemble([
      chunk({ reasoning_details: [{ type: "reasoning.text", text: "Let me ", format: "anthropic-claude-v1", index: 0 }] }),
      chunk({ reasoning_details: [{ type: "reasoning.text", text: "think.", format: "anthropic-claude-v1", index: 0 }] }),
      chunk({ reasoning_details: [{ type: "reasoning.text", signature: "EqQB", format: "anthropic-claude-v1", index: 0 }] }),
      chunk({ reasoning_details: [{ type: "reasoning.encrypted", data: "opaque" }, { type: "reasoning.summary", summary: "Two steps.", index: 1 }] }),
      chunk({ content: "Done." }, { finish: "stop" }),
    ]);
    expect(completion.choices[0]!.message.reasoning_details).toEqual([
      { type: "reasoning.text", text: "Let me think.", signature: "EqQB", format: "anthropic-claude-v1", index: 0 },
      { type: "reasoning.encrypted", data: "opaque" },
      { type: "reasoning.summary", summary: "Two steps.", index: 1 },
    ]);
  });

  it("carries a delta field it does not know onto the message: strings joined, lists joined, objects merged key by key, others the last one", () => {
    const completion = assemble([
      chunk({ content: "a", thinking_text: "x", citations: ["u1"], meta: { step: "1", tags: ["t"], score: 1 }, flag: true, note: null } as never),
      chunk({ content: "b", thinking_text: "y", citations: ["u2"], meta: { step: "2", tags: ["u"], score: 2 }, flag: false, note: "n" } as never),
      chunk({ content: "c", note: null } as never, { finish: "stop" }),
    ]);
    expect(completion.choices[0]!.message).toEqual({
      role: "assistant",
      content: "abc",
      thinking_text: "xy",
      citations: ["u1", "u2"],
      meta: { step: "12", tags: ["t", "u"], score: 2 },
      flag: false,
      note: "n",
    });
  });

  // Gemini 3's OpenAI-compatible stream puts the thought signature on the call's first fragment
  // (ai.google.dev, "Thought signatures": extra_content.google.thought_signature).
  it("keeps a tool call's own fields (Gemini's extra_content) on the assembled call", () => {
    const signature = { google: { thought_signature: "CtwFAVSoXO" } };
    const completion = assemble([
      chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "get_weather", arguments: "" }, extra_content: signature }] }),
      chunk(toolFragment({ index: 0, arguments: '{"city":"Oslo"}' })),
      chunk({}, { finish: "tool_calls" }),
    ]);
    expect(completion.choices[0]!.message.tool_calls).toEqual([{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' }, extra_content: signature }]);
  });

  it("never changes a chunk it was given, nor a completion it returned, as more chunks come", () => {
    const first = chunk({ content: "a", annotations: [citation("https://a.example", 0, 1)], meta: { n: "1" } } as never);
    const wire = JSON.stringify(first);
    const accumulator = new ChatCompletionAccumulator();
    accumulator.add(first);
    const early = accumulator.result();
    const earlyJSON = JSON.stringify(early);
    accumulator.add(chunk({ content: "b", annotations: [citation("https://b.example", 1, 2)], meta: { n: "2" } } as never));
    expect(JSON.stringify(first)).toBe(wire);
    expect(JSON.stringify(early)).toBe(earlyJSON);
    expect((accumulator.result().choices[0]!.message as unknown as { meta: unknown }).meta).toEqual({ n: "12" });
  });

  it("keeps a field named __proto__ as a field, never changing a prototype, in a delta, a reasoning block and a call", () => {
    const wire = (delta: string) => JSON.parse(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":${delta}}]}`) as ChatCompletionChunk;
    const completion = assemble([
      wire('{"content":"a","__proto__":{"polluted":"yes"},"reasoning_details":[{"index":0,"__proto__":{"polluted":"r"}}],"tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":"{}"},"__proto__":{"polluted":"t"}}]}'),
      wire('{"content":"b","__proto__":{"polluted":"!"},"reasoning_details":[{"index":0,"__proto__":{"polluted":"2"}}]}'),
    ]);
    const message = completion.choices[0]!.message;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(message))).toEqual(
      JSON.parse('{"role":"assistant","content":"ab","tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"},"__proto__":{"polluted":"t"}}],"reasoning_details":[{"index":0,"__proto__":{"polluted":"r2"}}],"__proto__":{"polluted":"yes!"}}'),
    );
  });

  it("keeps a field nested deeper than the stack allows a walk, as the last one sent, without a RangeError", () => {
    const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const wire = (content: string) => JSON.parse(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${content}","deep":${deep(100_000)}}}]}`) as ChatCompletionChunk;
    // Added as parsed (JSON.parse takes any depth; JSON.stringify, which assemble() uses, does not).
    const accumulator = new ChatCompletionAccumulator();
    accumulator.add(wire("a"));
    accumulator.add(wire("b"));
    const completion = accumulator.result();
    expect(completion.choices[0]!.message.content).toBe("ab");
    expect(Array.isArray((completion.choices[0]!.message as unknown as { deep: unknown }).deep)).toBe(true);
  });

  it("reads a lone annotation or reasoning block sent as an object as a list of one", () => {
    const completion = assemble([chunk({ content: "a", annotations: citation("https://a.example", 0, 1), reasoning_details: { type: "reasoning.summary", summary: "s" } } as never)]);
    expect(completion.choices[0]!.message.annotations).toEqual([citation("https://a.example", 0, 1)]);
    expect(completion.choices[0]!.message.reasoning_details).toEqual([{ type: "reasoning.summary", summary: "s" }]);
  });

  it("takes x_groq.usage as the usage of a chunk without one", () => {
    const usage = { prompt_tokens: 18, completion_tokens: 439, total_tokens: 457 };
    const completion = assemble([chunk({ content: "a" }), { ...chunk({}, { finish: "stop" }), x_groq: { id: "req_1", usage } }]);
    expect(completion.usage).toEqual(usage);
  });
});
