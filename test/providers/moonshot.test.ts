import { describe, expect, it } from "vitest";
import { APIError, BadRequestError, jsonSchema } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, runRecordedTools, useReplay } from "../fixtures/provider-replay.ts";

// Kimi (Moonshot): two calls in one chunk without `index`, continued at `index` 1 then 0, usage
// inside the choice; an error chunk after text; reasoning_content; errors in OpenAI's shape.
// Recordings: vercel/ai's moonshotai fixtures (see corpus.ts).

const replay = useReplay();
const parallel = providerCase("moonshot/parallel-tool-calls-stream");
const toolCallStream = providerCase("moonshot/tool-call-stream");
const errorChunk = providerCase("moonshot/error-chunk-stream");
const reasoning = providerCase("moonshot/reasoning");
const invalid = providerCase("moonshot/error");
const structured = providerCase("moonshot/structured");

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("Kimi: two calls without index, continued out of order", () => {
  // Calls without `index` are held at the index they were given, which Kimi's later fragments
  // name (API.md, Stream, lenient reading).
  it("finalChatCompletion() has both calls whole, in the order they started", async () => {
    replay.serve(parallel.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: "call-weather", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call-time", type: "function", function: { name: "get_time", arguments: '{"zone":"UTC"}' } },
    ]);
  });

  it("yields the first chunk's calls with the indexes 0 and 1 filled in", async () => {
    replay.serve(parallel.answer);
    const stream = await streamed();
    const first = (await stream[Symbol.asyncIterator]().next()).value;
    expect(first.choices[0].delta.tool_calls.map((call: { index: number; id: string }) => [call.index, call.id])).toEqual([
      [0, "call-weather"],
      [1, "call-time"],
    ]);
    stream.controller.abort();
  });

  // Calls without `index` are held at the index they were given, which Kimi's later fragments
  // name (API.md, Stream, lenient reading).
  it("runTools() runs both calls and answers each under its id, in call order", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, parallel);
    expect(seen).toEqual(expect.arrayContaining([{ name: "get_weather", args: { city: "Paris" } }, { name: "get_time", args: { zone: "UTC" } }]));
    expect(seen).toHaveLength(2);
    expect(secondRequest?.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call-weather", content: '{"ok":true}' },
      { role: "tool", tool_call_id: "call-time", content: '{"ok":true}' },
    ]);
    expect(result.stopReason).toBe("done");
  });
});

describe("Kimi: a call and its usage on the finishing chunk", () => {
  it("finalChatCompletion() has the call and the usage", async () => {
    replay.serve(toolCallStream.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]!.message.tool_calls).toEqual([{ id: "call_abc123", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
    expect(completion.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
  });

  it("runTools() runs it", async () => {
    const { seen, result } = await runRecordedTools(replay, toolCallStream);
    expect(seen).toEqual([{ name: "get_weather", args: { city: "Paris" } }]);
    expect(result.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
  });
});

describe("Kimi: an error chunk after text", () => {
  it("hands out the text that came, then throws an APIError with Kimi's message and code", async () => {
    replay.serve(errorChunk.answer);
    let text = "";
    const error = await rejection(
      (async () => {
        for await (const chunk of await streamed()) text += chunk.choices[0]?.delta.content ?? "";
      })(),
    );
    expect(text).toBe("Partial");
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toBe("Stream failed");
    expect(error).toMatchObject({ status: undefined, code: "stream_failure", type: "server_error" });
  });

  it("text() and finalChatCompletion() reject with it", async () => {
    replay.serve(errorChunk.answer, errorChunk.answer);
    expect((await rejection((await streamed()).text())).message).toBe("Stream failed");
    expect((await rejection((await streamed()).finalChatCompletion())).message).toBe("Stream failed");
  });

  it("chat.completions.stream() emits it as error and rejects finalContent()", async () => {
    replay.serve(errorChunk.answer);
    const errors: unknown[] = [];
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).on("error", (error) => errors.push(error));
    const error = await rejection(helper.finalContent());
    expect(error).toBeInstanceOf(APIError);
    expect(errors).toEqual([error]);
  });
});

describe("Kimi: whole answers", () => {
  it("create() reads reasoning_content as reasoning, and JSON.stringify stays the wire body", async () => {
    replay.serve(reasoning.answer);
    const completion = await replay.client().chat.completions.create({ model: "auto", messages: QUESTION });
    expect(completion.choices[0]!.message).toMatchObject({ content: "There are three.", reasoning: "Let me count the letters carefully." });
    expect(JSON.parse(JSON.stringify(completion))).toEqual(JSON.parse(reasoning.answer.body));
  });

  it("a 400 in OpenAI's shape is a BadRequestError with Kimi's message, code and type", async () => {
    replay.serve(invalid.answer, invalid.answer);
    for (const stream of [false, true]) {
      const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.message).toBe("400 Invalid request: invalid part type: file");
      expect(error).toMatchObject({ code: "invalid_parameter", type: "invalid_request_error" });
    }
  });

  it("parse() reads pretty-printed JSON content", async () => {
    replay.serve(structured.answer);
    const completion = await replay.client().chat.completions.parse({ model: "auto", messages: QUESTION, response_format: jsonSchema<{ answer: string }>(structured.schema!) });
    expect(completion.choices[0]!.message.parsed).toEqual({ answer: "ok" });
  });
});
