import { describe, expect, it } from "vitest";
import { ModelGateError, type ChatCompletionChunk } from "../src/index.ts";
import { ChatCompletionAccumulator } from "../src/streaming/accumulate.ts";
import { chunk, toolFragment, usageChunk } from "./fixtures/chunks.ts";

function assemble(chunks: ChatCompletionChunk[]) {
  const accumulator = new ChatCompletionAccumulator();
  for (const piece of chunks) accumulator.add(piece);
  return accumulator.result();
}

describe("ChatCompletionAccumulator", () => {
  it("joins content fragments and keeps id, created and model", () => {
    const completion = assemble([chunk({ role: "assistant", content: "" }), chunk({ content: "Hel" }), chunk({ content: "lo" }), chunk({}, { finish: "stop" })]);
    expect(completion).toEqual({
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "mock/model",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }],
    });
  });

  it("keeps several choices apart when n > 1 and their chunks interleave", () => {
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

  it("joins interleaved parallel tool calls by index, with arguments split mid-JSON", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "get_weather", arguments: "" })),
      chunk(toolFragment({ index: 1, id: "call_b", name: "get_time", arguments: '{"tz":' })),
      chunk(toolFragment({ index: 0, arguments: '{"city":"Li' })),
      chunk(toolFragment({ index: 1, arguments: '"UTC"}' })),
      chunk(toolFragment({ index: 0, arguments: 'sbon"}' })),
      chunk({}, { finish: "tool_calls" }),
    ]);
    const [choice] = completion.choices;
    expect(choice?.message.content).toBeNull();
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.tool_calls).toEqual([
      { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Lisbon"}' } },
      { id: "call_b", type: "function", function: { name: "get_time", arguments: '{"tz":"UTC"}' } },
    ]);
  });

  it("keeps the name of the first fragment when a provider repeats a different one", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "lookup" })),
      chunk(toolFragment({ index: 0, name: "lookup_again", arguments: "{}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: "lookup", arguments: "{}" });
  });

  it("continues a fragment without index by its id", () => {
    const completion = assemble([
      chunk(toolFragment({ index: 0, id: "call_a", name: "a", arguments: "{" })),
      chunk(toolFragment({ index: 1, id: "call_b", name: "b", arguments: "{" })),
      chunk(toolFragment({ id: "call_a", arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.map((call) => call.function.arguments)).toEqual(["{}", "{"]);
  });

  it("continues a fragment without index or id as the last call", () => {
    const completion = assemble([
      chunk(toolFragment({ id: "call_a", name: "a", arguments: '{"x":' })),
      chunk(toolFragment({ arguments: "1}" })),
      chunk(toolFragment({ id: "call_b", name: "b", arguments: "{" })),
      chunk(toolFragment({ arguments: "}" })),
    ]);
    expect(completion.choices[0]?.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ["call_a", '{"x":1}'],
      ["call_b", "{}"],
    ]);
  });

  it("takes usage from the usage-only final chunk", () => {
    const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
    const completion = assemble([chunk({ content: "ok" }), chunk({}, { finish: "stop" }), usageChunk(usage)]);
    expect(completion.usage).toEqual(usage);
    expect(completion.choices).toHaveLength(1);
  });

  it("does not need a role, and treats null content as nothing", () => {
    const completion = assemble([chunk({ content: null }), chunk({ content: "x" }), chunk({ content: null }, { finish: "stop" })]);
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: "x" });
  });

  it("defaults a missing finish_reason to stop", () => {
    expect(assemble([chunk({ content: "x" })]).choices[0]?.finish_reason).toBe("stop");
  });

  it("joins refusal fragments", () => {
    const completion = assemble([chunk({ refusal: "I can't " }), chunk({ refusal: "help with that." }, { finish: "stop" })]);
    expect(completion.choices[0]?.message).toMatchObject({ content: "", refusal: "I can't help with that." });
  });

  it("takes the model from the first chunk that names one", () => {
    const first = { ...chunk({ content: "a" }), model: "" };
    expect(assemble([first, chunk({ content: "b" }, { model: "google/gemini-2.5-flash" })]).model).toBe("google/gemini-2.5-flash");
  });

  it("throws a ModelGateError when there was no chunk at all", () => {
    expect(() => new ChatCompletionAccumulator().result()).toThrow(ModelGateError);
  });
});
