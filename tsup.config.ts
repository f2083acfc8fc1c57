import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "testing/index": "src/testing/index.ts",
    "testing/node": "src/testing/node.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  // Web-standard output only: the SDK must run unchanged in browsers, Deno, Bun and workers.
  platform: "neutral",
  target: "es2022",
  sourcemap: false,
  // ESM output is split (tsup's default): the helpers behind a dynamic import() (the stream
  // bridge, the chunk accumulator) become their own files, which an app's bundler loads only
  // when a helper is called. CJS stays one file per entry.
  treeshake: true,
  external: ["node:http"],
});
