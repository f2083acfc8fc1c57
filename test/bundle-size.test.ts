import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module shared with the benchmark
import { bundleSize } from "../bench/bundle.mjs";

// Bundle size is deterministic, so its budget is a test (timings stay in the benchmark).
// Measures the built dist/, which `npm test` builds first.
type Bundler = "esbuild" | "vite";
type Figure = number | Record<Bundler, number>;
interface PageBudget {
  firstLoad?: Figure;
  firstLoadAndOnDemand?: Figure;
  onDemand?: "none";
  /** The on-demand features the page's calls load (folders of src/features/). */
  calls?: string[];
}
const { pages } = JSON.parse(readFileSync(join(import.meta.dirname, "../bench/size-budget.json"), "utf8")) as { pages: Record<string, PageBudget> };
const figure = (value: Figure, bundler: Bundler) => (typeof value === "number" ? value : value[bundler]);

interface BundleSize {
  gzipBytes: number;
  firstLoadFiles: number;
  lazyFiles: number;
  onDemandModules: string[];
  onDemandGzipBytes(...features: string[]): number;
  firstLoadCode: string;
  firstLoadModules: string[];
}

const measured = new Map<string, Promise<BundleSize>>();
const measure = (app: string, bundler: Bundler) => {
  const key = `${app} ${bundler}`;
  if (!measured.has(key)) measured.set(key, bundleSize(app, bundler) as Promise<BundleSize>);
  return measured.get(key) as Promise<BundleSize>;
};

// Strings only the code that loads on demand holds: the JSON parser's errors and the schema
// instruction (parse()), the runner's stop reason, the budget check, an endpoint's check, the
// reading of uploads (toFile()'s too: a chat app that never calls it carries not even its delegate).
const ON_DEMAND_ONLY = ["leading zero", "follows this JSON Schema", "repeated_call", "cannot be checked", "embeddings answer", "Could not read", "image stream", "makeFile"];
// Strings of what a streamed chat reaches: the error reader, the accumulator, the bridge, tee().
const CHAT_PATHS = ["non-JSON (HTML) body", "without any chunk", "stream bridge", "consumed"];
const CHAT_PAGES = ["chat-for-await", "chat-textStream-error"];

describe.each(["esbuild", "vite"] as const)("the pages of bench/apps/, bundled by %s", (bundler) => {
  describe.each(Object.entries(pages))("%s", (app, budget) => {
    if (budget.firstLoad !== undefined) {
      const limit = figure(budget.firstLoad, bundler);
      it(`loads at most ${limit} B gzip first`, async () => {
        const { gzipBytes } = await measure(app, bundler);
        expect(gzipBytes, `gzip ${gzipBytes} > budget ${limit}`).toBeLessThanOrEqual(limit);
      });
    }
    if (budget.firstLoadAndOnDemand !== undefined) {
      const limit = figure(budget.firstLoadAndOnDemand, bundler);
      it(`loads at most ${limit} B gzip, first load and what its calls load on demand together`, async () => {
        const size = await measure(app, bundler);
        const total = size.gzipBytes + size.onDemandGzipBytes(...(budget.calls ?? []));
        expect(total, `gzip ${total} > budget ${limit}`).toBeLessThanOrEqual(limit);
      });
    }
    if (budget.onDemand === "none") {
      it("can load nothing on demand", async () => {
        const { onDemandModules, lazyFiles } = await measure(app, bundler);
        expect(onDemandModules).toEqual([]);
        expect(lazyFiles).toBe(0);
      });
    }
  });

  it.each(CHAT_PAGES)("holds no file of dist/features/ in the first load of %s", async (app) => {
    const { firstLoadModules } = await measure(app, bundler);
    expect(firstLoadModules, "no SDK module found: has bench/bundle.mjs lost the bundler's inputs?").toContain("dist/streaming/stream.js");
    expect(firstLoadModules.filter((path) => path.startsWith("dist/features/"))).toEqual([]);
  });

  it("holds everything a streamed chat can reach, errors included, and none of what loads on demand", async () => {
    const { firstLoadCode, onDemandModules } = await measure("chat-textStream-error", bundler);
    for (const text of CHAT_PATHS) expect(firstLoadCode, `"${text}" missing from the first load`).toContain(text);
    for (const text of ON_DEMAND_ONLY) expect(firstLoadCode, `"${text}" is in the first load`).not.toContain(text);
    expect(onDemandModules.sort(), "a feature is no longer loadable on demand").toEqual(["budget", "chat-stream", "endpoints", "structured", "tools", "tracing"]);
  });

  it("keeps the client and the request pipeline out of the bridge pages", async () => {
    for (const app of ["bridge-textStream", "bridge-error-message"]) {
      const { firstLoadModules } = await measure(app, bundler);
      expect(firstLoadModules).toContain("dist/streaming/bridge.js");
      expect(firstLoadModules.filter((path) => /^dist\/(client|pipeline|resources|loader)/.test(path)), `${app} holds`).toEqual([]);
    }
  });

  it("leaves parse()'s and the runner's code out of the first load of the pages that call them", async () => {
    for (const app of ["parse-stream", "run-tools-max-cost"]) {
      const { firstLoadCode, firstLoadModules } = await measure(app, bundler);
      expect(firstLoadModules.filter((path) => path.startsWith("dist/features/"))).toEqual([]);
      for (const text of ON_DEMAND_ONLY) expect(firstLoadCode, `"${text}" is in ${app}'s first load`).not.toContain(text);
    }
  });
});

describe("the browser build", () => {
  it("bundles without any node: import (the browser build stays web-standard)", async () => {
    const { build } = await import("esbuild");
    const result = await build({
      entryPoints: [join(import.meta.dirname, "../dist/index.js")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith("node:"))).toEqual([]);
  });
});
