import { describe, expect, it } from "vitest";
import { APIError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, rejection, runRecordedTools, useReplay } from "../fixtures/provider-replay.ts";

// OpenRouter: `reasoning_details` streamed in pieces that share an `index`, `annotations` in
// deltas, keep-alive comments, and errors inside a 200 stream (a chunk that is only `error`, and
// one with `error` beside `choices`). Sources: OpenRouter's ai-sdk-provider tests and its
// streaming docs (see corpus.ts).

const replay = useReplay();
const reasoningDetails = providerCase("openrouter/reasoning-details-stream");
const annotations = providerCase("openrouter/annotations-stream");
const geminiToolCall = providerCase("openrouter/gemini-tool-call-stream");
const errorChunk = providerCase("openrouter/error-chunk-stream");
const midStreamError = providerCase("openrouter/mid-stream-error");

/**
 * The one `reasoning.text` item the three pieces amount to: text joined, the item's other
 * fields as sent (OpenRouter's own provider keeps it so; it must go back unmodified).
 */
const MERGED_DETAIL = {
  type: "reasoning.text",
  text: "Let me think about this step by step. Done.",
  index: 0,
  format: "anthropic-claude-v1",
  signature: "erX9OCAqSEO90HsfvNlBn5J3BQ9cEI/Hg2wHFo5iA8w3L+a",
};
const FILE_ANNOTATIONS = [
  { type: "file", file: { hash: "hash1", name: "doc1.pdf", content: [{ type: "text", text: "Doc 1" }] } },
  { type: "file", file: { hash: "hash2", name: "doc2.pdf", content: [{ type: "text", text: "Doc 2" }] } },
];
const ENCRYPTED = [{ type: "reasoning.encrypted", data: "encrypted_thoughtsig_data" }];

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("OpenRouter: reasoning_details streamed in pieces at one index", () => {
  it("finalChatCompletion() merges the pieces into one item, signature included", async () => {
    replay.serve(reasoningDetails.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion.choices[0]!.message.content).toBe("Hello! How can I help?");
    expect((completion.choices[0]!.message as { reasoning_details?: unknown }).reasoning_details).toEqual([MERGED_DETAIL]);
    expect(completion.usage?.total_tokens).toBe(150);
  });

  it("chat.completions.stream() ends with the same reasoning_details on the final message", async () => {
    replay.serve(reasoningDetails.answer);
    const message = await replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalMessage();
    expect((message as { reasoning_details?: unknown }).reasoning_details).toEqual([MERGED_DETAIL]);
  });

  it("yields each piece as sent", async () => {
    replay.serve(reasoningDetails.answer);
    const texts = [];
    for await (const chunk of await streamed()) for (const detail of (chunk.choices[0]?.delta as { reasoning_details?: { text: string }[] })?.reasoning_details ?? []) texts.push(detail.text);
    expect(texts).toEqual(["Let me think about this", " step by step.", " Done."]);
  });
});

describe("OpenRouter: annotations in deltas", () => {
  it("finalChatCompletion() concatenates the annotation lists in arrival order", async () => {
    replay.serve(annotations.answer);
    const message = (await (await streamed()).finalChatCompletion()).choices[0]!.message;
    expect(message.content).toBe("Comparing two documents.");
    expect(message.annotations).toEqual(FILE_ANNOTATIONS);
  });

  it("chat.completions.stream() keeps them on the final message", async () => {
    replay.serve(annotations.answer);
    const message = await replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalMessage();
    expect(message.annotations).toEqual(FILE_ANNOTATIONS);
  });
});

describe("OpenRouter: Gemini 3's thought signature as reasoning_details, and a call ending with stop", () => {
  it("finalChatCompletion() has the encrypted detail and the call, finish_reason as sent", async () => {
    replay.serve(geminiToolCall.answer);
    const choice = (await (await streamed()).finalChatCompletion()).choices[0]!;
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.tool_calls).toEqual([{ id: "call_gemini3_123", type: "function", function: { name: "get_weather", arguments: '{"location":"SF"}' } }]);
    expect((choice.message as { reasoning_details?: unknown }).reasoning_details).toEqual(ENCRYPTED);
  });

  it("runTools() runs the call and sends the reasoning_details back with the assistant turn", async () => {
    const { result, seen, secondRequest } = await runRecordedTools(replay, geminiToolCall);
    expect(seen).toEqual([{ name: "get_weather", args: { location: "SF" } }]);
    const assistant = secondRequest!.messages[1]!;
    expect(assistant).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_gemini3_123", type: "function", function: { name: "get_weather", arguments: '{"location":"SF"}' } }],
      reasoning_details: ENCRYPTED,
    });
    expect(secondRequest!.messages[2]).toEqual({ role: "tool", tool_call_id: "call_gemini3_123", content: '{"ok":true}' });
    expect(result.messages[1]).toMatchObject({ reasoning_details: ENCRYPTED });
    expect(result.stopReason).toBe("done");
  });
});

describe("OpenRouter: errors inside a 200 stream", () => {
  const SERVER_ERROR = "The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openrouter.com if you keep seeing this error.";

  it("a chunk that is only an error throws an APIError with OpenRouter's message", async () => {
    replay.serve(errorChunk.answer);
    const error = await rejection(printedText(await streamed()));
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toBe(SERVER_ERROR);
    expect(error).toMatchObject({ status: undefined, type: "server_error", code: null });
  });

  it("a keep-alive comment is skipped, and an error beside choices (finish_reason error) is thrown", async () => {
    replay.serve(midStreamError.answer);
    const error = await rejection(printedText(await streamed()));
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toBe("Provider disconnected");
    expect(error).toMatchObject({ code: "server_error" });
  });

  it("chat.completions.stream() emits the error and rejects its final values", async () => {
    replay.serve(midStreamError.answer);
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION });
    expect((await rejection(helper.finalChatCompletion())).message).toBe("Provider disconnected");
  });
});
