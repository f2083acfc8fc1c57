import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelGate, ModelGateError, type ClientOptions, type Fetch, type Middleware, type Model } from "../src/index.ts";
import { completionBody } from "./fixtures/chunks.ts";
import { API_KEY, BASE } from "./fixtures/server.ts";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("new ModelGate(): API key", () => {
  it("throws a ModelGateError that says how to pass the key when none is given", () => {
    vi.stubEnv("MODELGATE_API_KEY", "");
    expect(() => new ModelGate({ baseURL: BASE })).toThrow(ModelGateError);
    expect(() => new ModelGate({ baseURL: BASE })).toThrow(/apiKey.*MODELGATE_API_KEY/);
  });

  it("reads MODELGATE_API_KEY and MODELGATE_BASE_URL from the environment", () => {
    vi.stubEnv("MODELGATE_API_KEY", API_KEY);
    vi.stubEnv("MODELGATE_BASE_URL", "https://env.example.com/v1");
    const client = new ModelGate();
    expect(client.baseURL).toBe("https://env.example.com/v1");
    expect(client.apiKey).toBe(API_KEY);
  });

  it("prefers the options over the environment", () => {
    vi.stubEnv("MODELGATE_BASE_URL", "https://env.example.com");
    expect(new ModelGate({ apiKey: API_KEY, baseURL: "https://option.example.com" }).baseURL).toBe(
      "https://option.example.com",
    );
  });

  it("rejects a key with a line break without echoing the key", () => {
    const key = "mg-secret-with-newline\n";
    const error = catchError(() => new ModelGate({ apiKey: key, baseURL: BASE }));
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(/contains whitespace, a line break or a non-ASCII character; check for a stray newline when it was copied/);
    expect(error.param).toBe("apiKey");
    expect(error.message).not.toContain("mg-secret");
  });
});

describe("environment variables on Deno", () => {
  it("reads them only when env access is granted, never triggering a permission prompt", async () => {
    const { readEnv } = await import("../src/internal/env.ts");
    const asked: string[] = [];
    const deno = (state: string) => ({
      env: { get: (name: string) => (asked.push(name), "from-deno") },
      permissions: { querySync: () => ({ state }) },
    });
    vi.stubGlobal("Deno", deno("prompt"));
    expect(readEnv("MODELGATE_API_KEY")).toBeUndefined();
    expect(asked).toEqual([]);
    vi.stubGlobal("Deno", deno("granted"));
    expect(readEnv("MODELGATE_API_KEY")).toBe("from-deno");
    expect(asked).toEqual(["MODELGATE_API_KEY"]);
  });
});

describe("new ModelGate(): base URL", () => {
  it.each([
    ["https://host.example", "https://host.example"],
    ["https://host.example/", "https://host.example"],
    ["https://host.example/v1", "https://host.example"],
    ["https://host.example/v1/", "https://host.example"],
    ["https://host.example/api/v1", "https://host.example/api"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
  ])("reads %s back as given, and sends requests under the service root %s", async (baseURL, root) => {
    const urls: string[] = [];
    const fetch: Fetch = async (url) => (urls.push(String(url)), Response.json({ object: "list", data: [] }));
    const client = new ModelGate({ apiKey: API_KEY, baseURL, fetch });
    expect(client.baseURL).toBe(baseURL);
    await client.models.list();
    await client.get("/v1/models");
    expect(urls).toEqual([`${root}/v1/models`, `${root}/v1/models`]);
  });

  it("throws a ModelGateError when the base URL is missing", () => {
    vi.stubEnv("MODELGATE_BASE_URL", "");
    const error = catchError(() => new ModelGate({ apiKey: API_KEY }));
    expect(error).toMatchObject({ param: "baseURL", message: expect.stringMatching(/`baseURL` is missing.*MODELGATE_BASE_URL/) });
  });

  it.each([
    [123, "a number"],
    [{}, "an object"],
    [["key"], "an array"],
  ])("names an apiKey given as %j by its kind, not as missing, and never shows it", (apiKey, kind) => {
    const error = catchError(() => new ModelGate({ apiKey: apiKey as never, baseURL: BASE }));
    expect(error).toMatchObject({ param: "apiKey", message: `\`apiKey\` must be a string (or a function that returns one); got ${kind}.` });
    expect((error as Error).message).not.toContain("123");
  });

  it("names a baseURL that is not text by its kind", () => {
    expect(catchError(() => new ModelGate({ apiKey: API_KEY, baseURL: 8080 as never }))).toMatchObject({ param: "baseURL", message: "`baseURL` must be a string; got a number." });
  });

  it.each(["not a url", "ftp://host.example", "https://user:pass@host.example"])(
    "throws a ModelGateError for the malformed base URL %s",
    (baseURL) => {
      expect(() => new ModelGate({ apiKey: API_KEY, baseURL })).toThrow(ModelGateError);
    },
  );
});

describe("new ModelGate(): apiKey and baseURL swapped", () => {
  it("names baseURL without quoting it, since it is then the key", () => {
    const key = "sk-live-0123456789abcdefghijklmnop";
    const error = catchError(() => new ModelGate({ apiKey: "https://gateway.example.com", baseURL: key }));
    expect(error).toMatchObject({ param: "baseURL", message: expect.stringContaining("is not a URL") });
    for (let start = 0; start + 8 <= key.length; start++) expect(String((error as Error).stack) + (error as Error).message).not.toContain(key.slice(start, start + 8));
  });
});

describe("new ModelGate(): options read back, as openai's do", () => {
  it("reads back the API key given, or the key function itself, never calling it", () => {
    expect(new ModelGate({ apiKey: API_KEY, baseURL: BASE }).apiKey).toBe(API_KEY);
    const keyFunction = vi.fn(() => API_KEY);
    expect(new ModelGate({ apiKey: keyFunction, baseURL: BASE }).apiKey).toBe(keyFunction);
    expect(keyFunction).not.toHaveBeenCalled();
  });

  it("reads apiKey through a getter on the class, not an own property of the client", () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });
    expect(Object.getOwnPropertyNames(client)).not.toContain("apiKey");
    expect(typeof Object.getOwnPropertyDescriptor(ModelGate.prototype, "apiKey")?.get).toBe("function");
  });

  it("keeps the key of the client it was derived from in withOptions(), unless given a new one", () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });
    expect(client.withOptions({ maxRetries: 0 }).apiKey).toBe(API_KEY);
    expect(client.withOptions({ apiKey: "mg-other-key-0123456789" }).apiKey).toBe("mg-other-key-0123456789");
  });

  it("reads back the resolved log level: the option, else MODELGATE_LOG, else warn", () => {
    vi.stubEnv("MODELGATE_LOG", "");
    expect(new ModelGate({ apiKey: API_KEY, baseURL: BASE }).logLevel).toBe("warn");
    expect(new ModelGate({ apiKey: API_KEY, baseURL: BASE, logLevel: "off" }).logLevel).toBe("off");
    vi.stubEnv("MODELGATE_LOG", "debug");
    expect(new ModelGate({ apiKey: API_KEY, baseURL: BASE, logger: { error() {}, warn() {}, info() {}, debug() {} } }).logLevel).toBe("debug");
  });
});

describe("new ModelGate(): numeric options", () => {
  it("uses the documented defaults", () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });
    expect([client.timeout, client.streamIdleTimeout, client.maxRetries]).toEqual([600_000, 300_000, 2]);
  });

  it.each([
    { timeout: -1 },
    { maxRetries: 1.5 },
    { streamIdleTimeout: Number.NaN },
  ])("rejects the invalid option %o", (options) => {
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE, ...options })).toThrow(ModelGateError);
  });
});

describe("new ModelGate(): browser guard", () => {
  it("throws in a browser-like runtime unless dangerouslyAllowBrowser is set", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE })).toThrow(/browser.*dangerouslyAllowBrowser/s);
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE, dangerouslyAllowBrowser: true })).not.toThrow();
  });
});

describe("the API key stays secret", () => {
  const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });

  it("is absent from JSON.stringify, toString and util.inspect of the client", () => {
    for (const shown of [JSON.stringify(client), String(client), inspect(client, { showHidden: true, depth: 9 })]) {
      expect(shown).not.toContain(API_KEY);
      expect(shown).toContain("gateway.test");
    }
  });

  it("is carried over by withOptions without being exposed", () => {
    const derived = client.withOptions({ maxRetries: 0 });
    expect(derived.maxRetries).toBe(0);
    expect(derived.baseURL).toBe(client.baseURL);
    expect(JSON.stringify(derived)).not.toContain(API_KEY);
  });
});

describe("client.withOptions(overrides)", () => {
  /** Every request the fetch saw (URL and headers), and a fetch that answers the catalogue and chat. */
  function recorder() {
    const sent: { url: string; headers: Headers }[] = [];
    const models: Model[] = [{ id: "m/x", object: "model", created: 0, owned_by: "x", pricing: { prompt: 1, completion: 1 }, max_output_tokens: 100 }];
    const fetch: Fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push({ url: request.url, headers: request.headers });
      return request.url.includes("/v1/models") ? Response.json({ object: "list", data: models }) : Response.json(completionBody("ok"));
    };
    return { sent, fetch, catalogueFetches: () => sent.filter((request) => request.url.includes("/v1/models")).length };
  }
  const messages = [{ role: "user" as const, content: "Hi" }];
  const chat = (client: ModelGate, options: { maxCost?: number } = {}) => client.chat.completions.create({ model: "m/x", messages }, options);

  it("keeps a baseURL and key this client read from a getter, whatever the environment says", async () => {
    vi.stubEnv("MODELGATE_BASE_URL", "https://other.example");
    const { sent, fetch } = recorder();
    class Settings {
      fetch = fetch;
      get apiKey() {
        return API_KEY;
      }
      get baseURL() {
        return BASE;
      }
    }
    const derived = new ModelGate(new Settings() as ClientOptions).withOptions({ timeout: 5_000 });
    await chat(derived);
    expect(sent.map((request) => new URL(request.url).origin)).toEqual([new URL(BASE).origin]);
    expect(sent[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(derived.timeout).toBe(5_000);
  });

  it("keeps the baseURL and key this client read from the environment, whatever the environment says later", async () => {
    vi.stubEnv("MODELGATE_BASE_URL", BASE);
    const { sent, fetch } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, fetch });
    // The environment changes after the original was made: its explicit key must not go there.
    vi.stubEnv("MODELGATE_BASE_URL", "https://other.example");
    vi.stubEnv("MODELGATE_API_KEY", "sk-from-the-environment-000");
    const derived = original.withOptions({ timeout: 5_000 });
    await chat(derived);
    expect(derived.baseURL).toBe(original.baseURL);
    expect(sent.map((request) => new URL(request.url).origin)).toEqual([new URL(BASE).origin]);
    expect(sent[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);

    vi.stubEnv("MODELGATE_API_KEY", API_KEY);
    const fromEnvironment = new ModelGate({ baseURL: BASE, fetch });
    vi.stubEnv("MODELGATE_API_KEY", "sk-from-the-environment-000");
    await chat(fromEnvironment.withOptions({ maxRetries: 0 }));
    expect(sent[1]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it("keeps the log level this client read from MODELGATE_LOG", async () => {
    vi.stubEnv("MODELGATE_LOG", "debug");
    const lines: unknown[] = [];
    const logger = { error() {}, warn() {}, info() {}, debug: (...parts: unknown[]) => lines.push(parts) };
    const { fetch } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch, logger });
    vi.stubEnv("MODELGATE_LOG", "off");
    await chat(original.withOptions({ maxRetries: 0 }));
    expect(lines.length).toBeGreaterThan(0);
  });

  it("keeps this client's baseURL, key, fetch and timeout for an override of null, whatever the environment says", async () => {
    vi.stubEnv("MODELGATE_BASE_URL", "https://other.example");
    vi.stubEnv("MODELGATE_API_KEY", "sk-from-the-environment-000");
    const { sent, fetch } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch, timeout: 5_000 });
    const derived = original.withOptions({ baseURL: null, apiKey: null, fetch: null, timeout: null } as unknown as ClientOptions);
    await chat(derived);
    expect(sent.map((request) => new URL(request.url).origin)).toEqual([new URL(BASE).origin]);
    expect(sent[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(derived.timeout).toBe(5_000);
  });

  it("merges defaultHeaders by name over the original's, a null removing one, and leaves the original as it was", async () => {
    const { sent, fetch } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch, defaultHeaders: new Headers({ "X-Team": "core", "x-region": "eu" }) });
    const tenant = original.withOptions({ defaultHeaders: { "x-team": "acme", "X-Region": null, "x-extra": "1" } });
    const pairs = tenant.withOptions({ defaultHeaders: [["x-pair", "yes"]] });
    await chat(tenant);
    await chat(original);
    await chat(pairs);
    const [fromTenant, fromOriginal, fromPairs] = sent.map((request) => request.headers);
    expect([fromTenant!.get("x-team"), fromTenant!.get("x-region"), fromTenant!.get("x-extra")]).toEqual(["acme", null, "1"]);
    expect([fromOriginal!.get("x-team"), fromOriginal!.get("x-region"), fromOriginal!.get("x-extra")]).toEqual(["core", "eu", null]);
    expect([fromPairs!.get("x-team"), fromPairs!.get("x-region"), fromPairs!.get("x-pair")]).toEqual(["acme", null, "yes"]);
    expect(fromTenant!.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it("merges defaultQuery by name over the original's: a value replaces, null removes, undefined leaves", async () => {
    const { sent, fetch } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch, defaultQuery: { team: "core", region: "eu", keep: "yes" } });
    await chat(original.withOptions({ defaultQuery: { team: "acme", region: null, keep: undefined, extra: 1 } }));
    expect(new URL(sent[0]!.url).search).toBe("?team=acme&keep=yes&extra=1");
  });

  it("replaces every other option given and keeps the original's otherwise, fetch included", async () => {
    const { sent, fetch } = recorder();
    const log: string[] = [];
    const tag = (name: string): Middleware => (request, next) => (log.push(name), next(request));
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch, timeout: 1_000, maxRetries: 1, middleware: [tag("original")] });
    const derived = original.withOptions({ maxRetries: 0, timeout: undefined, middleware: [tag("derived")] } as ClientOptions);
    expect([derived.maxRetries, derived.timeout, derived.baseURL]).toEqual([0, 1_000, BASE]);
    expect([original.maxRetries, original.timeout]).toEqual([1, 1_000]);
    await chat(derived);
    expect(sent).toHaveLength(1);
    expect(log).toEqual(["derived"]);
  });

  it("shares the original's catalogue cache while baseURL, apiKey, defaultHeaders and defaultQuery are unchanged", async () => {
    const { fetch, catalogueFetches } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch });
    await chat(original, { maxCost: 1 });
    await chat(original.withOptions({ timeout: 5_000, apiKey: API_KEY }), { maxCost: 1 });
    await chat(original.withOptions({ maxRetries: 0 }).withOptions({ logLevel: "error" }), { maxCost: 1 });
    expect(catalogueFetches()).toBe(1);
  });

  it.each<[string, ClientOptions]>([
    ["the key", { apiKey: "mg-other-tenant-key-9876543210" }],
    ["the base URL", { baseURL: "https://other.gateway.test" }],
    ["the default headers", { defaultHeaders: { "x-tenant": "acme" } }],
    ["the default query", { defaultQuery: { tenant: "acme" } }],
  ])("fetches its own catalogue when %s changes", async (_, overrides) => {
    const { fetch, catalogueFetches } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch });
    await chat(original, { maxCost: 1 });
    const other = original.withOptions(overrides);
    await chat(other, { maxCost: 1 });
    await chat(other, { maxCost: 1 });
    expect(catalogueFetches()).toBe(2);
  });

  it("keeps sharing the catalogue when defaultHeaders or defaultQuery is given but empty", async () => {
    const { fetch, catalogueFetches } = recorder();
    const original = new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch });
    await chat(original, { maxCost: 1 });
    await chat(original.withOptions({ defaultHeaders: {}, defaultQuery: {} }), { maxCost: 1 });
    expect(catalogueFetches()).toBe(1);
  });

  it.each([42, "abc", null])("throws for overrides that are not an object (%s), as the constructor does", (overrides) => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });
    expect(() => client.withOptions(overrides as never)).toThrow(/^`options` must be an object; got /);
    expect(() => new ModelGate(overrides as never)).toThrow(/^`options` must be an object; got /);
  });

  it("throws at construction for a fetch that is not a function", () => {
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch: 42 as never })).toThrow("`fetch` must be a fetch function; got number 42.");
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE }).withOptions({ fetch: "fetch" as never })).toThrow(/^`fetch` must be a fetch function/);
  });

  it("never quotes a bad middleware option's source or the key it holds, in the constructor, a call or withOptions", async () => {
    // A function where an array belongs, whose source holds the key; and a string that is the key.
    const leaky = (async (request: Request, next: (request: Request) => Promise<Response>) => {
      request.headers.set("x-upstream", "sk-test-0123456789abcdef");
      return next(request);
    }) as unknown as Middleware[];
    const key = "sk-test-0123456789abcdef";
    const client = new ModelGate({ apiKey: key, baseURL: BASE, fetch: async () => Response.json(completionBody("ok")) });
    const errors = [
      catchError(() => new ModelGate({ apiKey: key, baseURL: BASE, middleware: leaky })),
      catchError(() => client.withOptions({ middleware: leaky })),
      catchError(() => client.withOptions({ middleware: key as never })),
      (await chat(client, { middleware: leaky } as never).catch((caught: unknown) => caught)) as ModelGateError,
      (await chat(client, { middleware: key } as never).catch((caught: unknown) => caught)) as ModelGateError,
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(/^`middleware` must be an array of middleware functions; got (a function|"\[redacted\]")\.$/);
      const shown = `${error.stack} ${inspect(error)}`;
      for (let end = 8; end <= key.length; end++) expect(shown).not.toContain(key.slice(end - 8, end));
    }
  });

  it("throws for a bad override as the constructor does", () => {
    const client = new ModelGate({ apiKey: API_KEY, baseURL: BASE });
    for (const overrides of [{ timeout: -1 }, { baseURL: "gateway.test" }, { apiKey: "" }, { middleware: "x" }] as ClientOptions[]) {
      const fromConstructor = catchError(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE, ...overrides }));
      const fromWithOptions = catchError(() => client.withOptions(overrides));
      expect(fromWithOptions).toBeInstanceOf(ModelGateError);
      expect(fromWithOptions.message).toBe(fromConstructor.message);
    }
  });
});

describe("new ModelGate(): option checks", () => {
  const base = { apiKey: API_KEY, baseURL: BASE };
  /** A fetch that records the request it was given and answers a chat completion. */
  function recordingFetch() {
    const sent: Request[] = [];
    const fetch: Fetch = async (input, init) => (sent.push(new Request(input, init)), Response.json(completionBody("ok")));
    return { sent, fetch };
  }
  const messages = [{ role: "user" as const, content: "Hi" }];

  it.each([
    ["defaultQuery", "a=b", /^`defaultQuery` must be a record of parameters; got "a=b"\.$/],
    ["defaultHeaders", 5, /^`defaultHeaders` must be a Headers, \[name, value\] pairs or a record; got number 5\.$/],
    ["fetchOptions", 5, /^`fetchOptions` must be an object; got number 5\.$/],
    ["logLevel", "verbose", /^`logLevel` must be one of off, error, warn, info, debug; got "verbose"\.$/],
    ["logger", {}, /^`logger` must be an object with error, warn, info, debug methods; got an object\.$/],
    ["logger", { error() {}, warn() {}, info() {} }, /^`logger` must be an object with /],
    ["maxCost", 0.05, /^`maxCost` must be given per call, as create\(params, \{ maxCost \}\) or runTools\(params, \{ maxCost \}\); got number 0\.05\.$/],
    ["streamIdleTimeout", "5s", /^`streamIdleTimeout` must be a non-negative number of milliseconds; got "5s"\.$/],
    ["maxSSELineLength", -1, /^`maxSSELineLength` must be a non-negative number of characters; got number -1\.$/],
    ["traceContent", "yes", /^`traceContent` must be true or false; got "yes"\.$/],
  ])("rejects %s: %o, naming it, in the constructor and in withOptions()", (param, value, message) => {
    const client = new ModelGate(base);
    for (const build of [() => new ModelGate({ ...base, [param]: value }), () => client.withOptions({ [param]: value })]) {
      const error = catchError(build);
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.param).toBe(param);
      expect(error.message).toMatch(message);
    }
  });

  it("refuses maxCost on the client even at 0, so nobody believes spending is capped when it is not", () => {
    expect(() => new ModelGate({ ...base, maxCost: 0 } as ClientOptions)).toThrow(/per call/);
    expect(() => new ModelGate(base).withOptions({ maxCost: 1 } as ClientOptions)).toThrow(/per call/);
  });

  it("never quotes the key: not as a misused option's value, nor as the whole options", () => {
    const errors = [
      catchError(() => new ModelGate({ ...base, defaultHeaders: API_KEY as never })),
      catchError(() => new ModelGate({ ...base, logLevel: `Bearer ${API_KEY}` as never })),
      catchError(() => new ModelGate(base).withOptions({ defaultQuery: API_KEY as never })),
      catchError(() => new ModelGate(API_KEY as never)),
      catchError(() => new ModelGate(base).withOptions(API_KEY as never)),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toContain("[redacted]");
      const shown = `${error.stack} ${inspect(error)}`;
      for (let end = 8; end <= API_KEY.length; end++) expect(shown).not.toContain(API_KEY.slice(end - 8, end));
    }
  });

  it("sends defaultHeaders given as a Headers, as [name, value] pairs or as a record (null and undefined values left out)", async () => {
    for (const defaultHeaders of [new Headers({ "x-team": "core" }), [["x-team", "core"]] as [string, string][], { "x-team": "core", "x-none": null, "x-left": undefined }]) {
      const { sent, fetch } = recordingFetch();
      await new ModelGate({ ...base, fetch, defaultHeaders }).chat.completions.create({ model: "m/x", messages });
      expect([sent[0]!.headers.get("x-team"), sent[0]!.headers.has("x-none"), sent[0]!.headers.has("x-left")]).toEqual(["core", false, false]);
    }
  });

  it("sends a defaultQuery record and the fetchOptions given", async () => {
    const { sent, fetch } = recordingFetch();
    await new ModelGate({ ...base, fetch, defaultQuery: { team: "core", n: 2 }, fetchOptions: { cache: "no-store" } }).chat.completions.create({ model: "m/x", messages });
    expect(new URL(sent[0]!.url).search).toBe("?team=core&n=2");
    expect(sent[0]!.cache).toBe("no-store");
  });

  it.each(["off", "error", "warn", "info", "debug"] as const)("accepts logLevel %s", (logLevel) => {
    expect(() => new ModelGate({ ...base, logLevel })).not.toThrow();
  });

  it("accepts console and any object with the four logger methods, and logs through it", async () => {
    expect(() => new ModelGate({ ...base, logger: console })).not.toThrow();
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => void lines.push(line), info: () => {}, debug: () => {} };
    // A plain-http gateway is warned about through the logger (the warning's wording loads on demand).
    new ModelGate({ apiKey: API_KEY, baseURL: "http://gateway.test", logger });
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0));
  });

  it("leaves an option given as null at its default, as a call's null leaves the client's value", () => {
    const client = new ModelGate({ ...base, timeout: null, streamIdleTimeout: null, maxRetries: null, maxSSELineLength: null, shrinkToAffordable: null, traceContent: null, logger: null, logLevel: null, fetch: null, middleware: null, defaultHeaders: null, defaultQuery: null, fetchOptions: null } as never);
    expect([client.timeout, client.streamIdleTimeout, client.maxRetries]).toEqual([600_000, 300_000, 2]);
  });
});

function catchError(action: () => unknown): ModelGateError {
  try {
    action();
  } catch (error) {
    return error as ModelGateError;
  }
  throw new Error("expected an error");
}
