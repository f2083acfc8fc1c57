import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

const entries = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  "testing/node": "src/testing/node.ts",
  // `modelgate/otel`: imports @opentelemetry/api (a peer dependency, so tsup leaves it external).
  "otel/index": "src/otel/index.ts",
};

// What src/loader.ts loads on demand, named as entries so that their files carry no hash: an app's
// bundler adds its own, and the names are in the first load (loader.ts), where a hash does not compress.
const onDemand = {
  "internal/parse": "src/features/structured/parse.ts",
  "internal/runner": "src/features/tools/runner.ts",
  "internal/budget": "src/features/budget/index.ts",
  "internal/endpoints": "src/features/endpoints/index.ts",
  "internal/chat-stream": "src/features/chat-stream/index.ts",
  "internal/tracing": "src/features/tracing/index.ts",
};

const shared: Options = {
  // Web-standard output only: the SDK must run unchanged in browsers, Deno, Bun and workers.
  platform: "neutral",
  target: "es2022",
  sourcemap: false,
  treeshake: true,
  external: ["node:http"],
  // The two builds run side by side, so neither may clean the folder the other writes to.
  clean: false,
};

rmSync("dist", { recursive: true, force: true });

export default defineConfig([
  // ESM is split (tsup's default for ESM): each module is in exactly one file, and what
  // src/loader.ts imports on demand becomes files an app's bundler loads only when called.
  // The schema reader (src/schemas/schema-source.ts and what it imports) is an entry of its own,
  // not in the exports map, only so that it gets a file of its own: a chat app calls neither
  // tool() nor jsonSchema(), and then Rollup (Vite) leaves that file to the parse()/runTools()
  // code that loads on demand, instead of the first load (Vite: 15,923 B → 14,986 B gzip for
  // the streamed chat app).
  //
  // esbuild (the app's) does not leave it out by itself: it places code by file, and puts a file in the
  // first load when a file of the first load names it in any import, used or not. So tool(),
  // jsonSchema() and tool-internals.ts (which the core reads) are entries too, which puts tool(),
  // the only core-side caller of the schema reader, in a file of its own that a chat app never
  // uses; and the `import './chunk-….js';` lines esbuild writes into dist/index.js for every file
  // the entry reaches are dropped: they only order side effects, and the package has none
  // (`"sideEffects": false`). A chat app then loads the schema reader only with parse() or the
  // runner, under esbuild as under Vite (textStream page, esbuild: 16,041 → 15,335 B gzip). An
  // app that calls tool() loads it at once; Vite then gives it a file of its own.
  {
    ...shared,
    entry: {
      ...entries,
      ...onDemand,
      "internal/schema-reader": "src/schemas/schema-source.ts",
      "internal/tool": "src/schemas/tool.ts",
      "internal/json-schema": "src/schemas/json-schema.ts",
      "internal/tool-internals": "src/schemas/tool-internals.ts",
    },
    format: ["esm"],
    dts: { entry: entries },
    onSuccess: async () => {
      const entry = "dist/index.js";
      writeFileSync(entry, readFileSync(entry, "utf8").replace(/^import ["']\.\/chunk-[\w-]+\.js["'];\n/gm, ""));
    },
  },
  {
    ...shared,
    // `require("modelgate")` is the client class itself (see src/commonjs.ts); its types are
    // those of the ESM entry, whose named exports are all properties of that class. One file
    // per entry: the on-demand modules are bundled into it (a require() costs nothing to defer).
    entry: { ...entries, index: "src/commonjs.ts" },
    format: ["cjs"],
    splitting: false,
    dts: { entry: entries },
  },
]);
