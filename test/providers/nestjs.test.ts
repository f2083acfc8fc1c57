import { describe, expect, it } from "vitest";
import { BadRequestError, PermissionDeniedError } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { QUESTION, rejection, useReplay } from "../fixtures/provider-replay.ts";

// A gateway written with NestJS answers with its built-in exceptions' bodies: `{ statusCode,
// message, error }`, where `error` is a summary string beside the message, and ValidationPipe's
// `message` is a list of reasons. Source: NestJS's documentation (see corpus.ts).

const replay = useReplay();
const badRequest = providerCase("nestjs/bad-request");
const validation = providerCase("nestjs/validation");
const forbidden = providerCase("nestjs/forbidden");

const call = (stream: boolean) => rejection(replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream }));

describe("NestJS: an exception with a message and a description", () => {
  for (const stream of [false, true]) {
    it(`create({ stream: ${stream} }): the message is the message, the error string its summary (type)`, async () => {
      replay.serve(badRequest.answer);
      const error = await call(stream);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.message).toBe("400 Something bad happened");
      expect(error).toMatchObject({ status: 400, code: 400, type: "Some error description", error: JSON.parse(badRequest.answer.body) });
    });
  }
});

describe("NestJS: ValidationPipe's list of reasons", () => {
  it("the message is the reasons, the summary is the type", async () => {
    replay.serve(validation.answer);
    const error = await call(false);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe("400 email must be an email");
    expect(error).toMatchObject({ code: 400, type: "Bad Request", error: JSON.parse(validation.answer.body) });
  });
});

describe("NestJS: an HttpException with a message only", () => {
  it("is a PermissionDeniedError whose message is NestJS's", async () => {
    replay.serve(forbidden.answer);
    const error = await call(false);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.message).toBe("403 Forbidden");
    expect(error).toMatchObject({ code: 403 });
  });
});
