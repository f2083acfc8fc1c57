import { describe, expect, it } from "vitest";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, useReplay } from "../fixtures/provider-replay.ts";

// Azure OpenAI: a first chunk with no id, model or choices (only `prompt_filter_results`), and a
// content-filter chunk whose choice has no `delta` (`content_filter_offsets` instead). The
// recording is vercel/ai's azure-text.chunks.txt (see corpus.ts).

const replay = useReplay();
const contentFilter = providerCase("azure/content-filter-stream");

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Azure OpenAI: content-filter chunks", () => {
  it("prints the whole text through the README's loop, the choice without delta included", async () => {
    replay.serve(contentFilter.answer);
    expect(await printedText(await streamed())).toBe("Hello World");
  });

  it("yields the content-filter choice with an enumerable, empty delta and its filter fields as sent", async () => {
    replay.serve(contentFilter.answer);
    const chunks = [];
    for await (const chunk of await streamed()) chunks.push(chunk);
    const filtered = chunks.find((chunk) => "content_filter_offsets" in (chunk.choices[0] ?? {}));
    expect(filtered, "the content-filter chunk is yielded").toBeDefined();
    expect(filtered!.choices[0]!.delta).toEqual({});
    expect(Object.keys(filtered!.choices[0]!)).toContain("delta");
    expect(filtered!.choices[0]).toMatchObject({ content_filter_offsets: { check_offset: 0, start_offset: 0, end_offset: 11 }, finish_reason: null, index: 0 });
    expect(chunks.every((chunk) => chunk.choices.every((choice) => typeof choice.delta === "object"))).toBe(true);
  });

  it("yields the prompt-filter chunk first, with its empty choices", async () => {
    replay.serve(contentFilter.answer);
    const stream = await streamed();
    const first = (await stream[Symbol.asyncIterator]().next()).value;
    expect(first).toMatchObject({ choices: [], id: "", model: "", prompt_filter_results: [{ prompt_index: 0 }] });
    await stream.controller.abort();
  });

  it("text() is the whole answer", async () => {
    replay.serve(contentFilter.answer);
    expect(await (await streamed()).text()).toBe("Hello World");
  });

  // The first chunk's `created` is 0; which value a completion should keep is a proposal in
  // docs/providers.md, not asserted here.
  it("finalChatCompletion() takes the id and model from the first chunk that has them, and the usage chunk", async () => {
    replay.serve(contentFilter.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion).toMatchObject({
      id: "chatcmpl-test",
      model: "gpt-4",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello World" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 },
    });
    expect(completion.choices).toHaveLength(1);
  });

  it("chat.completions.stream() emits each piece of content and ends with the whole answer", async () => {
    replay.serve(contentFilter.answer);
    const deltas: string[] = [];
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).on("content.delta", ({ delta }) => deltas.push(delta));
    expect(await helper.finalContent()).toBe("Hello World");
    expect(deltas).toEqual(["Hello", " World"]);
    expect((await helper.finalChatCompletion()).usage?.total_tokens).toBe(20);
  });
});
