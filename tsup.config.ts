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
  splitting: false,
  treeshake: true,
  external: ["node:http"],
});
