import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and README snippets import the package by name; they run against the source.
    alias: [
      { find: /^modelgate\/testing\/node$/, replacement: source("./src/testing/node.ts") },
      { find: /^modelgate\/otel$/, replacement: source("./src/otel/index.ts") },
      { find: /^modelgate\/testing$/, replacement: source("./src/testing/index.ts") },
      { find: /^modelgate$/, replacement: source("./src/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "test/runtimes/**"],
    // Only ends a test that hangs. The suites that run tsc, tsx or Deno in a child process took
    // over 20 s, and in-process property tests 9 s, with both cores busy; this leaves a wide margin.
    testTimeout: 120_000,
    // CI also writes machine-readable results, which .ci/run sums up in one closing line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".tmp/vitest-results.json" },
  },
});
