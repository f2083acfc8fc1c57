// Bundles a browser app with esbuild (minified, code splitting on, as Vite and Rollup do by
// default) and reports what the page loads before it calls any lazily loaded helper: the
// entry file and every file it imports statically, raw, gzip and brotli. Chunks reached only
// through a dynamic import() are reported apart, as `lazyGzipBytes`.
// Deterministic, so the size budget test uses it too.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** @param {"raw" | "modelgate" | "modelgate-parse" | "modelgate-tools" | "openai"} app */
export async function bundleSize(app) {
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
  const files = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint);
  // The first load: the entry and the closure of its static imports.
  const firstLoad = new Set();
  const visit = (path) => {
    if (firstLoad.has(path)) return;
    firstLoad.add(path);
    for (const imported of outputs[path].imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  // Metafile paths are relative to the working directory; output files carry absolute ones.
  const bytesOf = (path) => files.get(resolve(path));
  const loaded = [...firstLoad].map(bytesOf);
  const lazy = Object.keys(outputs).filter((path) => !firstLoad.has(path)).map(bytesOf);
  const sum = (list, measure) => list.reduce((total, code) => total + measure(code), 0);
  const gzip = (code) => gzipSync(code, { level: 9 }).length;
  return {
    minifiedBytes: sum(loaded, (code) => code.length),
    gzipBytes: sum(loaded, gzip),
    brotliBytes: sum(loaded, (code) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    lazyGzipBytes: sum(lazy, gzip),
    firstLoadFiles: loaded.length,
    /** The first load's code, for tests that check what is (not) in it. */
    firstLoadCode: loaded.map((code) => new TextDecoder().decode(code)).join("\n"),
  };
}
