import { describe, expect, it } from "vitest";
import { BadRequestError, ModelGate, ModelGateError, RateLimitError, UnprocessableEntityError } from "../src/index.ts";

// How headers, query parameters and a baseURL are merged, how mistakes in a call's arguments
// are reported, and what error messages say, for the cases 0.1.0 got wrong.

function recording(answer: () => Response = () => Response.json({ ok: true })) {
  const requests: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return answer();
  };
  return { requests, fetch };
}

const client = (options: ConstructorParameters<typeof ModelGate>[0] = {}) =>
  new ModelGate({ apiKey: "mg-key-abcdef", baseURL: "https://gateway.test", maxRetries: 0, ...options });

describe("headers", () => {
  it("takes a Headers instance as defaultHeaders and as a call's headers", async () => {
    const { requests, fetch } = recording();
    await client({ fetch, defaultHeaders: new Headers({ "x-team": "search" }) }).get("/v1/models", { headers: new Headers({ "x-trace": "t1" }) });
    expect(requests[0]!.headers.get("x-team")).toBe("search");
    expect(requests[0]!.headers.get("x-trace")).toBe("t1");
  });

  it("takes [name, value] pairs, and a null in a record still removes a header", async () => {
    const { requests, fetch } = recording();
    await client({ fetch, defaultHeaders: [["x-a", "1"]] }).get("/v1/models", { headers: { "user-agent": null } });
    expect(requests[0]!.headers.get("x-a")).toBe("1");
    expect(requests[0]!.headers.get("user-agent")).toBeNull();
  });
});

describe("query parameters", () => {
  it("replaces a defaultQuery value by a call's query value of the same name instead of sending both", async () => {
    const { requests, fetch } = recording();
    await client({ fetch, defaultQuery: { region: "eu", tier: "free" } }).get("/v1/models", { query: { region: "us" } });
    const url = new URL(requests[0]!.url);
    expect(url.searchParams.getAll("region")).toEqual(["us"]);
    expect(url.searchParams.get("tier")).toBe("free");
  });

  it("keeps a query string written in baseURL on every request, below defaultQuery and the call's query", async () => {
    const { requests, fetch } = recording();
    const versioned = client({ fetch, baseURL: "https://gateway.test/v1?api-version=2025-01-01&region=eu", defaultQuery: { region: "us" } });
    await versioned.get("/v1/models");
    await versioned.get("/v1/models", { query: { "api-version": "2026-01-01", region: null } });
    const [first, second] = requests.map((request) => new URL(request.url));
    expect(first!.pathname).toBe("/v1/models");
    expect(Object.fromEntries(first!.searchParams)).toEqual({ "api-version": "2025-01-01", region: "us" });
    expect(Object.fromEntries(second!.searchParams)).toEqual({ "api-version": "2026-01-01" });
  });
});

describe("mistakes in a call's arguments reject the promise; nothing throws from the call", () => {
  const mistakes: [string, (subject: ModelGate) => Promise<unknown>, RegExp, string][] = [
    ["create(null)", (subject) => subject.chat.completions.create(null as never), /`params` must be an object.*got null/, "params"],
    ["create() with options that are a string", (subject) => subject.chat.completions.create({ model: "auto", messages: [] }, "fast" as never), /`options` must be an object.*got "fast"/, "options"],
    ["post() with null options", (subject) => subject.post("/v1/x", null as never), /`options` must be an object.*got null/, "options"],
    ["models.retrieve(undefined)", (subject) => subject.models.retrieve(undefined as never), /`id` must be a model id.*got nothing/, "id"],
    // By its kind only: a header's value may be a credential read as a number from a config file.
    ["a header value that is a number", (subject) => subject.get("/v1/models", { headers: { "x-api-key": 98765432109876 as never } }), /^`headers\["x-api-key"\]` must be a string \(or null to remove it\); got a number\.$/, 'headers["x-api-key"]'],
    ["a header value with a line break", (subject) => subject.get("/v1/models", { headers: { "x-n": "a\nb" } }), /`headers\["x-n"\]` contains a line break/, 'headers["x-n"]'],
    ["a header value outside Latin-1", (subject) => subject.get("/v1/models", { headers: { "x-n": "€" } }), /`headers\["x-n"\]` has an invalid name or value/, 'headers["x-n"]'],
    ["a negative timeout", (subject) => subject.get("/v1/models", { timeout: -1 }), /`timeout` must be/, "timeout"],
    ["fetchOptions that are a number", (subject) => subject.get("/v1/models", { fetchOptions: 5 as never }), /`fetchOptions` must be an object; got number 5/, "fetchOptions"],
    ["a list of headers with an entry that is no pair", (subject) => subject.get("/v1/models", { headers: [["x-a"]] as never }), /^`headers` must be a Headers, \[name, value\] pairs or a record; got an entry that is a list of 1, not a \[name, value\] pair\.$/, "headers"],
    ["a list of headers holding a number", (subject) => subject.get("/v1/models", { headers: [1] as never }), /got an entry that is a number, not a \[name, value\] pair/, "headers"],
    ["a signal-like object without removeEventListener", (subject) => subject.get("/v1/models", { signal: { aborted: false, addEventListener() {} } as never }), /`signal` must be an AbortSignal/, "signal"],
    ["an idempotencyKey that is a number", (subject) => subject.get("/v1/models", { idempotencyKey: 5 as never }), /`idempotencyKey` must be a string; got number 5/, "idempotencyKey"],
  ];

  it.each(mistakes)("%s, naming the parameter in the message and as the error's param", async (_, call, message, param) => {
    const { requests, fetch } = recording();
    const subject = client({ fetch });
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = call(subject);
    }).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(ModelGateError);
    await expect(call(subject)).rejects.toThrow(message);
    await expect(call(subject)).rejects.toMatchObject({ param });
    expect(requests).toHaveLength(0);
  });
});

describe("a header name that holds the key", () => {
  it("is named with the key cut out, in the message and in param", async () => {
    const { requests, fetch } = recording();
    const key = "sk-live-ABCDEFGH12345678ZYXWVUTS";
    const subject = new ModelGate({ apiKey: key, baseURL: "https://gateway.test", fetch, defaultHeaders: { [`Authorization: Bearer ${key}`]: "" } });
    const error = (await subject.get("/v1/models").catch((caught: unknown) => caught)) as ModelGateError & { param: string };
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.param).toBe('headers["Authorization: Bearer [redacted]"]');
    expect(error.message).toContain("has an invalid name or value");
    for (let start = 0; start + 8 <= key.length; start++) expect(error.message + error.param).not.toContain(key.slice(start, start + 8));
    expect(requests).toHaveLength(0);
  });
});

describe("messages that say what is wrong", () => {
  it("says a scheme is missing for baseURL: \"localhost:8080\"", () => {
    expect(() => client({ baseURL: "localhost:8080" })).toThrow(/no scheme.*"http:\/\/localhost:8080"/);
    for (const baseURL of ["localhost:8080", "not a url", "ftp://host.example", "https://user:pass@host.example"]) {
      expect(() => client({ baseURL }), baseURL).toThrow(expect.objectContaining({ param: "baseURL" }));
    }
  });

  it("gives the reason a 422 lists in validation[], not only its summary", async () => {
    const body = {
      type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
      title: "Invalid request",
      status: 422,
      detail: "Your request is not valid and no HTTP validation response was found in the spec.",
      validation: [{ location: ["body", "messages", "0", "content"], severity: "Error", code: "type", message: "must be string" }],
    };
    const { fetch } = recording(() => Response.json(body, { status: 422 }));
    const error = await client({ fetch }).post("/v1/chat/completions", { body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toContain("messages.0.content must be string");
  });

  it("gives the reasons of a FastAPI-style detail list", async () => {
    const body = { detail: [{ loc: ["body", "model"], msg: "field required", type: "value_error.missing" }] };
    const { fetch } = recording(() => Response.json(body, { status: 400 }));
    const error = await client({ fetch }).get("/v1/x").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toBe("400 model field required");
  });

  it("says why a retry-after past the cap was not waited for", async () => {
    const { fetch, requests } = recording(() => Response.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "999999" } }));
    const error = await client({ fetch, maxRetries: 2 }).get("/v1/models").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toMatch(/slow down.*\(Not retried: the server asked to wait "999999" \(retry-after\), longer than the 60 s the SDK waits\.\)$/);
    expect(requests).toHaveLength(1);
  });
});

describe("client.post(path, { body: stream })", () => {
  const streamOf = (...parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(sink) {
        for (const part of parts) sink.enqueue(new TextEncoder().encode(part));
        sink.close();
      },
    });

  it("sends a ReadableStream as the body, streamed (duplex half), as openai does", async () => {
    const sent: { body: string; duplex: unknown; contentType: string | null }[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push({ body: await request.text(), duplex: (init as { duplex?: unknown }).duplex, contentType: request.headers.get("content-type") });
      return Response.json({ ok: true });
    };
    const body = streamOf('{"a":', "1}");
    const answer = await client({ fetch }).post("/v1/uploads/part", { body, headers: { "content-type": "application/octet-stream" } });
    expect(answer).toEqual({ ok: true });
    expect(sent).toEqual([{ body: '{"a":1}', duplex: "half", contentType: "application/octet-stream" }]);
  });

  it("reaches middleware as the Request's body", async () => {
    const bodies: string[] = [];
    const fetch = async () => Response.json({ ok: true });
    const seen = client({ fetch, middleware: [async (request, next) => (bodies.push(await request.clone().text()), next(request))] });
    await seen.post("/v1/x", { body: streamOf("raw bytes") });
    expect(bodies).toEqual(["raw bytes"]);
  });

  it("does not retry a call whose body is a stream, which cannot be sent twice", async () => {
    const { fetch, requests } = recording(() => Response.json({ error: { message: "busy" } }, { status: 503 }));
    const error = await client({ fetch, maxRetries: 2 }).post("/v1/x", { body: streamOf("once") }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain("busy");
    expect(requests).toHaveLength(1);
    // The same call with a JSON body is retried, as every call is.
    const json = recording(() => Response.json({ error: { message: "busy" } }, { status: 503, headers: { "retry-after-ms": "0" } }));
    await client({ fetch: json.fetch, maxRetries: 2 }).post("/v1/x", { body: { once: true } }).catch(() => undefined);
    expect(json.requests).toHaveLength(3);
  });

  it("does not ask an apiKey function again after a 401 for a stream body", async () => {
    const keys = ["mg-first-key-0123456789", "mg-second-key-0123456789"];
    const { fetch, requests } = recording(() => Response.json({ error: { message: "bad key" } }, { status: 401 }));
    const keyed = new ModelGate({ apiKey: () => keys.shift() as string, baseURL: "https://gateway.test", fetch });
    await keyed.post("/v1/x", { body: streamOf("once") }).catch(() => undefined);
    expect(requests).toHaveLength(1);
  });
});
