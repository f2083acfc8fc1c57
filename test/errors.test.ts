import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  ModelGate,
  ModelGateError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../src/index.ts";
import { API_KEY, BASE, USER_HELLO, testClient, useMockServer } from "./fixtures/server.ts";

const server = useMockServer();
const client = testClient({ maxRetries: 0 });

function answer(status: number, body: string | object, headers: Record<string, string> = {}) {
  server.use(
    http.post(`${BASE}/v1/chat/completions`, () =>
      typeof body === "string"
        ? new HttpResponse(body, { status, headers: { "content-type": "text/html", ...headers } })
        : HttpResponse.json(body, { status, headers }),
    ),
  );
}

async function failure(): Promise<APIError> {
  try {
    await client.chat.completions.create({ model: "auto", messages: USER_HELLO });
  } catch (error) {
    return error as APIError;
  }
  throw new Error("expected the call to fail");
}

describe("status → error class", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [402, PaymentRequiredError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])("maps %i to %o", async (status, ErrorClass) => {
    answer(status, { error: { message: "nope" } });
    const error = await failure();
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.status).toBe(status);
    expect(error.name).toBe((ErrorClass as { name: string }).name);
  });
});

describe("error body shapes", () => {
  it("reads the OpenAI-style { error: { message, type, code, param } }", async () => {
    answer(400, { error: { message: "temperature too high", type: "invalid_request_error", code: "bad_param", param: "temperature" } }, { "x-request-id": "req_1" });
    const error = await failure();
    expect(error.message).toBe("400 temperature too high");
    expect([error.type, error.code, error.param, error.requestID]).toEqual(["invalid_request_error", "bad_param", "temperature", "req_1"]);
    expect(error.error).toEqual({ message: "temperature too high", type: "invalid_request_error", code: "bad_param", param: "temperature" });
    expect(error.headers?.get("x-request-id")).toBe("req_1");
  });

  it("reads { error: { code: <number>, message, metadata } } and keeps the metadata", async () => {
    answer(402, { error: { code: 402, message: "Insufficient credits", metadata: { balance: 0 } } });
    const error = await failure();
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.message).toContain("Insufficient credits");
    expect(error.code).toBe(402);
    expect(error.error).toMatchObject({ metadata: { balance: 0 } });
  });

  it("reads the flat { message, statusCode } shape", async () => {
    answer(404, { message: "Model not found", statusCode: 404 });
    const error = await failure();
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe("404 Model not found");
    expect(error.code).toBe(404);
    expect(error.error).toEqual({ message: "Model not found", statusCode: 404 });
  });

  // NestJS's HttpException bodies, as its docs show them (docs.nestjs.com, "Exception filters"
  // and "Validation"): `{ statusCode, message, error }`, the summary in `error`.
  it.each([
    { shape: "a string message beside a string error", status: 401, Class: AuthenticationError, message: "Invalid API key", error: "Unauthorized", shown: "Invalid API key" },
    {
      shape: "a message list (ValidationPipe), as the reasons joined with '; '",
      status: 400,
      Class: BadRequestError,
      message: ["email must be an email", "password should not be empty"],
      error: "Bad Request",
      shown: "email must be an email; password should not be empty",
    },
  ])("reads NestJS's $shape as the message, the error string as its type, statusCode as code", async ({ status, Class, message, error: summary, shown }) => {
    const body = { message, error: summary, statusCode: status };
    answer(status, body);
    const error = await failure();
    expect(error).toBeInstanceOf(Class);
    expect(error.message).toBe(`${status} ${shown}`);
    expect(error.type).toBe(summary);
    expect(error.code).toBe(status);
    expect(error.error).toEqual(body);
  });

  it("reads a message list without an error string as the reasons", async () => {
    answer(422, { message: ["name must be a string"], statusCode: 422 });
    expect((await failure()).message).toBe("422 name must be a string");
  });

  it("gives an HTML error page from a proxy the right class and a short readable excerpt", async () => {
    const page = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>Bad Gateway</h1>${"<p>padding</p>".repeat(200)}</body></html>`;
    answer(502, page);
    const error = await failure();
    expect(error).toBeInstanceOf(InternalServerError);
    // The title repeats the status the message states once, in front.
    expect(error.message).toMatch(/^502 non-JSON \(HTML\) body: Bad Gateway padding/);
    expect(error.message).not.toContain("<h1>");
    expect(error.message).not.toContain("color:red");
    expect(error.message.length).toBeLessThan(300);
  });

  it("explains an empty error body", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => new HttpResponse(null, { status: 500 })));
    const error = await failure();
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toMatch(/500 .*(empty|no body)/);
  });

  it("reports a 200 with an HTML body as an error instead of a parse crash", async () => {
    answer(200, "<html><body>Please log in to the Wi-Fi</body></html>");
    const error = await failure();
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toContain("Please log in to the Wi-Fi");
  });

  it("cuts the API key out of a server message that echoes it", async () => {
    answer(401, { error: { message: `Incorrect API key provided: ${API_KEY}`, key: API_KEY } });
    const error = await failure();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain("[redacted]");
    for (const shown of [error.message, String(error), error.stack ?? "", JSON.stringify(error)]) {
      expect(shown).not.toContain(API_KEY);
    }
  });
});

describe("a 200 that is an error document", () => {
  it.each([
    ["an id beside it", { id: "gen-1", error: { message: "slow down", code: 429 } }, RateLimitError],
    ["an id and an object beside it", { id: "gen-1", object: "chat.completion", created: 1, error: { message: "no credit", code: 402 } }, PaymentRequiredError],
    ["a code that is no status", { id: "gen-1", error: { message: "provider failed", code: "provider_error" } }, APIError],
    // No resource beside it: an empty list of choices, `data: null`, a `status` that says "error".
    ["an empty list of choices beside it", { id: "gen-1", choices: [], error: { message: "upstream gone", code: 502 } }, InternalServerError],
    ["data: null beside it", { data: null, error: { message: "upstream gone", code: 502 } }, InternalServerError],
    ['status: "error" beside it', { status: "error", error: { message: "slow down", code: 429 } }, RateLimitError],
  ])("is thrown when not streamed, whatever sits beside it: %s", async (_, body, ErrorClass) => {
    answer(200, body);
    const error = await failure();
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.message).toContain((body.error as { message: string }).message);
  });

  it("takes no status from a code that is no whole number (503.5 is no 5xx)", async () => {
    answer(200, { id: "gen-1", error: { message: "odd code", code: 503.5 } });
    const error = await failure();
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect((error as APIError).status).toBeUndefined();
  });

  it("is not a resource that reports its own failure beside its data (a failed job's status, a list)", async () => {
    const job = { id: "ftjob-1", object: "fine_tuning.job", status: "failed", error: { code: "invalid_file", message: "bad file" } };
    const list = { object: "list", data: [], error: null };
    const listWithError = { object: "list", data: [{ id: "m" }], error: { message: "one provider did not answer" } };
    for (const body of [job, list, listWithError]) {
      server.use(http.get(`${BASE}/v1/thing`, () => HttpResponse.json(body)));
      expect(await client.get("/v1/thing")).toEqual(body);
    }
  });
});

describe("an error a provider puts inside a choice (OpenRouter's choices[].error)", () => {
  const failedChoice = { index: 0, delta: { content: "" }, finish_reason: "error", error: { code: 502, message: "Provider disconnected" } };

  it("is thrown by a whole answer, with the provider's message and the class of its code", async () => {
    answer(200, { id: "gen-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "The answer is" }, finish_reason: "error", error: failedChoice.error }] });
    const error = await failure();
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toContain("Provider disconnected");
  });

  it("is thrown by a stream after the text before it and the text its own chunk carries, never passed as a whole answer", async () => {
    const chunk = (choice: object) => `data: ${JSON.stringify({ id: "gen-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [choice] })}\n\n`;
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () => new HttpResponse(chunk({ index: 0, delta: { content: "The answer" } }) + chunk({ ...failedChoice, delta: { content: " is" } }) + "data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } })),
    );
    let text = "";
    const error = await (async () => {
      for await (const piece of (await client.chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true })).textStream) text += piece;
    })().catch((caught: unknown) => caught);
    expect(text).toBe("The answer is");
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain("Provider disconnected");
  });
});

describe("messages state the status once", () => {
  it("keeps a server message that starts with the status as it is", async () => {
    answer(429, { error: { message: "429 Too Many Requests: slow down" } });
    expect((await failure()).message).toBe("429 Too Many Requests: slow down");
    answer(503, { error: { message: "The upstream is down" } });
    expect((await failure()).message).toBe("503 The upstream is down");
  });

  it("states the status of a proxy's HTML page once, though its title and heading both carry it", async () => {
    answer(429, "<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center><hr><center>nginx</center></body></html>");
    const error = await failure();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe("429 Too Many Requests nginx (non-JSON (HTML) body)");
  });

  it("states it once for the mock gateway's injected failures", async () => {
    const { createMockGateway, MOCK_API_KEY } = await import("../src/testing/index.ts");
    const gateway = createMockGateway();
    gateway.inject({ type: "status", status: 429 });
    const mocked = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
    const error = (await mocked.models.list().catch((caught: unknown) => caught)) as APIError;
    expect(error.message.match(/429/g)).toHaveLength(1);
  });
});

describe("no response", () => {
  it("says what to do when fetch fails on an undici dispatcher of another version, as openai does", async () => {
    // What Node's fetch throws given the npm undici's ProxyAgent: the reason two causes down.
    const mismatch = Object.assign(new Error("invalid onRequestStart method"), { code: "UND_ERR_INVALID_ARG" });
    const fetchFailed = new TypeError("fetch failed", { cause: new Error("dispatch failed", { cause: mismatch }) });
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE, maxRetries: 0, fetch: async () => Promise.reject(fetchFailed) });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/^Connection error: fetch failed/);
    expect(error.message).toContain("an undici dispatcher, such as ProxyAgent, that is incompatible with the fetch implementation");
    expect(error.message).toContain("import { fetch, ProxyAgent } from 'undici'; new ModelGate({ fetch, fetchOptions: { dispatcher: new ProxyAgent(...) } });");
    expect(error.cause).toBe(fetchFailed);

    const refused = new ModelGate({ apiKey: API_KEY, baseURL: BASE, maxRetries: 0, fetch: async () => Promise.reject(new TypeError("fetch failed")) });
    expect(((await refused.models.list().catch((caught: unknown) => caught)) as Error).message).not.toContain("undici");
  });

  it("names what a custom fetch threw as a plain object by its message, not as [object Object]", async () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE, maxRetries: 0, fetch: async () => Promise.reject({ code: "ECONNRESET", message: "socket hang up" }) });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe("Connection error: socket hang up");
  });

  it("turns a network failure into APIConnectionError naming the cause", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.error()));
    const error = await failure();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^Connection error/);
  });
});
