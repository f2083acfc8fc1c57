// Bundles a browser page of bench/apps/ with esbuild or Vite (minified, code splitting on, as
// both do by default) and reports what the page loads before it calls anything that loads on
// demand: the entry file and every file it imports statically, raw, gzip and brotli. Chunks
// reached only through a dynamic import() are reported apart, by the feature of src/features/
// whose entry module they start from. Deterministic, so the size budget test uses it too.
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The pages of bench/apps/ that use modelgate, as API.md names them. */
export const APPS = ["chat-for-await", "chat-textStream-error", "bridge-textStream", "bridge-error-message", "ccs-bridge", "parse-stream", "run-tools-max-cost"];

/**
 * @param {string} app a file of bench/apps/, without `.mjs`
 * @param {"esbuild" | "vite"} bundler
 * @param {{ splitting?: boolean }} options `splitting: false` bundles the page into one file
 */
export async function bundleSize(app, bundler = "esbuild", { splitting = true } = {}) {
  const chunks = bundler === "vite" ? await viteChunks(app, splitting) : await esbuildChunks(app, splitting);
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
  // What the page can load later: every file reached from the first load through import(),
  // and what those import. (esbuild also writes files for the import()s of modules it then
  // left out, such as the loader of a page that calls no feature: those the page never loads.)
  const reachable = new Set(firstLoad);
  const follow = (chunk) => {
    for (const name of [...chunk.imports, ...chunk.dynamicImports]) {
      const next = byName.get(name);
      if (reachable.has(next)) continue;
      reachable.add(next);
      follow(next);
    }
  };
  for (const chunk of firstLoad) follow(chunk);
  const lazy = chunks.filter((chunk) => reachable.has(chunk) && !firstLoad.has(chunk)).map((chunk) => chunk.code);
  // What each on-demand feature costs when it is first called: the file of its entry module and
  // the files that one imports which the first load does not hold.
  const onDemand = {};
  for (const target of new Set([...reachable].flatMap((chunk) => chunk.dynamicImports))) {
    const reached = new Set();
    const reach = (chunk) => {
      if (reached.has(chunk) || firstLoad.has(chunk)) return;
      reached.add(chunk);
      for (const imported of chunk.imports) reach(byName.get(imported));
    };
    const chunk = byName.get(target);
    reach(chunk);
    const feature = /^dist\/features\/([^/]+)\//.exec(chunk.entryModule ?? "")?.[1] ?? target;
    onDemand[feature] = reached;
  }
  /** Gzip bytes the named on-demand features add together (a file two of them share counted once). */
  const onDemandGzipBytes = (...names) => sum([...new Set(names.flatMap((name) => [...(onDemand[name] ?? [])]))].map((chunk) => chunk.code), gzip);
  return {
    minifiedBytes: sum(loaded, (code) => Buffer.byteLength(code)),
    gzipBytes: sum(loaded, gzip),
    brotliBytes: sum(loaded, (code) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    lazyGzipBytes: sum(lazy, gzip),
    lazyFiles: lazy.length,
    /** The on-demand features the page can load, by folder of src/features/ (`structured`, `tools`, …). */
    onDemandModules: Object.keys(onDemand),
    onDemandGzipBytes,
    firstLoadFiles: loaded.length,
    /** The first load's code, for tests that check what is (not) in it. */
    firstLoadCode: loaded.join("\n"),
    /** The modules of the SDK in the first load, as paths of the package (`dist/streaming/stream.js`), sorted. */
    firstLoadModules: [...new Set([...firstLoad].flatMap((chunk) => chunk.modules))].filter((path) => path.startsWith("dist/")).sort(),
  };
}

/** A path of the bundler's as a path of the repository (`dist/…`, `bench/apps/…`). */
const fromRoot = (path) => relative(root, resolve(path)).replaceAll("\\", "/");

/** @returns {Promise<{ name: string, code: string, entry: boolean, entryModule?: string, modules: string[], imports: string[], dynamicImports: string[] }[]>} */
async function esbuildChunks(app, splitting) {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [`${root}bench/apps/${app}.mjs`],
    bundle: true,
    minify: true,
    splitting,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: "/bundle-size",
    write: false,
    metafile: true,
    logLevel: "silent",
    alias: { modelgate: `${root}dist/index.js` },
    absWorkingDir: root,
  });
  // Metafile paths are relative to the working directory; output files carry absolute ones.
  const code = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  return Object.entries(result.metafile.outputs).map(([name, output]) => ({
    name,
    code: code.get(resolve(root, name)),
    // Chunks reached by import() are entry points to esbuild too: the app's is the one.
    entry: output.entryPoint === `bench/apps/${app}.mjs`,
    entryModule: output.entryPoint && fromRoot(output.entryPoint),
    modules: Object.keys(output.inputs).map(fromRoot),
    imports: output.imports.filter((imported) => imported.kind === "import-statement").map((imported) => imported.path),
    dynamicImports: output.imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path),
  }));
}

async function viteChunks(app, splitting) {
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
      rollupOptions: { input: `${root}bench/apps/${app}.mjs`, output: { codeSplitting: splitting } },
    },
  });
  const chunks = (Array.isArray(output) ? output[0] : output).output.filter((file) => file.type === "chunk");
  return chunks.map((chunk) => ({
    name: chunk.fileName,
    code: chunk.code,
    entry: chunk.isEntry,
    entryModule: chunk.facadeModuleId ? fromRoot(chunk.facadeModuleId) : undefined,
    modules: Object.keys(chunk.modules).map(fromRoot),
    imports: chunk.imports,
    dynamicImports: chunk.dynamicImports,
  }));
}
