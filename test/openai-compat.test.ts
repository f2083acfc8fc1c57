import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import ModelGate, * as modelgate from "../src/index.ts";
import { StructuredOutputError } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// What openai-node users reach for on the client class, at run time and in the types. The
// `@ts-expect-error` lines are checked by `npm run typecheck`: they fail it if the hole reopens.

const ERROR_CLASSES = [
  "ModelGateError", "APIError", "BadRequestError", "AuthenticationError", "PaymentRequiredError",
  "PermissionDeniedError", "NotFoundError", "ConflictError", "UnprocessableEntityError", "RateLimitError",
  "InternalServerError", "APIConnectionError", "APIConnectionTimeoutError", "APIUserAbortError",
] as const;

const client = (gateway = createMockGateway()) =>
  new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "http://127.0.0.1:1", fetch: gateway, maxRetries: 0 });

describe("the client class as openai-node users use it", () => {
  it("carries every error class as a static, the same class as the named export", () => {
    for (const name of ERROR_CLASSES) expect(ModelGate[name], name).toBe(modelgate[name]);
  });

  it("makes the new error classes statics of the client class, as the others are", () => {
    expect(ModelGate.StructuredOutputError).toBe(StructuredOutputError);
    expect(ModelGate.BudgetExceededError).toBeTypeOf("function");
  });

  it("catches a gateway error with instanceof on the statics", async () => {
    const error = await client().chat.completions.create({ model: "no/such-model", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelGate.NotFoundError);
    expect(error).toBeInstanceOf(ModelGate.APIError);
    expect(error).toBeInstanceOf(ModelGate.ModelGateError);
    if (!(error instanceof ModelGate.APIError)) throw new Error("not an APIError");
    // @ts-expect-error status is number | undefined after instanceof, not any
    const asString: string = error.status;
    expect(typeof asString).toBe("number");
  });

  it("iterates models.list() with for await, and still resolves to { object, data }", async () => {
    const ids: string[] = [];
    for await (const model of client().models.list()) ids.push(model.id);
    const list = await client().models.list();
    expect(list.object).toBe("list");
    expect(ids).toEqual(list.data.map((model) => model.id));
    expect(ids.length).toBeGreaterThan(3);
  });

  it("rejects the iteration of models.list() with the request's error", async () => {
    const gateway = createMockGateway();
    gateway.inject({ type: "status", status: 401 });
    const iterate = async () => {
      for await (const model of client(gateway).models.list()) void model;
    };
    await expect(iterate()).rejects.toBeInstanceOf(ModelGate.AuthenticationError);
  });

  it("types client.post(..., { stream: true }) as a Stream whose response is a Response", async () => {
    const stream = await client().post<modelgate.ChatCompletionChunk>("/v1/chat/completions", {
      body: { model: "auto", messages: [{ role: "user", content: "hi" }], stream: true },
      stream: true,
    });
    expect(stream).toBeInstanceOf(modelgate.Stream);
    const response: Response = stream.response;
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect((await stream.text()).length).toBeGreaterThan(0);
  });

  it("accepts explicit undefined for optional options and params", async () => {
    const completion = await new ModelGate({
      apiKey: MOCK_API_KEY,
      baseURL: "http://127.0.0.1:1",
      fetch: createMockGateway(),
      timeout: undefined,
      maxRetries: undefined,
      defaultHeaders: undefined,
    }).chat.completions.create(
      { model: "auto", messages: [{ role: "user", content: "hi" }], temperature: undefined, reasoning_effort: undefined },
      { signal: undefined, headers: undefined },
    );
    expect(completion.choices[0]?.message.role).toBe("assistant");
  });
});

describe("types an openai-node user names", () => {
  it("reaches the public types through the client class", () => {
    const messages: ModelGate.ChatCompletionMessageParam[] = [
      { role: "user", content: [{ type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,AA==" } }] },
    ];
    const params: ModelGate.ChatCompletionCreateParamsNonStreaming = {
      model: "auto",
      messages,
      modalities: ["text", "audio"],
      audio: { voice: "alloy", format: "wav" },
      prediction: { type: "content", content: "draft" },
      service_tier: "flex",
      store: false,
      reasoning_effort: "low",
    };
    const fragment: ModelGate.ChatCompletionChunkToolCallDelta = { index: 0, function: { arguments: "{" } };
    const calls: string[] = [];
    calls[fragment.index] = fragment.function?.arguments ?? "";
    // @ts-expect-error "extreme" is not a reasoning effort
    const wrong: ModelGate.ChatCompletionReasoningEffort = "extreme";
    expect([params.model, calls[0], wrong]).toEqual(["auto", "{", "extreme"]);
  });

  it("offers textStream and text() on chat-chunk streams only", () => {
    const numbers = modelgate.Stream.fromReadableStream<number>(new ReadableStream());
    // @ts-expect-error a stream rebuilt from a ReadableStream has no response
    const response: Response = numbers.response;
    expect(response).toBeUndefined();
    const check = async () => {
      // @ts-expect-error textStream is only for ChatCompletionChunk streams
      for await (const text of numbers.textStream) void text;
      // @ts-expect-error text() is only for ChatCompletionChunk streams
      await numbers.text();
    };
    void check;
  });
});

describe("CommonJS: require('modelgate')", () => {
  it("is the client class itself, carrying every named export (built dist/index.cjs)", () => {
    const required = createRequire(import.meta.url)(join(import.meta.dirname, "../dist/index.cjs")) as Record<string, unknown> & (new (...args: never[]) => unknown);
    expect(typeof required).toBe("function");
    expect(required.ModelGate).toBe(required);
    expect(required.default).toBe(required);
    for (const name of [...ERROR_CLASSES, "Stream", "Chat", "Completions", "Models", "VERSION"]) {
      expect(required[name], name).toBeDefined();
    }
    expect((required.APIError as { name: string }).name).toBe("APIError");
  });
});
