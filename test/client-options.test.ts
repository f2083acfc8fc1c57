import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelGate, ModelGateError } from "../src/index.ts";
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
    expect(client.baseURL).toBe("https://env.example.com");
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
    expect(error.message).toMatch(/line break/);
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
  ])("normalises %s to the service root %s", (baseURL, root) => {
    expect(new ModelGate({ apiKey: API_KEY, baseURL }).baseURL).toBe(root);
  });

  it("throws a ModelGateError when the base URL is missing", () => {
    vi.stubEnv("MODELGATE_BASE_URL", "");
    const error = catchError(() => new ModelGate({ apiKey: API_KEY }));
    expect(error).toMatchObject({ param: "baseURL", message: expect.stringMatching(/`baseURL` is missing.*MODELGATE_BASE_URL/) });
  });

  it.each(["not a url", "ftp://host.example", "https://user:pass@host.example"])(
    "throws a ModelGateError for the malformed base URL %s",
    (baseURL) => {
      expect(() => new ModelGate({ apiKey: API_KEY, baseURL })).toThrow(ModelGateError);
    },
  );
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

function catchError(action: () => unknown): ModelGateError {
  try {
    action();
  } catch (error) {
    return error as ModelGateError;
  }
  throw new Error("expected an error");
}
