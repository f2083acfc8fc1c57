import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

  it("types the CJS entry with `export =` alone, the named values on the class's namespace", () => {
    // A second `export` beside `export =` (tsup re-exports a type only a shared chunk uses,
    // e.g. ReasoningConfig) fails every CommonJS consumer's type check with TS2309.
    const types = readFileSync(new URL("../dist/index.d.cts", import.meta.url), "utf8");
    expect(types.match(/^export .*/gm)).toEqual(["export = ModelGate;"]);
    const namespace = /declare namespace ModelGate \{\s*export \{([^}]*)\}/.exec(types.slice(types.lastIndexOf("declare namespace ModelGate")))?.[1];
    for (const name of ["decodeDataURL", "jsonSchema", "tool", "VERSION"]) expect(namespace).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it("names every exported class as it is exported, in both builds", async () => {
    // esbuild emits a class that names itself inside its own body as `var X = class _X`, and
    // `X.name` (what util.inspect, stack traces and "cannot be invoked without 'new'" show) is then `_X`.
    const esmEntry = "../dist/index.js";
    for (const sdk of [(await import(esmEntry)) as Record<string, unknown>, require("../dist/index.cjs") as Record<string, unknown>]) {
      const misnamed = Object.entries(sdk).filter(([name, value]) => typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value)) && name !== "default" && (value as { name: string }).name !== name);
      expect(misnamed.map(([name, value]) => `${name} is named ${(value as { name: string }).name}`)).toEqual([]);
    }
  });

  it("holds no bare import (an import kept for a name used only as a type): a bundler warns of each", () => {
    const files = readdirSync(new URL("../dist", import.meta.url), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js")).map((file) => `dist/${file}`);
    expect(files.length).toBeGreaterThan(20);
    const bare = files.filter((file) => /^import "\./m.test(readFileSync(new URL(`../${file}`, import.meta.url), "utf8")));
    expect(bare).toEqual([]);
  });

  it("throws the built package's own ModelGateError class for an invalid baseURL", async () => {
    const sdk = require("../dist/index.cjs") as BuiltModule;
    expect(() => new sdk.ModelGate({ apiKey: API_KEY, baseURL: "nope" })).toThrow(sdk.ModelGateError);
  });
});

describe("the type namespace on the client class", () => {
  // `ModelGate.X` for every public type, in both formats (openai-node users write
  // `ModelGate.ChatCompletionMessageParam`): read from the built declarations with the compiler.
  const read = new Map<string, ReturnType<typeof readDeclarations>>();
  const declarations = (file: "index.d.ts" | "index.d.cts") => read.get(file) ?? read.set(file, readDeclarations(file)).get(file)!;
  async function readDeclarations(file: "index.d.ts" | "index.d.cts") {
    const ts = (await import("typescript")).default;
    const path = new URL(`../dist/${file}`, import.meta.url).pathname;
    const program = ts.createProgram([path], { strict: true, noEmit: true, skipLibCheck: true });
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(path) as import("typescript").SourceFile);
    if (!module) throw new Error(`${file}: no module symbol`);
    const resolve = (symbol: import("typescript").Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
    const isType = (symbol: import("typescript").Symbol) => (resolve(symbol).flags & ts.SymbolFlags.Value) === 0;
    // In the CommonJS declarations the module *is* the class (`export =`).
    const client = file === "index.d.cts" ? resolve((checker as unknown as { resolveExternalModuleSymbol(symbol: import("typescript").Symbol): import("typescript").Symbol }).resolveExternalModuleSymbol(module)) : resolve(checker.getExportsOfModule(module).find((symbol) => symbol.name === "ModelGate") as import("typescript").Symbol);
    const namespaceTypes = [...(client.exports?.values() ?? [])].filter(isType).map((symbol) => symbol.name).sort();
    const exportedTypes = checker.getExportsOfModule(module).filter(isType).map((symbol) => symbol.name).sort();
    // openai's nested paths: each name under ModelGate.Chat and ModelGate.Chat.Completions, with
    // whether it is the very declaration ModelGate.<name> is.
    const chat = client.exports?.get("Chat" as import("typescript").__String);
    const completions = chat?.exports?.get("Completions" as import("typescript").__String);
    const sameAsFlat = (namespace: import("typescript").Symbol | undefined) =>
      [...(namespace?.exports?.values() ?? [])].filter(isType).map((symbol) => [symbol.name, resolve(symbol) === resolve(client.exports?.get(symbol.escapedName) as import("typescript").Symbol)] as const);
    return { namespaceTypes, exportedTypes, chatTypes: sameAsFlat(chat), completionsTypes: sameAsFlat(completions) };
  }

  it("names every type the ESM entry exports", async () => {
    const { namespaceTypes, exportedTypes } = await declarations("index.d.ts");
    expect(exportedTypes.length, "no public type found").toBeGreaterThan(100);
    expect(exportedTypes.filter((name) => !namespaceTypes.includes(name))).toEqual([]);
  });

  it("holds the same types in CommonJS as in ESM", async () => {
    const [esm, cjs] = await Promise.all([declarations("index.d.ts"), declarations("index.d.cts")]);
    expect(cjs.namespaceTypes).toEqual(esm.namespaceTypes);
    expect(cjs.chatTypes).toEqual(esm.chatTypes);
  });

  it.each(["index.d.ts", "index.d.cts"] as const)("resolves openai's nested paths ModelGate.Chat.X and ModelGate.Chat.Completions.X to ModelGate.X (%s)", async (file) => {
    const { chatTypes, completionsTypes } = await declarations(file);
    expect(chatTypes.map(([name]) => name)).toEqual(expect.arrayContaining(["ChatCompletionCreateParams", "ChatCompletionMessageParam", "ChatCompletionTool", "ChatCompletionChunk", "ParsedChatCompletion"]));
    expect(completionsTypes).toEqual(chatTypes);
    expect(chatTypes.filter(([, same]) => !same)).toEqual([]);
  });

  it("is written from what src/index.ts exports", () => {
    // `npm run build` and `npm run typecheck` write it; a namespace edited by hand, or a type
    // added without either, fails here.
    const check = spawnSync(process.execPath, ["scripts/write-namespace.mjs", "--check"], { cwd: new URL("..", import.meta.url), encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
