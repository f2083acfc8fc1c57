import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { QUESTION, runRecordedTools, useReplay, yieldedCallFragments } from "../fixtures/provider-replay.ts";

// Gemini's OpenAI compatibility: each call whole in one delta without `index`, parallel calls in
// separate chunks, the thought signature as `extra_content.google.thought_signature` on the first
// call (Gemini 3 rejects the next step without it), and a reply with calls that finishes with
// "stop". The payloads are rebuilt from Google's guide and captured streams (see corpus.ts).

const replay = useReplay();
const parallel = providerCase("gemini/parallel-calls-stream");
const whole = providerCase("gemini/tool-call");

const SIGNED = { extra_content: { google: { thought_signature: "<Signature A>" } } };
const PARIS = { id: "function-call-1", type: "function", function: { name: "get_current_temperature", arguments: '{"location":"Paris"}' } };
const LONDON = { id: "function-call-2", type: "function", function: { name: "get_current_temperature", arguments: '{"location":"London"}' } };

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Gemini: parallel calls in separate chunks, the first signed", () => {
  it("yields the calls at indexes 0 and 1", async () => {
    replay.serve(parallel.answer);
    const seen = (await yieldedCallFragments(await streamed())).map((call) => [call.index, call.id]);
    expect(seen).toEqual([
      [0, "function-call-1"],
      [1, "function-call-2"],
    ]);
  });

  it("finalChatCompletion() keeps the thought signature on the first call", async () => {
    replay.serve(parallel.answer);
    const choice = (await (await streamed()).finalChatCompletion()).choices[0]!;
    expect(choice.message.tool_calls).toEqual([{ ...PARIS, ...SIGNED }, LONDON]);
    expect(choice.finish_reason).toBe("stop");
  });

  it("chat.completions.stream() keeps it on the final message too", async () => {
    replay.serve(parallel.answer);
    const message = await replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalMessage();
    expect(message.tool_calls).toEqual([{ ...PARIS, ...SIGNED }, LONDON]);
  });

  it("runTools() runs both calls and sends the signature back on the first, without index", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, parallel);
    expect(seen).toEqual(expect.arrayContaining([{ name: "get_current_temperature", args: { location: "Paris" } }, { name: "get_current_temperature", args: { location: "London" } }]));
    expect(seen).toHaveLength(2);
    expect(secondRequest!.messages[1]).toMatchObject({ role: "assistant", tool_calls: [{ ...PARIS, ...SIGNED }, LONDON] });
    for (const call of secondRequest!.messages[1]!.tool_calls as object[]) expect(call).not.toHaveProperty("index");
    expect(secondRequest!.messages.slice(2).map((message) => message.tool_call_id)).toEqual(["function-call-1", "function-call-2"]);
    expect(result.stopReason).toBe("done");
  });
});

describe("Gemini: a signed call answered whole", () => {
  it("create() keeps extra_content on the call", async () => {
    replay.serve(whole.answer);
    const completion = await replay.client().chat.completions.create({ model: "auto", messages: QUESTION });
    expect(completion.choices[0]!.message.tool_calls).toEqual([{ id: "function-call-1", type: "function", function: { name: "check_flight", arguments: '{"flight":"AA100"}' }, ...SIGNED }]);
  });

  it("runTools() sends the signature back with the call", async () => {
    const { seen, secondRequest } = await runRecordedTools(replay, whole);
    expect(seen).toEqual([{ name: "check_flight", args: { flight: "AA100" } }]);
    expect(secondRequest!.messages[1]).toMatchObject({ tool_calls: [{ id: "function-call-1", ...SIGNED }] });
  });
});
