import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay } from "../fixtures/provider-replay.ts";

// Groq: `x_groq` beside the chunks. Today it repeats the usage in `usage`; earlier streams
// carried it only in `x_groq.usage` (vercel/ai#1651), which API.md reads as the stream's usage.

const replay = useReplay();
const toolCallStream = providerCase("groq/tool-call-stream");
const legacyUsage = providerCase("groq/x-groq-usage-stream");

const LEGACY_USAGE = { queue_time: 0.07535312, prompt_tokens: 23, prompt_time: 0.006, completion_tokens: 19, completion_time: 0.022, total_tokens: 42, total_time: 0.027999999999999997 };

const streamed = (extra: Record<string, unknown> = {}) => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true, ...extra });

describe("Groq: a call with x_groq beside the chunks", () => {
  it("finalChatCompletion() has the call (arguments {}) and the usage", async () => {
    replay.serve(toolCallStream.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, tool_calls: [{ id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: "{}" } }] },
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 210, completion_tokens: 15, total_tokens: 225 });
    expect(completion.model).toBe("llama-3.3-70b-versatile");
  });

  it("yields x_groq on the chunks as sent", async () => {
    replay.serve(toolCallStream.answer);
    const ids = [];
    for await (const chunk of await streamed()) if ("x_groq" in chunk) ids.push((chunk as unknown as { x_groq: { id: string } }).x_groq.id);
    expect(ids).toEqual(["req_01kh52nj5yfcat8hrmvrk2j2hj", "req_01kh52nj5yfcat8hrmvrk2j2hj"]);
  });

  it("runTools() runs the call with no arguments", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, toolCallStream);
    expect(seen).toEqual([{ name: "weather", args: {} }]);
    expect(secondRequest?.messages[2]).toEqual({ role: "tool", tool_call_id: "tk85n1k4m", content: '{"ok":true}' });
    expect(result.stopReason).toBe("done");
  });
});

describe("Groq: usage only in x_groq.usage", () => {
  it("finalChatCompletion().usage is x_groq.usage", async () => {
    replay.serve(legacyUsage.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.usage).toEqual(LEGACY_USAGE);
    expect(completion.choices[0]).toMatchObject({ finish_reason: "stop", message: { content: "" } });
  });

  it("stream.gateway.usage is x_groq.usage once the stream is read", async () => {
    replay.serve(legacyUsage.answer);
    const stream = await streamed();
    expect(await printedText(stream)).toBe("");
    expect(stream.gateway.usage).toMatchObject({ prompt_tokens: 23, completion_tokens: 19, total_tokens: 42 });
  });

  it("counts as the usage chunk include_usage asks for", async () => {
    // The same chunk without [DONE]: a close after it is the end, since its usage came.
    replay.serve({ ...legacyUsage.answer, body: legacyUsage.answer.body.replace("data: [DONE]\n\n", "") });
    const completion = await (await streamed({ stream_options: { include_usage: true } })).finalChatCompletion();
    expect(completion.usage?.total_tokens).toBe(42);
  });

  it("chat.completions.stream() reports it as totalUsage", async () => {
    replay.serve(legacyUsage.answer);
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION });
    expect(await helper.totalUsage()).toMatchObject({ prompt_tokens: 23, completion_tokens: 19, total_tokens: 42 });
  });
});
