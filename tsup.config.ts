import { rmSync } from "node:fs";
import { defineConfig, type Options } from "tsup";
import type { Plugin } from "esbuild";

const entries = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  "testing/node": "src/testing/node.ts",
};

const shared: Options = {
  // Web-standard output only: the SDK must run unchanged in browsers, Deno, Bun and workers.
  platform: "neutral",
  target: "es2022",
  sourcemap: false,
  // ESM output is split (tsup's default): the helpers behind a dynamic import() (the stream
  // bridge, the chunk accumulator) become their own files, which an app's bundler loads only
  // when a helper is called. CJS stays one file per entry.
  treeshake: true,
  external: ["node:http"],
  // The two builds run side by side, so neither may clean the folder the other writes to.
  clean: false,
};

/**
 * `parse()`'s lazily loaded code (src/structured/lazy/) becomes a file of its own,
 * dist/structured.js, bundled whole instead of split; so does the tool runner's
 * (src/tools/lazy/, dist/tools.js), for the same reason. Split, it would share a chunk with
 * dist/index.js (both use src/structured/schema-source.ts, for `tool()` and for `parse()`), and
 * an app's bundler puts a chunk that its entry imports into the first load even when the
 * app never calls `tool()` (esbuild assigns whole files to chunks): measured, 2.3 KB more in
 * the streamed chat app. As a file of its own it carries its own copy of what it shares with
 * the main bundle; that code holds no state and no class (the SDK's classes reach it when it
 * loads, see src/structured/load.ts), so two copies behave as one.
 */
const APART: Record<string, string> = { "src/structured/load.ts": "./structured.js", "src/tools/load.ts": "./tools.js" };
const lazyFilesApart: Plugin = {
  name: "lazy-files-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/lazy\/index\.ts$/ }, (args) => {
      const importer = args.importer.replaceAll("\\", "/");
      const file = Object.entries(APART).find(([loader]) => importer.endsWith(loader))?.[1];
      return file ? { path: file, external: true } : undefined;
    });
  },
};

rmSync("dist", { recursive: true, force: true });

export default defineConfig([
  { ...shared, entry: entries, format: ["esm"], dts: true, esbuildPlugins: [lazyFilesApart] },
  { ...shared, entry: { structured: "src/structured/lazy/index.ts", tools: "src/tools/lazy/index.ts" }, format: ["esm"], splitting: false, dts: false },
  {
    ...shared,
    // `require("modelgate")` is the client class itself (see src/commonjs.ts); its types are
    // those of the ESM entry, whose named exports are all properties of that class.
    entry: { ...entries, index: "src/commonjs.ts" },
    format: ["cjs"],
    splitting: false,
    dts: { entry: entries },
  },
]);
