import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, runRecordedTools, useReplay, yieldedCallFragments } from "../fixtures/provider-replay.ts";

// Mistral's reasoning models send `content` as a list of parts: `thinking` parts (whose text is
// in their own `thinking` list of text parts) and `text` parts; streamed, the list of one chunk
// holds the last thinking part and the answer's first character. Recordings: vercel/ai's
// issue-13703 fixtures and mistral-tool-call.chunks.txt (see corpus.ts).

const replay = useReplay();
const thinkingStream = providerCase("mistral/thinking-stream");
const thinking = providerCase("mistral/thinking");
const toolCallStream = providerCase("mistral/tool-call-stream");

/** The thinking parts' text of the stream, joined: what `reasoning` must say. */
const STREAMED_REASONING =
  "Okay, the user is asking for the product of 17 and 23. I need to calculate this multiplication. Let me break it down:\n\n" +
  "First, I recall that 17 multiplied by 20 is 340 (since 17 * 20 = 340).\nThen, I need to add 17 multiplied by 3, which is 51 (since 17 * 3 = 51).\n" +
  "Now, add these two results together: 340 + 51 = 391.\n\nSo, 17 * 23 = 391.";
const WHOLE_REASONING =
  "Okay, the user is asking for the product of 17 and 23. Let me calculate that.\n\nFirst, I recall that 17 times 20 is 340. Then, 17 times 3 is 51. " +
  "Adding those together gives 340 + 51 = 391.\n\nSo, 17 multiplied by 23 equals 391.";

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Mistral: content as a list of thinking and text parts, streamed", () => {
  it("prints 391 through the README's loop: no character of the answer is lost", async () => {
    replay.serve(thinkingStream.answer);
    expect(await printedText(await streamed())).toBe("391");
  });

  it("yields every delta's content as a string, the list kept as non-enumerable content_parts", async () => {
    replay.serve(thinkingStream.answer);
    const deltas = [];
    for await (const chunk of await streamed()) deltas.push(chunk.choices[0]!.delta);
    expect(deltas.every((delta) => delta.content == null || typeof delta.content === "string")).toBe(true);
    const mixed = deltas.find((delta) => delta.content === "3");
    expect(mixed, "the chunk whose list ends with the text part '3'").toBeDefined();
    expect(mixed!.reasoning).toBe("1.");
    const parts = Object.getOwnPropertyDescriptor(mixed, "content_parts");
    expect(parts?.enumerable).toBe(false);
    expect(parts?.value).toEqual([
      { type: "thinking", thinking: [{ type: "text", text: "1." }], closed: true },
      { type: "text", text: "3" },
    ]);
    expect(JSON.parse(JSON.stringify(mixed))).not.toHaveProperty("content_parts");
  });

  it("text() is the answer alone", async () => {
    replay.serve(thinkingStream.answer);
    expect(await (await streamed()).text()).toBe("391");
  });

  it("finalChatCompletion() has the answer as content and every thinking part as reasoning", async () => {
    replay.serve(thinkingStream.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ message: { role: "assistant", content: "391" }, finish_reason: "stop" });
    expect(completion.choices[0]!.message.reasoning).toBe(STREAMED_REASONING);
    expect(completion.usage).toMatchObject({ prompt_tokens: 28, completion_tokens: 139, total_tokens: 167 });
  });

  it("reasoningStream yields the thinking, textStream the answer", async () => {
    replay.serve(thinkingStream.answer);
    const [forReasoning, forText] = (await streamed()).tee();
    let reasoning = "";
    let text = "";
    await Promise.all([
      (async () => {
        for await (const piece of forReasoning.reasoningStream) reasoning += piece;
      })(),
      (async () => {
        for await (const piece of forText.textStream) text += piece;
      })(),
    ]);
    expect(reasoning).toBe(STREAMED_REASONING);
    expect(text).toBe("391");
  });

  it("chat.completions.stream() emits the answer's pieces as content and ends with 391", async () => {
    replay.serve(thinkingStream.answer);
    const deltas: string[] = [];
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).on("content.delta", ({ delta }) => deltas.push(delta));
    expect(await helper.finalContent()).toBe("391");
    expect(deltas.join("")).toBe("391");
    expect((await helper.finalMessage()).reasoning).toBe(STREAMED_REASONING);
  });
});

describe("Mistral: content as a list of parts, whole", () => {
  it("create() gives the text part as content, the thinking as reasoning, the list as non-enumerable content_parts", async () => {
    replay.serve(thinking.answer);
    const completion = await replay.client().chat.completions.create({ model: "auto", messages: QUESTION });
    const message = completion.choices[0]!.message;
    expect(message.content).toBe("391");
    expect(message.reasoning).toBe(WHOLE_REASONING);
    const parts = Object.getOwnPropertyDescriptor(message, "content_parts");
    expect(parts?.enumerable).toBe(false);
    expect(parts?.value).toEqual([
      { type: "thinking", thinking: [{ type: "text", text: WHOLE_REASONING }], closed: true },
      { type: "text", text: "391" },
    ]);
    expect(completion.usage?.total_tokens).toBe(122);
  });

  // A whole completion answered to `stream: true` is a stream of one chunk (API.md, Stream).
  it("create({ stream: true }) answered whole is a stream whose text is 391", async () => {
    replay.serve(thinking.answer);
    expect(await printedText(await streamed())).toBe("391");
  });
});

describe("Mistral: a tool call without index or type", () => {
  it("finalChatCompletion() has the call with its id, type function and the arguments", async () => {
    replay.serve(toolCallStream.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { content: null, tool_calls: [{ id: "gSIMJiOkT", type: "function", function: { name: "weather", arguments: '{"location": "San Francisco"}' } }] },
    });
    expect(completion.usage?.total_tokens).toBe(146);
  });

  it("yields the fragment with index 0 filled in", async () => {
    replay.serve(toolCallStream.answer);
    expect((await yieldedCallFragments(await streamed())).map((call) => call.index)).toEqual([0]);
  });

  it("runTools() runs the call and answers it under Mistral's call id", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, toolCallStream);
    expect(seen).toEqual([{ name: "weather", args: { location: "San Francisco" } }]);
    expect(secondRequest?.messages.slice(1)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "gSIMJiOkT", type: "function", function: { name: "weather", arguments: '{"location": "San Francisco"}' } }] },
      { role: "tool", tool_call_id: "gSIMJiOkT", content: '{"ok":true}' },
    ]);
    expect(result.stopReason).toBe("done");
    expect(result.message?.content).toBe("Hello");
  });
});
