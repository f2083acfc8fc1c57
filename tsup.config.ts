import { rmSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

/** The entry points of package.json's exports map, by the name of their file in dist/. */
const entries = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  "testing/node": "src/testing/node.ts",
  // `modelgate/otel`: imports @opentelemetry/api (a peer dependency, so tsup leaves it external).
  "otel/index": "src/otel/index.ts",
};

const shared: Options = {
  // Web-standard output only: the SDK must run unchanged in browsers, Deno, Bun and workers.
  platform: "neutral",
  target: "es2022",
  sourcemap: false,
  external: ["node:http"],
  // The two builds run side by side, so neither may clean the folder the other writes to.
  clean: false,
};

/**
 * Every module of src/ becomes a file of its own: each relative import stays an import of the
 * module's own file, `./x.ts` read as `./x.js`. An app's bundler then sees the SDK's modules as
 * they are written and, with `"sideEffects": false`, leaves out each one the page never reaches.
 */
const oneFilePerModule = {
  name: "one-file-per-module",
  setup(build: { onResolve(options: { filter: RegExp }, callback: (args: { path: string; importer: string; kind: string }) => { path: string; external: boolean } | undefined): void }) {
    build.onResolve({ filter: /^\.\.?\// }, ({ path, importer, kind }) => {
      if (kind === "entry-point") return undefined;
      // Deno loads the source by URL, so every relative import in src/ names its file.
      if (!path.endsWith(".ts")) throw new Error(`${importer}: the relative import "${path}" does not end in .ts`);
      return { path: `${path.slice(0, -".ts".length)}.js`, external: true };
    });
  },
};

rmSync("dist", { recursive: true, force: true });

export default defineConfig([
  {
    ...shared,
    // src/commonjs.ts is the CommonJS entry alone (below).
    entry: ["src/**/*.ts", "!src/commonjs.ts"],
    format: ["esm"],
    // Each file holds one module, so there is nothing to split or shake: what a page does not
    // use is left out by the page's own bundler.
    splitting: false,
    treeshake: false,
    esbuildPlugins: [oneFilePerModule],
    dts: { entry: entries },
  },
  {
    ...shared,
    // `require("modelgate")` is the client class itself (see src/commonjs.ts); its types are
    // those of the ESM entry, whose named exports are all properties of that class. One file
    // per entry: the on-demand modules are bundled into it (a require() costs nothing to defer).
    entry: { ...entries, index: "src/commonjs.ts" },
    format: ["cjs"],
    splitting: false,
    treeshake: true,
    dts: { entry: entries },
  },
]);
