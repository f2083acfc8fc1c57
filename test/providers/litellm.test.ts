import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay, yieldedCallFragments } from "../fixtures/provider-replay.ts";

// LiteLLM's ollama_chat adapter (before BerriAI/litellm#37792): every call at `index: 0` with its
// own id, arguments as a JSON object rather than text, a new response id per chunk, and
// `finish_reason: "stop"` after calls. Rebuilt from #33678 and #37792 (see corpus.ts).

const replay = useReplay();
const sharedIndex = providerCase("litellm/ollama-shared-index-stream");

const A = { id: "5d0f6a1e-0c8b-4b7a-9f3e-2a1b4c6d8e0f", type: "function", function: { name: "read_file", arguments: '{"path":"a.rs"}' } };
const B = { id: "9c8b7a6f-5e4d-4c3b-a2a1-0f9e8d7c6b5a", type: "function", function: { name: "read_file", arguments: '{"path":"b.rs"}' } };

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("LiteLLM (Ollama adapter): two calls at index 0, arguments as objects", () => {
  it("prints nothing and ends normally", async () => {
    replay.serve(sharedIndex.answer);
    expect(await printedText(await streamed())).toBe("");
  });

  it("yields the second call at index 1 and both arguments as JSON text", async () => {
    replay.serve(sharedIndex.answer);
    const seen = (await yieldedCallFragments(await streamed())).map((call) => [call.index, call.function?.arguments]);
    expect(seen).toEqual([
      [0, '{"path":"a.rs"}'],
      [1, '{"path":"b.rs"}'],
    ]);
  });

  it("finalChatCompletion() has two valid calls, not one glued together", async () => {
    replay.serve(sharedIndex.answer);
    const choice = (await (await streamed()).finalChatCompletion()).choices[0]!;
    expect(choice.message.tool_calls).toEqual([A, B]);
    expect(choice.finish_reason).toBe("stop");
  });

  it("runTools() runs both calls although the reply finished with stop", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, sharedIndex);
    expect(seen).toEqual(expect.arrayContaining([{ name: "read_file", args: { path: "a.rs" } }, { name: "read_file", args: { path: "b.rs" } }]));
    expect(seen).toHaveLength(2);
    expect(secondRequest!.messages[1]).toMatchObject({ role: "assistant", tool_calls: [A, B] });
    expect(result.stopReason).toBe("done");
  });
});
