import { describe, expect, it } from "vitest";
import { InternalServerError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// Envoy (and the meshes built on it) when the upstream resets: a 503 in plain text.

const replay = useReplay();
const reset = providerCase("envoy/503");

describe("Envoy: upstream reset", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }) rejects with an InternalServerError quoting Envoy's reason`, async () => {
      replay.serve(reset.answer);
      const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as InternalServerError).status).toBe(503);
      expect(error.message).toContain("upstream connect error or disconnect/reset before headers. reset reason: connection termination");
    });
  }
});
