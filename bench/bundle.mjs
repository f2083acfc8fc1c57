// Bundles a browser app with esbuild or Vite (minified, code splitting on, as both do by
// default) and reports what the page loads before it calls anything that loads on demand: the
// entry file and every file it imports statically, raw, gzip and brotli. Chunks reached only
// through a dynamic import() are reported apart, as `lazyGzipBytes`.
// Deterministic, so the size budget test uses it too.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The apps in bench/apps/. */
export const APPS = ["modelgate", "modelgate-text-stream", "modelgate-parse", "modelgate-tools"];

/**
 * @param {string} app a file of bench/apps/, without `.mjs`
 * @param {"esbuild" | "vite"} bundler
 */
export async function bundleSize(app, bundler = "esbuild") {
  const chunks = bundler === "vite" ? await viteChunks(app) : await esbuildChunks(app);
  const byName = new Map(chunks.map((chunk) => [chunk.name, chunk]));
  // The first load: the entry and the closure of its static imports.
  const firstLoad = new Set();
  const visit = (chunk) => {
    if (firstLoad.has(chunk)) return;
    firstLoad.add(chunk);
    for (const imported of chunk.imports) visit(byName.get(imported));
  };
  visit(chunks.find((chunk) => chunk.entry));
  const loaded = [...firstLoad].map((chunk) => chunk.code);
  const sum = (list, measure) => list.reduce((total, code) => total + measure(code), 0);
  const gzip = (code) => gzipSync(code, { level: 9 }).length;
  const lazy = chunks.filter((chunk) => !firstLoad.has(chunk)).map((chunk) => chunk.code);
  // What each on-demand module costs when it is first called: its file and the files it
  // imports that the first load does not hold (named by the SDK's module: parse, runner, …).
  const onDemand = {};
  for (const target of new Set(chunks.flatMap((chunk) => chunk.dynamicImports))) {
    const reached = new Set();
    const reach = (chunk) => {
      if (reached.has(chunk) || firstLoad.has(chunk)) return;
      reached.add(chunk);
      for (const imported of chunk.imports) reach(byName.get(imported));
    };
    reach(byName.get(target));
    const name = /(parse|runner|budget|endpoints|key-function|chat-stream|middleware|debug-lines|tracing|index)[-.]/.exec(target.split("/").pop())?.[1] ?? target;
    onDemand[name] = reached;
  }
  /** Gzip bytes the named on-demand modules add together (a file two of them share counted once). */
  const onDemandGzipBytes = (...names) => sum([...new Set(names.flatMap((name) => [...(onDemand[name] ?? [])]))].map((chunk) => chunk.code), gzip);
  return {
    minifiedBytes: sum(loaded, (code) => Buffer.byteLength(code)),
    gzipBytes: sum(loaded, gzip),
    brotliBytes: sum(loaded, (code) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    lazyGzipBytes: sum(lazy, gzip),
    lazyFiles: lazy.length,
    /** The on-demand modules, by name (`parse`, `runner`, `budget`, `endpoints`, `key-function`). */
    onDemandModules: Object.keys(onDemand),
    onDemandGzipBytes,
    firstLoadFiles: loaded.length,
    /** The first load's code, for tests that check what is (not) in it. */
    firstLoadCode: loaded.join("\n"),
  };
}

/** @returns {Promise<{ name: string, code: string, entry: boolean, imports: string[], dynamicImports: string[] }[]>} */
async function esbuildChunks(app) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [`${root}bench/apps/${app}.mjs`],
    bundle: true,
    minify: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: "/bundle-size",
    write: false,
    metafile: true,
    logLevel: "silent",
    alias: { modelgate: `${root}dist/index.js` },
  });
  // Metafile paths are relative to the working directory; output files carry absolute ones.
  const code = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  return Object.entries(result.metafile.outputs).map(([name, output]) => ({
    name,
    code: code.get(resolve(name)),
    // Chunks reached by import() are entry points to esbuild too: the app's is the one.
    entry: output.entryPoint === `bench/apps/${app}.mjs`,
    imports: output.imports.filter((imported) => imported.kind === "import-statement").map((imported) => imported.path),
    dynamicImports: output.imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path),
  }));
}

async function viteChunks(app) {
  const { build } = await import("vite");
  const output = await build({
    root,
    configFile: false,
    logLevel: "silent",
    resolve: { alias: { modelgate: `${root}dist/index.js` } },
    build: {
      write: false,
      minify: true,
      target: "es2022",
      // The preload helper Vite adds for dynamic imports is the app's, not the SDK's.
      modulePreload: false,
      rollupOptions: { input: `${root}bench/apps/${app}.mjs` },
    },
  });
  const chunks = (Array.isArray(output) ? output[0] : output).output.filter((file) => file.type === "chunk");
  return chunks.map((chunk) => ({ name: chunk.fileName, code: chunk.code, entry: chunk.isEntry, imports: chunk.imports, dynamicImports: chunk.dynamicImports }));
}
