import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay, yieldedCallFragments } from "../fixtures/provider-replay.ts";

// Ollama's /v1/chat/completions: each call whole in one chunk with `role` repeated, streams that
// end at their finish_reason chunk without [DONE], and (Ollama 0.20, ollama/ollama#15457) every
// call of a reply at `index: 0`. Recording: g0t4/ask-openai.nvim's notes (see corpus.ts).

const replay = useReplay();
const parallel = providerCase("ollama/parallel-tool-calls-stream");
const sharedIndex = providerCase("ollama/shared-index-stream");
const text = providerCase("ollama/text-stream");

const LS = { id: "call_wteop8bt", type: "function", function: { name: "run_command", arguments: '{"command":"ls"}' } };
const LS_L = { id: "call_rk2xye1l", type: "function", function: { name: "run_command", arguments: '{"command":"ls -l"}' } };

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Ollama: a whole answer, no [DONE]", () => {
  it("ends normally after the finish_reason chunk and prints the answer", async () => {
    replay.serve(text.answer);
    expect(await printedText(await streamed())).toBe("My name is Ben Dover. How can I help you today?");
  });

  it("finalChatCompletion() has the answer and its finish_reason", async () => {
    replay.serve(text.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: "My name is Ben Dover. How can I help you today?" } });
    expect(completion.system_fingerprint).toBe("fp_ollama");
  });
});

describe("Ollama: two calls at indexes 0 and 1", () => {
  it("finalChatCompletion() has both calls", async () => {
    replay.serve(parallel.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { tool_calls: [LS, LS_L] } });
  });

  it("runTools() runs both", async () => {
    const { result, seen } = await runRecordedTools(replay, parallel);
    expect(seen.map(({ args }) => args)).toEqual(expect.arrayContaining([{ command: "ls" }, { command: "ls -l" }]));
    expect(seen).toHaveLength(2);
    expect(result.stopReason).toBe("done");
  });
});

describe("Ollama: two calls that share index 0", () => {
  it("yields the second call at the next free index, so every reader sees two calls", async () => {
    replay.serve(sharedIndex.answer);
    const seen = (await yieldedCallFragments(await streamed())).map((call) => [call.index, call.id]);
    expect(seen).toEqual([
      [0, "call_wteop8bt"],
      [1, "call_rk2xye1l"],
    ]);
  });

  it("finalChatCompletion() has two calls, each with its own arguments", async () => {
    replay.serve(sharedIndex.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]!.message.tool_calls).toEqual([LS, LS_L]);
  });

  it("chat.completions.stream() ends with the two calls", async () => {
    replay.serve(sharedIndex.answer);
    const message = await replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalMessage();
    expect(message.tool_calls).toEqual([LS, LS_L]);
  });

  it("runTools() runs both calls and answers each", async () => {
    const { seen, secondRequest } = await runRecordedTools(replay, sharedIndex);
    expect(seen.map(({ args }) => args)).toEqual(expect.arrayContaining([{ command: "ls" }, { command: "ls -l" }]));
    expect(seen).toHaveLength(2);
    expect(secondRequest!.messages.slice(2).map((message) => message.tool_call_id)).toEqual(["call_wteop8bt", "call_rk2xye1l"]);
  });
});
