import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay } from "../fixtures/provider-replay.ts";

// Anthropic's OpenAI SDK compatibility layer numbers tool calls by content block: after a text
// block the only call comes at `index: 1`. Recording: vercel/ai's anthropic-fallback-tool-call.sse.

const replay = useReplay();
const toolCall = providerCase("anthropic/tool-call-at-index-1-stream");

const CALL = { id: "toolu_sanitized", type: "function", function: { name: "read_file", arguments: '{"path": "a.txt"}' } };
const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Anthropic (OpenAI compatibility): the only call at index 1", () => {
  it("prints the text before the call", async () => {
    replay.serve(toolCall.answer);
    expect(await printedText(await streamed())).toBe("Reading it.");
  });

  it("finalChatCompletion() has one call, without a hole before it", async () => {
    replay.serve(toolCall.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { content: "Reading it." } });
    expect(completion.choices[0]!.message.tool_calls).toEqual([CALL]);
  });

  it("chat.completions.stream() emits the call's arguments done once, and the text as content", async () => {
    replay.serve(toolCall.answer);
    const done: string[] = [];
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).on("tool_calls.function.arguments.done", ({ arguments: args }) => done.push(args));
    expect(await helper.finalContent()).toBe("Reading it.");
    expect(done).toEqual(['{"path": "a.txt"}']);
  });

  it("runTools() runs the call and sends back the text and the one call", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, toolCall);
    expect(seen).toEqual([{ name: "read_file", args: { path: "a.txt" } }]);
    expect(secondRequest?.messages.slice(1)).toEqual([
      { role: "assistant", content: "Reading it.", tool_calls: [CALL] },
      { role: "tool", tool_call_id: "toolu_sanitized", content: '{"ok":true}' },
    ]);
    expect(result.stopReason).toBe("done");
  });
});
