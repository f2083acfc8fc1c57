import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module shared with the benchmark
import { bundleSize } from "../bench/bundle.mjs";

// Bundle size is deterministic, so its budget is a test (timings stay in the benchmark).
// Measures the built dist/, which `npm test` builds first.
const budget = JSON.parse(readFileSync(join(import.meta.dirname, "../bench/size-budget.json"), "utf8")) as { gzipBytes: number };

interface BundleSize {
  gzipBytes: number;
  firstLoadFiles: number;
  lazyFiles: number;
  firstLoadCode: string;
}

const measure = (app: string, bundler: "esbuild" | "vite") => bundleSize(app, bundler) as Promise<BundleSize>;

// Strings only the code that loads on demand holds: the JSON parser's errors and the schema
// instruction (parse()), the runner's stop reason, the budget check, an endpoint's check, the
// reading of uploads (toFile()'s too: a chat app that never calls it carries not even its delegate).
const ON_DEMAND_ONLY = ["leading zero", "follows this JSON Schema", "repeated_call", "cannot be checked", "embeddings answer", "Could not read", "image stream", "makeFile"];
// Strings of what a streamed chat reaches: the error reader, the accumulator, the bridge, tee().
const CHAT_PATHS = ["non-JSON (HTML) body", "without any chunk", "stream bridge", "consumed"];

describe.each(["esbuild", "vite"] as const)("a browser app's first load, bundled by %s", (bundler) => {
  it.each(["modelgate", "modelgate-text-stream"])(`keeps the streamed chat app %s within ${budget.gzipBytes} bytes gzip, in the app's file and one of the SDK's`, async (app) => {
    const size = await measure(app, bundler);
    expect(size.gzipBytes, `gzip ${size.gzipBytes} > budget ${budget.gzipBytes}`).toBeLessThanOrEqual(budget.gzipBytes);
    // One file more would mean the first load is cut where a feature loaded on demand shares
    // code with it (see src/loader.ts).
    expect(size.firstLoadFiles, "the SDK's part of the first load is split in several files").toBeLessThanOrEqual(2);
  });

  it("holds everything a streamed chat can reach, errors included, and none of what loads on demand", async () => {
    const { firstLoadCode, lazyFiles } = await measure("modelgate-text-stream", bundler);
    for (const text of CHAT_PATHS) expect(firstLoadCode, `"${text}" missing from the first load`).toContain(text);
    for (const text of ON_DEMAND_ONLY) expect(firstLoadCode, `"${text}" is in the first load`).not.toContain(text);
    expect(lazyFiles, "nothing is left to load on demand").toBeGreaterThanOrEqual(4);
  });

  it("leaves parse()'s and the runner's code out of the first load of the apps that call them", async () => {
    for (const app of ["modelgate-parse", "modelgate-tools"]) {
      const { firstLoadCode, firstLoadFiles } = await measure(app, bundler);
      // tool() reads its schema when called, with the schema reader that parse() and the runner
      // share: Vite gives that reader a file of its own in an app that calls tool() (a chat app
      // that does not never loads it; see tsup.config.ts).
      expect(firstLoadFiles).toBeLessThanOrEqual(app === "modelgate-tools" && bundler === "vite" ? 3 : 2);
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
