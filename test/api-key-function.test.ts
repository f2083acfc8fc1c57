import { createHash } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, AuthenticationError, InternalServerError, ModelGate, ModelGateError } from "../src/index.ts";
import { createRedactor } from "../src/internal/redact.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";

// `apiKey` as a function (API.md, "Coming from openai-node"): rotating or short-lived keys.

/** A fetch that answers each request with the next status in `statuses` (200 once they run out) and records the keys it saw. */
function gateway(statuses: number[] = [], echoKey = false) {
  const keys: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const key = new Headers(init?.headers).get("authorization")?.replace(/^Bearer /, "") ?? "";
    keys.push(key);
    const status = statuses.shift() ?? 200;
    if (status === 200) return Response.json({ object: "list", data: [] });
    // retry-after-ms: 0 keeps the pipeline's retries from sleeping in these tests.
    return Response.json({ error: { message: echoKey ? `Incorrect API key provided: ${key}` : "failed", code: status } }, { status, headers: { "retry-after-ms": "0" } });
  };
  return { keys, fetch };
}

function keyFunction(...keys: string[]) {
  let calls = 0;
  const next = () => keys[Math.min(calls++, keys.length - 1)]!;
  return { get calls() { return calls; }, next };
}

const options = { baseURL: "https://gateway.test" };

describe("apiKey as a function", () => {
  it("is never called at construction, and is asked before each attempt, retries included", async () => {
    const source = keyFunction("key-one", "key-two", "key-three");
    const { keys, fetch } = gateway([500, 500]);
    const client = new ModelGate({ ...options, apiKey: source.next, fetch, maxRetries: 2 });
    expect(source.calls).toBe(0);
    await client.models.list();
    expect(source.calls).toBe(3);
    expect(keys).toEqual(["key-one", "key-two", "key-three"]);
  });

  it("takes a promise (an async function)", async () => {
    const { keys, fetch } = gateway();
    await new ModelGate({ ...options, apiKey: async () => "async-key", fetch }).models.list();
    expect(keys).toEqual(["async-key"]);
  });

  it("after a 401 asks once more and repeats the attempt with a changed key, not counted against maxRetries", async () => {
    const source = keyFunction("expired-key", "fresh-key");
    const { keys, fetch } = gateway([401]);
    await new ModelGate({ ...options, apiKey: source.next, fetch, maxRetries: 0 }).models.list();
    expect(keys).toEqual(["expired-key", "fresh-key"]);
  });

  it("throws the 401 when the key asked for after it is the same", async () => {
    const { keys, fetch } = gateway([401]);
    const error = await new ModelGate({ ...options, apiKey: () => "same-key", fetch, maxRetries: 2 }).models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(keys).toEqual(["same-key"]);
  });

  it("repeats after a 401 only once per call", async () => {
    const source = keyFunction("key-a", "key-b", "key-c");
    const { keys, fetch } = gateway([401, 401]);
    await expect(new ModelGate({ ...options, apiKey: source.next, fetch, maxRetries: 2 }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(keys).toEqual(["key-a", "key-b"]);
  });

  it("rejects the call with a ModelGateError carrying what the function threw, and sends nothing", async () => {
    const { keys, fetch } = gateway();
    const failure = new Error("vault unreachable");
    const client = new ModelGate({ ...options, apiKey: () => Promise.reject(failure), fetch });
    let call: Promise<unknown> | undefined;
    expect(() => (call = client.models.list())).not.toThrow();
    const error = await call!.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).cause).toBe(failure);
    expect(keys).toEqual([]);
  });

  it.each([
    ["an empty string", ""],
    ["a number", 42],
    ["a key with a trailing newline", "mg-key-123\n"],
  ])("rejects a function that returns %s, without showing it", async (_, returned) => {
    const { keys, fetch } = gateway();
    const error = await new ModelGate({ ...options, apiKey: () => returned as string, fetch }).models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/returned by the `apiKey` function/);
    expect(error).toHaveProperty("param", "apiKey");
    expect(keys).toEqual([]);
  });

  it("redacts every key the function gave from errors, like a fixed key", async () => {
    const source = keyFunction("mg-rotating-key-0001", "mg-rotating-key-0002");
    const { fetch } = gateway([401, 401], true);
    const error = (await new ModelGate({ ...options, apiKey: source.next, fetch }).models.list().catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const text of [error.message, error.stack ?? "", JSON.stringify((error as AuthenticationError).error)]) {
      expect(text).not.toContain("mg-rotating-key-000");
    }
  });

  it("still lets defaultHeaders replace the Authorization header", async () => {
    const { keys, fetch } = gateway();
    await new ModelGate({ ...options, apiKey: () => "from-function", fetch, defaultHeaders: { authorization: "Bearer from-headers" } }).models.list();
    expect(keys).toEqual(["from-headers"]);
  });

  it("retries a 5xx with the pipeline's own retries, asking the function each time", async () => {
    const source = keyFunction("k1-abcdef", "k2-abcdef");
    const { fetch } = gateway([503, 503]);
    await expect(new ModelGate({ ...options, apiKey: source.next, fetch, maxRetries: 1 }).models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(source.calls).toBe(2);
  });
});

describe("a key function that never answers", () => {
  useFakeClock();
  const never = () => new Promise<string>(() => {});

  it("is bounded by the call's timeout", async () => {
    const { error, elapsedMs } = await inFakeTime(new ModelGate({ ...options, apiKey: never, fetch: gateway().fetch, timeout: 50 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/apiKey.*50 ms/);
    expect(elapsedMs, "fake milliseconds until the call failed").toBe(50);
  });

  it("ends a call waiting on the key function when the caller aborts, and at once for a signal already aborted", async () => {
    const client = new ModelGate({ ...options, apiKey: never, fetch: gateway().fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect((await inFakeTime(client.models.list({ signal: controller.signal }))).error).toBeInstanceOf(APIUserAbortError);
    await expect(client.models.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe("redaction of the keys a function gives", () => {
  it.each(['mg-key\\with-backslash', 'mg-key"with-quote'])("redacts a key holding JSON escapes (%s) from .error too", async (secret) => {
    const { fetch } = gateway([401], true);
    const error = (await new ModelGate({ ...options, apiKey: secret, fetch, maxRetries: 0 }).models.list().catch((caught: unknown) => caught)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error.error)).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect((error.error as { message: string }).message).toBe("Incorrect API key provided: [redacted]");
  });

  it("keeps redacting the recent keys of a function that mints one per call, without remembering all of them", () => {
    // Keys that share no run of 8 characters: any such run of a remembered key is cut out.
    const minted = (index: number) => createHash("sha256").update(String(index)).digest("hex").slice(0, 24);
    const redactor = createRedactor();
    for (let index = 0; index < 3000; index++) redactor.remember(minted(index));
    expect(redactor.redact(`echo ${minted(2999)}`)).toBe("echo [redacted]");
    expect(redactor.redact(`echo ${minted(3000 - 1024)}`)).toBe("echo [redacted]");
    expect(redactor.redact(`echo ${minted(1)}`)).toBe(`echo ${minted(1)}`);
  });
});

describe("what a key function throws", () => {
  const first = "sk-first-ABCDEFGH12345678";
  /** A client whose key function gives `first`, then (asked again after the 401) throws what `refreshFails` makes. */
  function refreshThatThrows(refreshFails: () => unknown) {
    let calls = 0;
    return new ModelGate({
      baseURL: "https://g.test",
      maxRetries: 0,
      apiKey: () => {
        if (calls++ === 0) return first;
        throw refreshFails();
      },
      fetch: async () => new Response(JSON.stringify({ error: { message: "expired" } }), { status: 401 }),
    });
  }

  it("is kept as cause with every key the function gave cut out of it", async () => {
    const client = refreshThatThrows(() => new Error(`refresh failed: token ${first} expired`));
    const error = (await client.models.list().catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error.cause as Error).message).toBe("refresh failed: token [redacted] expired");
    expect(inspect(error, { depth: 5 })).not.toContain(first.slice(4, 12));
  });

  it("is kept as a copy without the key when it holds a Headers or a Request with a key the function gave", async () => {
    const client = refreshThatThrows(() => {
      const headers = new Headers({ authorization: `Bearer ${first}` });
      return Object.assign(new Error("refresh failed"), { headers, request: new Request("https://idp.test/refresh", { headers }) });
    });
    const error = (await client.models.list().catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(ModelGateError);
    const cause = error.cause as Error & { headers: Headers; request: unknown };
    expect(cause.message).toBe("refresh failed");
    expect(cause.headers.get("authorization")).toBe("Bearer [redacted]");
    expect(cause.request).toBe("[Request]");
    for (let end = 8; end <= first.length; end++) expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(first.slice(end - 8, end));
  });
});
