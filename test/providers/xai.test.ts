import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay } from "../fixtures/provider-replay.ts";

// xAI (grok-3-mini): `reasoning_content`, chunks without any `finish_reason` key, a usage chunk
// with empty choices and `cost_in_usd_ticks`. Recordings: vercel/ai's xai-tool-call fixtures.

const replay = useReplay();
const toolCallStream = providerCase("xai/tool-call-stream");
const toolCall = providerCase("xai/tool-call");

const CALL_ARGUMENTS = '{"location":"San Francisco"}';
const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("xAI: reasoning, then a call, streamed", () => {
  it("prints no text and throws nothing through the README's loop", async () => {
    replay.serve(toolCallStream.answer);
    expect(await printedText(await streamed())).toBe("");
  });

  it("finalChatCompletion() has the reasoning, the call and the usage with xAI's own fields", async () => {
    replay.serve(toolCallStream.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]!.message.reasoning).toBe("First, the user is");
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, tool_calls: [{ id: "call_55117580", type: "function", function: { name: "weather", arguments: CALL_ARGUMENTS } }] },
    });
    expect(completion.usage).toMatchObject({ total_tokens: 513, cost_in_usd_ticks: 1330500, num_sources_used: 0 });
  });

  it("chat.completions.stream() ends with the call as the final message", async () => {
    replay.serve(toolCallStream.answer);
    const message = await replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalMessage();
    expect(message.tool_calls?.map((call) => call.function)).toEqual([{ name: "weather", arguments: CALL_ARGUMENTS }]);
  });

  it("runTools() runs the call", async () => {
    const { result, seen } = await runRecordedTools(replay, toolCallStream);
    expect(seen).toEqual([{ name: "weather", args: { location: "San Francisco" } }]);
    expect(result.stopReason).toBe("done");
    expect(result.steps[0]!.toolCalls[0]!.call.id).toBe("call_55117580");
  });
});

describe("xAI: the same, whole", () => {
  it("create() reads reasoning_content and keeps the call without index", async () => {
    replay.serve(toolCall.answer);
    const completion = await replay.client().chat.completions.create({ model: "auto", messages: QUESTION });
    const message = completion.choices[0]!.message;
    expect(message.reasoning).toMatch(/^First, the user is asking about the weather in San Francisco\./);
    expect(message.tool_calls).toEqual([{ id: "call_93562515", type: "function", function: { name: "weather", arguments: CALL_ARGUMENTS } }]);
    expect(completion.usage).toMatchObject({ total_tokens: 506, cost_in_usd_ticks: 1399000 });
  });

  it("runTools() runs the call", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, toolCall);
    expect(seen).toEqual([{ name: "weather", args: { location: "San Francisco" } }]);
    expect(secondRequest?.messages[2]).toEqual({ role: "tool", tool_call_id: "call_93562515", content: '{"ok":true}' });
    expect(result.message?.content).toBe("Hello! How can I assist you today?");
  });
});
