import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module shared with the benchmark
import { bundleSize } from "../bench/bundle.mjs";

// Bundle size is deterministic, so its budget is a test (timings stay in the benchmark).
// Measures the built dist/, which `npm test` builds first.
const budget = JSON.parse(readFileSync(join(import.meta.dirname, "../bench/size-budget.json"), "utf8")) as { gzipBytes: number; minifiedBytes: number };

describe("bundle size budget", () => {
  it(`keeps the streamed-chat browser app's first load within ${budget.gzipBytes} bytes gzip and ${budget.minifiedBytes} minified`, async () => {
    const size = (await bundleSize("modelgate")) as { gzipBytes: number; minifiedBytes: number };
    expect(size.gzipBytes, `gzip ${size.gzipBytes} > budget ${budget.gzipBytes}`).toBeLessThanOrEqual(budget.gzipBytes);
    expect(size.minifiedBytes, `minified ${size.minifiedBytes} > budget ${budget.minifiedBytes}`).toBeLessThanOrEqual(budget.minifiedBytes);
  });

  it("keeps the stream bridge, the accumulator and tee() out of the first load (behind a dynamic import)", async () => {
    const size = (await bundleSize("modelgate")) as { lazyGzipBytes: number; firstLoadFiles: number };
    expect(size.lazyGzipBytes, "no lazily loaded chunk: a helper is imported statically again").toBeGreaterThan(1500);
    // A static import from src/streaming/lazy/ into the rest of the SDK would split the first
    // load into the app's file and a shared one (measured: 600 B gzip more); see helpers.ts.
    expect(size.firstLoadFiles, "the first load is split: a lazy helper imports a module of the main bundle").toBe(1);
  });

  it("keeps parse()'s code (schemas, the incremental JSON parser) out of a chat app's first load, and loads it in one piece", async () => {
    const chat = (await bundleSize("modelgate")) as { firstLoadCode: string };
    // Strings only the parse() code holds: the JSON parser's errors and the schema instruction.
    expect(chat.firstLoadCode).not.toContain("leading zero");
    expect(chat.firstLoadCode).not.toContain("follows this JSON Schema");
    const parseApp = (await bundleSize("modelgate-parse")) as { firstLoadFiles: number; firstLoadCode: string };
    expect(parseApp.firstLoadFiles, "an app using parse() loads one file first").toBe(1);
    expect(parseApp.firstLoadCode).not.toContain("leading zero");
  });

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
