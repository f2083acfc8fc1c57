import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
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

  it("gives an HTML error page from a proxy the right class and a short readable excerpt", async () => {
    const page = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>Bad Gateway</h1>${"<p>padding</p>".repeat(200)}</body></html>`;
    answer(502, page);
    const error = await failure();
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toContain("502 Bad Gateway");
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

describe("no response", () => {
  it("turns a network failure into APIConnectionError naming the cause", async () => {
    server.use(http.post(`${BASE}/v1/chat/completions`, () => HttpResponse.error()));
    const error = await failure();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^Connection error/);
  });
});
