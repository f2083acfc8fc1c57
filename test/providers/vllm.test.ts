import { describe, expect, it } from "vitest";
import { BadRequestError, NotFoundError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// vLLM: its own flat error body (`object: "error"`, `message`, `type`, numeric `code`), and the
// same inside a 200 stream under `error`. Sources: a vLLM server's log and BerriAI/litellm#32237.

const replay = useReplay();
const notFound = providerCase("vllm/model-not-found");
const inBand = providerCase("vllm/in-band-error-stream");

describe("vLLM: an unknown model", () => {
  it("create() rejects with a NotFoundError carrying vLLM's message, type and code", async () => {
    replay.serve(notFound.answer);
    const error = await rejection(replay.client().chat.completions.create({ model: "model", messages: QUESTION }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("404 The model `model` does not exist.");
    expect(error).toMatchObject({ status: 404, type: "NotFoundError", code: 404, error: JSON.parse(notFound.answer.body) });
  });

  it("create({ stream: true }) rejects the same way", async () => {
    replay.serve(notFound.answer);
    const error = await rejection(replay.client().chat.completions.create({ model: "model", messages: QUESTION, stream: true }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("404 The model `model` does not exist.");
  });
});

describe("vLLM: an error inside a 200 stream", () => {
  it("throws the BadRequestError its code names, with vLLM's message", async () => {
    replay.serve(inBand.answer);
    const error = await rejection((async () => printedText(await replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true })))());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe("400 The model is not multimodal. Please remove image inputs.");
    expect(error).toMatchObject({ type: "BadRequestError", code: 400 });
  });

  it("chat.completions.stream() rejects with it", async () => {
    replay.serve(inBand.answer);
    expect(await rejection(replay.client().chat.completions.stream({ model: "auto", messages: QUESTION }).finalChatCompletion())).toBeInstanceOf(BadRequestError);
  });
});
