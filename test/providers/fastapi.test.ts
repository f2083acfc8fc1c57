import { describe, expect, it } from "vitest";
import { NotFoundError, UnprocessableEntityError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// A gateway written with FastAPI answers `{ detail }`: a string for an HTTPException, a list of
// `{ loc, msg, type }` for a request that fails validation. Source: FastAPI's documentation.

const replay = useReplay();
const notFound = providerCase("fastapi/not-found");
const validation = providerCase("fastapi/validation");

describe("FastAPI: detail as a string", () => {
  it("is the message of the NotFoundError", async () => {
    replay.serve(notFound.answer);
    const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("404 Item not found");
  });
});

describe("FastAPI: detail as a list of validation errors", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }): the UnprocessableEntityError names where and what`, async () => {
      replay.serve(validation.answer);
      const error = await rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error.message).toBe("422 path.item_id value is not a valid integer");
      expect((error as UnprocessableEntityError).error).toEqual(JSON.parse(validation.answer.body));
    });
  }
});
