import { describe, expect, it } from "vitest";
import { BadRequestError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// llama.cpp's llama-server: `content: null` beside the role, `reasoning_content`, `timings` on
// the last chunk; and a streaming error sent as an SSE field named `error` (no data), then
// [DONE]. Sources: g0t4/ask-openai.nvim's notes and llama.cpp's server (see corpus.ts).

const replay = useReplay();
const timings = providerCase("llamacpp/timings-stream");
const errorField = providerCase("llamacpp/error-field-stream");

const CONTEXT_ERROR = "request (4170 tokens) exceeds the available context size (4096 tokens), try increasing it";
const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("llama.cpp: reasoning_content and timings", () => {
  it("prints nothing for content null", async () => {
    replay.serve(timings.answer);
    expect(await printedText(await streamed())).toBe("");
  });

  it("finalChatCompletion() has the reasoning, the finish_reason and the usage of the last chunk", async () => {
    replay.serve(timings.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]).toMatchObject({ finish_reason: "stop", message: { reasoning: "We" } });
    expect(completion.usage).toEqual({ completion_tokens: 247, prompt_tokens: 1085, total_tokens: 1332 });
    expect(completion.id).toBe("chatcmpl-DHvcEyFobkuV4Xu1QSYo4bqNv18TDqaA");
  });

  it("yields timings on the last chunk as sent", async () => {
    replay.serve(timings.answer);
    const chunks = [];
    for await (const chunk of await streamed()) chunks.push(chunk);
    expect((chunks.at(-1) as unknown as { timings: { predicted_n: number } }).timings.predicted_n).toBe(247);
  });
});

describe("llama.cpp: the error: field", () => {
  it("the README's loop throws a BadRequestError with llama-server's reason, not an empty answer", async () => {
    replay.serve(errorField.answer);
    const error = await rejection((async () => printedText(await streamed()))());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe(`400 ${CONTEXT_ERROR}`);
    expect(error).toMatchObject({ code: 400, type: "exceed_context_size_error" });
  });

  it("text() and finalChatCompletion() reject with it", async () => {
    replay.serve(errorField.answer, errorField.answer);
    expect(await rejection((async () => (await streamed()).text())())).toBeInstanceOf(BadRequestError);
    expect((await rejection((async () => (await streamed()).finalChatCompletion())())).message).toContain(CONTEXT_ERROR);
  });

  it("chat.completions.stream() rejects its final values with it", async () => {
    replay.serve(errorField.answer);
    const error = await rejection(replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalContent());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain(CONTEXT_ERROR);
  });
});
