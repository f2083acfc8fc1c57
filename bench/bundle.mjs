// Bundles a browser app with esbuild (minified) and reports its size raw, gzip and brotli.
// Deterministic, so the size budget test uses it too.
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** @param {"raw" | "modelgate" | "openai"} app */
export async function bundleSize(app) {
  const result = await build({
    entryPoints: [`${root}bench/apps/${app}.mjs`],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    alias: { modelgate: `${root}dist/index.js` },
  });
  const code = result.outputFiles[0].contents;
  return {
    minifiedBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    brotliBytes: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
