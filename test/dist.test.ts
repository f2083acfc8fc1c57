import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { http } from "msw";
import { describe, expect, it } from "vitest";
import { sseResponse } from "./fixtures/body.ts";
import { contentEvent, DONE } from "./fixtures/chunks.ts";
import { API_KEY, BASE, useMockServer } from "./fixtures/server.ts";

// Runs the built package (npm test builds it first), as users get it: the ESM and the CJS file.
const server = useMockServer();
const require = createRequire(import.meta.url);

type BuiltModule = typeof import("../src/index.ts");

async function streamWith(sdk: BuiltModule) {
  server.use(http.post(`${BASE}/v1/chat/completions`, () => sseResponse([contentEvent("built "), contentEvent("ok", "stop"), DONE])));
  const client = new sdk.ModelGate({ apiKey: API_KEY, baseURL: BASE });
  const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
  expect(stream).toBeInstanceOf(sdk.Stream);
  return stream.text();
}

describe("the built package", () => {
  it("streams a reply through the ESM build (named and default export)", async () => {
    const esmEntry = "../dist/index.js"; // a variable, so type-checking does not need a build
    const sdk = (await import(esmEntry)) as BuiltModule & { default: unknown };
    expect(sdk.default).toBe(sdk.ModelGate);
    expect(await streamWith(sdk)).toBe("built ok");
  });

  it("streams a reply through the CJS build", async () => {
    const sdk = require("../dist/index.cjs") as BuiltModule & { default: unknown };
    expect(sdk.default).toBe(sdk.ModelGate);
    expect(await streamWith(sdk)).toBe("built ok");
  });

  it("types the CJS entry with `export =` alone, every named type on the class's namespace", () => {
    // A second `export` beside `export =` (tsup re-exports a type only a shared chunk uses,
    // e.g. ReasoningConfig) fails every CommonJS consumer's type check with TS2309.
    const types = readFileSync(new URL("../dist/index.d.cts", import.meta.url), "utf8");
    expect(types.match(/^export .*/gm)).toEqual(["export = ModelGate;"]);
    const namespace = /declare namespace ModelGate \{\s*export \{([^}]*)\}/.exec(types.slice(types.lastIndexOf("declare namespace ModelGate")))?.[1];
    for (const name of ["ReasoningConfig", "CreateEmbeddingResponse", "Transcription", "decodeDataURL"]) expect(namespace).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it("throws the built package's own ModelGateError class for an invalid baseURL", async () => {
    const sdk = require("../dist/index.cjs") as BuiltModule;
    expect(() => new sdk.ModelGate({ apiKey: API_KEY, baseURL: "nope" })).toThrow(sdk.ModelGateError);
  });
});
