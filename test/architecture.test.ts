import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderOf, importGraph, staticClosure, SRC } from "./fixtures/import-graph.ts";

// The rules of src/pipeline/loader.ts and src/features/, read from the source: what is in the first load,
// what loads on demand, and which way the arrows between folders point.
const { files, edges } = importGraph();
const sdkFiles = files.filter((file) => !file.startsWith("testing/"));
const runtimeEdges = edges.filter((edge) => !edge.typeOnly && !edge.from.startsWith("testing/"));
/** What loads on demand: every folder under src/features/, and nothing else. */
const FEATURES = [...new Set(sdkFiles.filter((file) => file.startsWith("features/")).map(folderOf))];
const isFeature = (file: string) => file.startsWith("features/");
/**
 * The features that build on another (types are erased): openai's stream helper builds on
 * parse()'s code; the runner on budgets, on that helper's events and conversation, and on
 * parse()'s reading of openai's helper objects. Any other feature imports only the core.
 */
const BUILDS_ON: Record<string, string[]> = { "features/tools": ["features/budget", "features/chat-stream", "features/structured"], "features/chat-stream": ["features/structured"] };

describe("the one loader", () => {
  it("is the only place in src/ that imports code on demand", () => {
    const dynamic = edges.filter((edge) => edge.dynamic).map((edge) => edge.from);
    expect([...new Set(dynamic)]).toEqual(["pipeline/loader.ts"]);
  });

  it("loads every feature's entry module, and nothing of a feature is in the first load", () => {
    const loaded = edges.filter((edge) => edge.dynamic).map((edge) => edge.to).sort();
    expect(loaded).toEqual(["features/budget/index.ts", "features/chat-stream/index.ts", "features/endpoints/index.ts", "features/structured/parse.ts", "features/tools/runner.ts", "features/tracing/index.ts"]);
    expect(FEATURES.sort()).toEqual(["features/budget", "features/chat-stream", "features/endpoints", "features/structured", "features/tools", "features/tracing"]);
    const firstLoad = staticClosure("index.ts", runtimeEdges);
    const inFirstLoad = [...firstLoad].filter(isFeature);
    expect(inFirstLoad, "a feature's file is reached from src/index.ts without the loader").toEqual([]);
  });

  it("hands nothing over: no install() and no module-level slot filled later", () => {
    for (const file of sdkFiles) {
      const text = readFileSync(join(SRC, file), "utf8");
      expect(text, `${file} exports a let`).not.toMatch(/^export let /m);
      expect(text, `${file} defines install()`).not.toMatch(/function install\(/);
    }
  });
});

describe("the layers", () => {
  it("have no run-time import cycle between folders", () => {
    const arrows = new Map<string, Set<string>>();
    for (const { from, to, dynamic } of runtimeEdges) {
      if (dynamic || folderOf(from) === folderOf(to)) continue;
      const targets = arrows.get(folderOf(from)) ?? new Set<string>();
      arrows.set(folderOf(from), targets.add(folderOf(to)));
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (folder: string) => {
      state.set(folder, "open");
      path.push(folder);
      for (const next of arrows.get(folder) ?? []) {
        if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next].join(" → "));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(folder, "done");
    };
    for (const folder of arrows.keys()) if (!state.has(folder)) visit(folder);
    expect(cycles).toEqual([]);
  });

  it("let a feature import the core, and another feature only where it builds on it", () => {
    const wrong = runtimeEdges
      .filter(({ from, to, dynamic }) => !dynamic && isFeature(from) && isFeature(to))
      .filter(({ from, to }) => folderOf(to) !== folderOf(from) && !(BUILDS_ON[folderOf(from)] ?? []).includes(folderOf(to)))
      .map(({ from, to }) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it("never let the core import a feature except through the loader", () => {
    const wrong = runtimeEdges.filter(({ from, to, dynamic }) => !dynamic && !isFeature(from) && isFeature(to)).map(({ from, to }) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });
});

describe("the built package", () => {
  // One ESM file per module, so a page's bundler drops each module the page never reaches.
  // (npm test builds dist/ first.)
  it("ships each module of src/ as an ESM file of its own, importing the others by their files", () => {
    const dist = join(SRC, "../dist");
    const modules = files.filter((file) => file !== "commonjs.ts");
    const missing = modules.filter((file) => !existsSync(join(dist, file.replace(/\.ts$/, ".js"))));
    expect(missing, "modules of src/ without a file in dist/").toEqual([]);
    const broken: string[] = [];
    let imports = 0;
    for (const file of modules) {
      const built = join(dist, file.replace(/\.ts$/, ".js"));
      for (const [, specifier] of readFileSync(built, "utf8").matchAll(/(?:from\s*|import\s*\(\s*|^import\s*)"(\.{1,2}\/[^"]+)"/gm)) {
        imports++;
        if (!specifier?.endsWith(".js") || !existsSync(join(dirname(built), specifier))) broken.push(`${file}: ${specifier}`);
      }
    }
    expect(imports, "no relative import found: has the build changed its output?").toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  // One copy of each class and of its state: a class defined in two files of one format
  // would make `instanceof` fail between them. (npm test builds dist/ first.)
  it.each([
    ["ESM", ".js"],
    ["CommonJS", ".cjs"],
  ])("defines each class in one %s file of dist/", (_format, extension) => {
    const dist = join(SRC, "../dist");
    const builtFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? builtFiles(join(dir, entry.name)) : entry.name.endsWith(extension) ? [join(dir, entry.name)] : [],
      );
    const homes = new Map<string, string[]>();
    for (const file of builtFiles(dist)) {
      for (const [, assigned, declared] of readFileSync(file, "utf8").matchAll(/(?:^|[\s,;(])([A-Za-z_$][\w$]*)\s*=\s*class\b|^\s*class\s+([A-Za-z_$][\w$]*)/gm)) {
        const name = assigned ?? declared;
        if (name) homes.set(name, [...(homes.get(name) ?? []), file.slice(dist.length + 1)]);
      }
    }
    expect(homes.size, "no class found: has the build changed its output?").toBeGreaterThan(10);
    const twice = [...homes].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(", ")}`);
    expect(twice).toEqual([]);
  });
});
