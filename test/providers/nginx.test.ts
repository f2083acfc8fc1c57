import { describe, expect, it } from "vitest";
import { InternalServerError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// nginx in front of a gateway whose upstream is down: its built-in 502 page, HTML with CRLF line
// ends. Source: nginx's ngx_http_special_response.c (see corpus.ts).

const replay = useReplay();
const badGateway = providerCase("nginx/502");

describe("nginx: the 502 page", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }) rejects with an InternalServerError that quotes the page's words and states the status once`, async () => {
      replay.serve(badGateway.answer);
      const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as InternalServerError).status).toBe(502);
      expect(error.message).toContain("502 Bad Gateway nginx");
      expect(error.message).not.toContain("<");
      expect(error.message.match(/502/g)).toHaveLength(1);
    });
  }
});
