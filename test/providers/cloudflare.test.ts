import { describe, expect, it } from "vitest";
import { InternalServerError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// Cloudflare in front of a gateway whose answer took longer than its edge allows: status 524
// and, to a client that is not a browser, the plain text "error code: 524".

const replay = useReplay();
const timeout = providerCase("cloudflare/524");

describe("Cloudflare: 524", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }) rejects with an InternalServerError (a 5xx) quoting the text`, async () => {
      replay.serve(timeout.answer);
      const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as InternalServerError).status).toBe(524);
      expect(error.message).toContain("error code: 524");
    });
  }
});
