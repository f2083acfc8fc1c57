import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// LM Studio's server: a 404 in OpenAI's shape whose message lists the models it has, on several
// lines. Source: gitbutlerapp/gitbutler#8706 (see corpus.ts).

const replay = useReplay();
const notFound = providerCase("lmstudio/model-not-found");

describe("LM Studio: an unknown model", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }) rejects with a NotFoundError carrying the whole message, param and code`, async () => {
      replay.serve(notFound.answer);
      const error = await rejection(replay.client().chat.completions.create({ model: "default", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toMatch(/^404 Model "default" not found\. Please specify a valid model\.\n\nYour models:\n\ngemma-3-27b-it-qat\n/);
      expect(error.message).toContain("deepseek-r1-distill-qwen-32b");
      expect(error).toMatchObject({ code: "model_not_found", param: "model", type: "invalid_request_error" });
    });
  }
});
