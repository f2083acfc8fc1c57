// `npm run test:runtimes`: proves the packed package in every runtime we support. Installs the
// runtimes into this folder (install.mjs: its own package.json, so the repository's install stays
// small), builds and packs the package, installs the tarball into throwaway consumer projects,
// starts the mock gateway on 127.0.0.1, and runs one check per runtime, the README's blocks for
// that runtime included, and one of installing from source (source-install.mjs). Each check
// prints `<runtime>: ok (<version>)` or `<runtime>: FAILED <reason>`; the command exits non-zero
// if any failed.
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { installRuntimes, suiteBin } from "./install.mjs";
import { readmeBlocks } from "./readme-blocks.mjs";
import { jsrPublishCheck } from "./jsr-publish.mjs";
import { mockCommandCheck } from "./mock-command.mjs";
import { sourceInstallCheck } from "./source-install.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = join(root, "test/runtimes/fixtures");
// TypeScript comes from the repository's install (the version it builds with); the runtimes and
// linters from this folder's.
const rootBin = (name) => join(root, "node_modules/.bin", name);
const REPLY = "Hello from the loopback gateway, in every runtime: ünïcödé 🚀.";
const work = mkdtempSync(join(tmpdir(), "modelgate-runtimes-"));
const cleanups = [() => rmSync(work, { recursive: true, force: true })];
// Deno runs with --no-lock: loopback URLs on random ports must never reach the tracked lock.
const denoLock = readFileSync(join(root, "deno.lock"), "utf8");
const started = performance.now();

// --- setup: runtimes, build, pack, install, gateway ---------------------------------------
console.log(`runtimes install (test/runtimes/node_modules): ${await installRuntimes()}`);
await run("npm", ["run", "build", "--silent"], { cwd: root });
// Just built: packing skips `prepack` (which would build again) and so runs its other half by
// hand, so that the tarball is the one npm publish uploads (package.json without `prepare`).
const packManifest = (mode) => run(process.execPath, [join(root, "scripts/pack-manifest.mjs"), mode], { cwd: root });
await packManifest("strip");
const { stdout: packed } = await run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: root }).finally(() => packManifest("restore"));
const tarball = join(work, packed.trim().split("\n").at(-1));

const { createMockGateway, MOCK_API_KEY } = await import(join(root, "dist/testing/index.js"));
const { serveNode } = await import(join(root, "dist/testing/node.js"));
// One server, three mocks: every reply is REPLY, except under /structured, where a mock without
// a fixed reply answers parse()'s schema (the consumers call it with baseURL + "/structured"),
// and under /base64, where embeddings come as base64 although floats were asked for. The
// structured answer comes a chunk per millisecond, as from a model, so that it usually shows
// as several partials (chunks that arrive together share one).
const replying = createMockGateway({ reply: REPLY });
const mounted = { "/structured": createMockGateway({ chunkDelayMs: 1 }), "/base64": createMockGateway({ reply: REPLY, embeddingsAsBase64: true }) };
const gateway = await serveNode((request) => {
  const url = new URL(request.url);
  const prefix = Object.keys(mounted).find((path) => url.pathname.startsWith(`${path}/`));
  if (!prefix) return replying(request);
  url.pathname = url.pathname.slice(prefix.length);
  return mounted[prefix](new Request(url, request));
});
cleanups.push(() => gateway.close());

// What every runtime's embeddings and transcription must come to: the floats and the text the
// built package gets here, in Node. A runtime's `decoded` (from /base64) must equal the floats.
const EMBED = { model: "openai/text-embedding-3-small", input: ["sea", "ocean"], dimensions: 4 };
const ENDPOINTS = await (async () => {
  const { ModelGate } = await import(join(root, "dist/index.js"));
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: gateway.url });
  const embeddings = (await client.embeddings.create(EMBED)).data.map((entry) => entry.embedding);
  const recording = new Blob([new Uint8Array([82, 73, 70, 70, 36, 0, 0, 0])], { type: "audio/wav" });
  const { text: transcription } = await client.audio.transcriptions.create({ model: "openai/gpt-4o-audio-preview", file: recording });
  const isVector = (vector) => vector.length === EMBED.dimensions && vector.every((value) => typeof value === "number" && value !== 0);
  if (embeddings.length !== 2 || !embeddings.every(isVector)) throw new Error(`embeddings came back as ${JSON.stringify(embeddings)}`);
  if (!(typeof transcription === "string" && transcription.length > 10)) throw new Error(`the transcription came back as ${JSON.stringify(transcription)}`);
  return { embeddings, transcription };
})();

async function consumer(name, type) {
  const dir = join(work, name);
  cpSync(join(fixtures, "node"), dir, { recursive: true });
  cpSync(join(fixtures, "typescript"), dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, ...(type ? { type } : {}) }));
  await run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", tarball], { cwd: dir });
  return dir;
}
const [cjsDir, esmDir] = await Promise.all([consumer("consumer-cjs"), consumer("consumer-esm", "module")]);

// README blocks marked `<!-- runs: ... -->` run here, exactly as the README shows them.
const readme = readmeBlocks(readFileSync(join(root, "README.md"), "utf8"));
const readmeBlocksFor = (runs) => {
  const found = readme.filter((block) => block.runs === runs);
  if (found.length === 0) throw new Error(`README.md has no block marked <!-- runs: ${runs} -->`);
  return found;
};

// --- checks --------------------------------------------------------------------------------
function expectReply(stdout, { endpoints = false } = {}) {
  const result = JSON.parse(stdout.trim().split("\n").at(-1));
  if (endpoints) expectEndpoints(result);
  if (result.plain !== REPLY) throw new Error(`plain call returned ${JSON.stringify(result.plain)}`);
  if (result.streamed !== REPLY) throw new Error(`stream returned ${JSON.stringify(result.streamed)}`);
  // Consumers that also call parse() (its code loads lazily, from a file of its own when built).
  if ("parsed" in result) {
    const isWeather = (value) => typeof value?.city === "string" && typeof value?.celsius === "number";
    if (!isWeather(result.parsed) || !isWeather(result.parsedStream)) throw new Error(`parse() gave ${JSON.stringify(result)}`);
    // Chunks that arrive together share a partial, and how they group on a loopback socket
    // depends on the machine's load: one partial at least is what is certain.
    if (!(result.partials >= 1)) throw new Error(`parse({ stream: true }) gave ${result.partials} partial objects`);
  }
}

/** A runtime's embeddings (as floats, and decoded from base64) and transcription of a Blob, against `ENDPOINTS`. */
function expectEndpoints(result) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(result.embeddings, ENDPOINTS.embeddings)) throw new Error(`embeddings came back as ${JSON.stringify(result.embeddings)}`);
  if (!same(result.decoded, ENDPOINTS.embeddings)) throw new Error(`embeddings decoded from base64 came back as ${JSON.stringify(result.decoded)}`);
  if (result.transcription !== ENDPOINTS.transcription) throw new Error(`the transcription came back as ${JSON.stringify(result.transcription)}`);
}

async function nodeCheck(script, dir) {
  expectReply((await run(process.execPath, [script, gateway.url, MOCK_API_KEY], { cwd: dir })).stdout, { endpoints: true });
  return process.version;
}

async function bunCheck(script, dir) {
  expectReply((await run(suiteBin("bun"), [script, gateway.url, MOCK_API_KEY], { cwd: dir })).stdout, { endpoints: true });
  return `bun ${(await run(suiteBin("bun"), ["--version"])).stdout.trim()}`;
}

const RESOLUTIONS = [
  { name: "node10", dir: cjsDir, options: { module: "commonjs", moduleResolution: "node10" } },
  { name: "node16 (CJS)", dir: cjsDir, options: { module: "node16", moduleResolution: "node16" } },
  { name: "node16 (CJS, import = require)", dir: cjsDir, options: { module: "node16", moduleResolution: "node16" }, files: ["consumer-require.cts"] },
  { name: "node16 (ESM)", dir: esmDir, options: { module: "node16", moduleResolution: "node16" } },
  { name: "nodenext", dir: esmDir, options: { module: "nodenext", moduleResolution: "nodenext" } },
  { name: "bundler", dir: esmDir, options: { module: "esnext", moduleResolution: "bundler" } },
];

async function typescriptCheck({ name, dir, options, files = ["consumer.ts"] }) {
  const config = join(dir, `tsconfig.${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...options, target: "es2022", lib: ["es2022", "dom", "dom.iterable"], types: [], strict: true, noEmit: true, skipLibCheck: false, esModuleInterop: true },
      files,
    }),
  );
  await run(rootBin("tsc"), ["-p", config], { cwd: dir }).catch((error) => {
    throw new Error(`${error.stdout}${error.stderr}`.trim().split("\n").slice(0, 5).join(" | "));
  });
  return `typescript ${(await run(rootBin("tsc"), ["--version"])).stdout.trim().replace("Version ", "")}`;
}

/** A static file server on 127.0.0.1 (for Deno's URL import and the browser page). */
async function staticServer(dir) {
  const types = { ".ts": "application/typescript", ".js": "text/javascript", ".html": "text/html" };
  const server = createServer((request, response) => {
    try {
      const path = join(dir, decodeURIComponent(new URL(request.url, "http://x").pathname));
      if (!path.startsWith(dir)) throw new Error("outside");
      const body = readFileSync(path);
      response.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

async function denoCheck() {
  const source = await staticServer(join(root, "src"));
  const denoEnv = { ...process.env, DENO_DIR: join(work, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  const byURL = join(work, "deno-by-url.ts");
  writeFileSync(byURL, readFileSync(join(fixtures, "deno/by-url.ts"), "utf8").replace("SOURCE_URL", source));
  const built = join(work, "deno-built.ts");
  writeFileSync(built, readFileSync(join(fixtures, "deno/built.ts"), "utf8").replace("DIST_PATH", join(root, "dist/index.js")));
  const sourceHost = new URL(source).host;
  const gatewayHost = new URL(gateway.url).host;
  await run(suiteBin("deno"), ["check", "--no-lock", `--allow-import=${sourceHost}`, byURL], { env: denoEnv });
  // The narrowest permissions: import from the source host, talk to the gateway, nothing else
  // (no env access either: the SDK must not crash without it).
  const endpoints = { endpoints: true };
  expectReply((await run(suiteBin("deno"), ["run", "--no-lock", "--no-prompt", `--allow-import=${sourceHost}`, `--allow-net=${gatewayHost}`, byURL, gateway.url, MOCK_API_KEY], { env: denoEnv })).stdout, endpoints);
  expectReply((await run(suiteBin("deno"), ["run", "--no-lock", "--no-prompt", `--allow-net=${gatewayHost}`, built, gateway.url, MOCK_API_KEY], { env: denoEnv })).stdout, endpoints);
  // The npm package as Deno resolves it from a project's node_modules (the Node ESM consumer).
  expectReply((await run(suiteBin("deno"), ["run", "--no-lock", "--no-prompt", `--allow-net=${gatewayHost}`, "--allow-read=.", "esm.mjs", gateway.url, MOCK_API_KEY], { cwd: esmDir, env: denoEnv })).stdout, endpoints);
  // The README's Deno program, both ways it says: by path, from a clone beside the program (a
  // link to this checkout), and by URL, its import mapped onto the source server.
  const readmeDir = join(work, "deno-readme");
  mkdirSync(join(readmeDir, "app"), { recursive: true });
  symlinkSync(root, join(readmeDir, "modelgate"), "dir");
  const readmeEnv = { ...denoEnv, MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: MOCK_API_KEY };
  for (const block of readmeBlocksFor("deno")) {
    const specifier = block.code.match(/from "(\.\.\/modelgate\/src\/)index\.ts"/)?.[1];
    if (!specifier) throw new Error(`README.md:${block.line}: no import of ../modelgate/src/index.ts`);
    const program = join(readmeDir, "app", `readme-${block.line}.ts`);
    const importMap = join(readmeDir, "app", `readme-${block.line}.json`);
    writeFileSync(program, block.code);
    writeFileSync(importMap, JSON.stringify({ imports: { [specifier]: `${source}/` } }));
    const byURL = ["--no-lock", `--import-map=${importMap}`, `--allow-import=${sourceHost}`];
    for (const flags of [["--no-lock"], byURL]) {
      await run(suiteBin("deno"), ["check", ...flags, program], { env: denoEnv });
      const { stdout } = await run(suiteBin("deno"), ["run", "--no-prompt", ...flags, `--allow-net=${gatewayHost}`, "--allow-env=MODELGATE_API_KEY,MODELGATE_BASE_URL", program], { env: readmeEnv });
      if (stdout.trim() !== REPLY) throw new Error(`README.md:${block.line} (${flags.length > 1 ? "by URL" : "by path"}) printed ${JSON.stringify(stdout)}`);
    }
  }
  // examples/deno.ts from the TypeScript source, offline against its built-in mock gateway.
  const offline = { ...denoEnv, MODELGATE_BASE_URL: "", MODELGATE_API_KEY: "", MOCK_CHUNK_DELAY_MS: "0" };
  const example = ["run", "--no-lock", "--no-prompt", "--allow-env=MODELGATE_BASE_URL,MODELGATE_API_KEY", join(root, "examples/deno.ts")];
  const { stdout: greeting } = await run(suiteBin("deno"), example, { cwd: root, env: offline });
  if (!greeting.includes('You asked: "Greet Deno in one sentence."')) throw new Error(`examples/deno.ts printed ${JSON.stringify(greeting)}`);
  return (await run(suiteBin("deno"), ["--version"], { env: denoEnv })).stdout.split(" (")[0];
}

/**
 * The tracing channel and `modelgate/otel` where the runtime has `diagnostics_channel`: Node
 * (ESM and CJS), Bun and Deno, each from the installed tarball. `@opentelemetry/api` is an
 * optional peer dependency, so the consumers get it (and the SDK's in-memory exporter) copied
 * from the repository's own install.
 */
async function otelCheck() {
  for (const dir of [esmDir, cjsDir]) {
    cpSync(join(root, "node_modules/@opentelemetry"), join(dir, "node_modules/@opentelemetry"), { recursive: true });
    cpSync(join(fixtures, "otel"), dir, { recursive: true });
  }
  const expectSpan = (stdout, runtime) => {
    const { streamed, events, spans } = JSON.parse(stdout.trim().split("\n").at(-1));
    const span = spans[0];
    const ok = streamed === REPLY && events.join() === "start,end,asyncStart,asyncEnd" && spans.length === 1 && span.name === "chat auto" && span.kind === 2 && span.attempts === 1 && typeof span.model === "string";
    if (!ok) throw new Error(`${runtime} published ${JSON.stringify({ streamed, events, spans })}`);
  };
  const args = [gateway.url, MOCK_API_KEY];
  expectSpan((await run(process.execPath, ["otel.mjs", ...args], { cwd: esmDir })).stdout, "node ESM");
  expectSpan((await run(process.execPath, ["otel.cjs", ...args], { cwd: cjsDir })).stdout, "node CJS");
  expectSpan((await run(suiteBin("bun"), ["otel.mjs", ...args], { cwd: esmDir })).stdout, "bun");
  const denoEnv = { ...process.env, DENO_DIR: join(work, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  const gatewayHost = new URL(gateway.url).host;
  expectSpan((await run(suiteBin("deno"), ["run", "--no-lock", "--no-prompt", `--allow-net=${gatewayHost}`, "--allow-read=.", "--allow-env", "otel.mjs", ...args], { cwd: esmDir, env: denoEnv })).stdout, "deno");
  return "node ESM, node CJS, bun, deno";
}

/** The mock gateway served by Bun.serve and Deno.serve, the handler passed as it is. */
async function serveChecks() {
  cpSync(join(fixtures, "serve/bun.mjs"), join(esmDir, "serve-bun.mjs"));
  expectReply((await run(suiteBin("bun"), ["serve-bun.mjs", REPLY], { cwd: esmDir })).stdout);
  const script = join(work, "serve-deno.ts");
  writeFileSync(script, readFileSync(join(fixtures, "serve/deno.ts"), "utf8").replaceAll("DIST_PATH", join(root, "dist")));
  const denoEnv = { ...process.env, DENO_DIR: join(work, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  expectReply((await run(suiteBin("deno"), ["run", "--no-lock", "--no-prompt", "--allow-net=127.0.0.1", script, REPLY], { env: denoEnv })).stdout);
  return "Bun.serve, Deno.serve";
}

async function browserCheck() {
  const page = join(work, "browser");
  cpSync(join(root, "examples/browser/index.html"), join(page, "index.html"));
  const { build } = await import("esbuild");
  await build({ entryPoints: [join(root, "examples/browser/main.ts")], bundle: true, format: "esm", target: "es2022", outfile: join(page, "main.js"), alias: { modelgate: join(root, "dist/index.js") }, logLevel: "silent" });
  const site = await staticServer(page);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  cleanups.push(() => browser.close());
  const tab = await browser.newPage();
  const query = `baseURL=${encodeURIComponent(gateway.url)}&apiKey=${MOCK_API_KEY}`;
  await tab.goto(`${site}/index.html?${query}`);
  await tab.waitForFunction(() => document.querySelector("#status")?.textContent !== "loading…", null, { timeout: 20_000 });
  const status = await tab.textContent("#status");
  const text = await tab.textContent("#output");
  if (status !== "done" || text !== REPLY) throw new Error(`page shows ${JSON.stringify({ status, text })}`);
  await tab.goto(`${site}/index.html?${query}&guard=1`);
  await tab.waitForFunction(() => document.querySelector("#status")?.textContent !== "loading…", null, { timeout: 20_000 });
  const guard = await tab.textContent("#status");
  if (!guard?.includes("dangerouslyAllowBrowser")) throw new Error(`browser guard did not show: ${guard}`);
  await endpointsPage(browser, build);
  await readmeBrowserPages(browser, build);
  return `chromium ${browser.version()}`;
}

/** The suite's own page of the endpoints beside chat (test/runtimes/fixtures/browser/), calling the gateway across origins. */
async function endpointsPage(browser, build) {
  const page = join(work, "browser-endpoints");
  cpSync(join(fixtures, "browser/endpoints.html"), join(page, "endpoints.html"));
  await build({ entryPoints: [join(fixtures, "browser/endpoints.ts")], bundle: true, format: "esm", target: "es2022", outfile: join(page, "endpoints.js"), alias: { modelgate: join(root, "dist/index.js") }, logLevel: "silent" });
  const site = await staticServer(page);
  const tab = await browser.newPage();
  await tab.goto(`${site}/endpoints.html?baseURL=${encodeURIComponent(gateway.url)}&apiKey=${MOCK_API_KEY}`);
  await tab.waitForFunction(() => document.querySelector("#result")?.textContent !== "", null, { timeout: 20_000 });
  const shown = await tab.textContent("#result");
  if (!shown?.startsWith("{")) throw new Error(`the endpoints page shows ${shown}`);
  expectEndpoints(JSON.parse(shown));
  await tab.close();
}

/**
 * Each README browser program, bundled as a page whose origin also serves the README's route
 * at POST /api/chat (the server half of the server-to-browser bridge); each must show REPLY.
 */
async function readmeBrowserPages(browser, build) {
  const [route] = readmeBlocksFor("route");
  const routeDir = join(work, "readme-route");
  mkdirSync(routeDir, { recursive: true });
  writeFileSync(join(routeDir, "route.ts"), route.code);
  await build({ entryPoints: [join(routeDir, "route.ts")], bundle: true, format: "esm", platform: "node", target: "node20", outfile: join(routeDir, "route.mjs"), alias: { modelgate: join(root, "dist/index.js") }, logLevel: "silent" });
  // The route builds its client when loaded, from the environment, as in a server.
  Object.assign(process.env, { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: MOCK_API_KEY });
  const { POST } = await import(join(routeDir, "route.mjs"));
  const { serveNode } = await import(join(root, "dist/testing/node.js"));

  for (const block of readmeBlocksFor("browser")) {
    const page = join(work, `readme-browser-${block.line}`);
    mkdirSync(page, { recursive: true });
    writeFileSync(join(page, "main.ts"), block.code);
    writeFileSync(join(page, "index.html"), '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>');
    await build({ entryPoints: [join(page, "main.ts")], bundle: true, format: "esm", target: "es2022", outfile: join(page, "main.js"), alias: { modelgate: join(root, "dist/index.js") }, logLevel: "silent" });
    const site = await serveNode(async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/api/chat" && request.method === "POST") return POST(request);
      const file = { "/index.html": ["index.html", "text/html"], "/main.js": ["main.js", "text/javascript"] }[pathname];
      return file ? new Response(readFileSync(join(page, file[0])), { headers: { "content-type": file[1] } }) : new Response(null, { status: 404 });
    });
    cleanups.push(() => site.close());
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(`${site.url}/index.html?baseURL=${encodeURIComponent(gateway.url)}&apiKey=${MOCK_API_KEY}`);
    const shown = await tab
      .waitForFunction((reply) => document.body.innerText.trim() === reply, REPLY, { timeout: 20_000 })
      .then(() => true, () => false);
    if (!shown) throw new Error(`README.md:${block.line} page shows ${JSON.stringify(await tab.evaluate(() => document.body.innerText))} ${errors.join("; ")}`);
    await tab.close();
  }
}

async function workerdCheck() {
  const dir = join(work, "workerd");
  const { build } = await import("esbuild");
  const [block] = readmeBlocksFor("workerd");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "readme-worker.mjs"), block.code);
  // The README's worker, and the suite's own worker of the endpoints beside chat.
  const workers = [
    { name: "readme", entry: join(dir, "readme-worker.mjs"), port: await freePort() },
    { name: "endpoints", entry: join(fixtures, "workerd/endpoints.mjs"), port: await freePort() },
  ];
  for (const worker of workers) {
    await build({ entryPoints: [worker.entry], bundle: true, format: "esm", target: "es2022", platform: "neutral", outfile: join(dir, `${worker.name}.js`), alias: { modelgate: join(root, "dist/index.js") }, logLevel: "silent" });
  }
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
${workers.map((worker) => `    (name = "${worker.name}", worker = .${worker.name}Worker),`).join("\n")}
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [
${workers.map((worker) => `    (name = "${worker.name}", address = "127.0.0.1:${worker.port}", http = (), service = "${worker.name}"),`).join("\n")}
  ],
);
${workers
  .map(
    (worker) => `const ${worker.name}Worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${worker.name}.js") ],
  compatibilityDate = "2025-01-01",
  bindings = [
    (name = "MODELGATE_BASE_URL", text = "${gateway.url}"),
    (name = "MODELGATE_API_KEY", text = "${MOCK_API_KEY}"),
  ],
  globalOutbound = "internet",
);`,
  )
  .join("\n")}
`,
  );
  const child = spawn(suiteBin("workerd"), ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (part) => (stderr += part));
  cleanups.push(() => child.kill());
  const answer = async (port, path) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        return await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
      } catch {
        if (child.exitCode !== null) throw new Error(`workerd exited: ${stderr.slice(0, 300)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`workerd did not answer on port ${port}: ${stderr.slice(0, 200)}`);
  };
  const body = await answer(workers[0].port, "/?q=hi");
  if (body !== REPLY) throw new Error(`README.md:${block.line} worker answered ${JSON.stringify(body)} ${stderr.slice(0, 200)}`);
  const endpoints = await answer(workers[1].port, "/");
  if (!endpoints.startsWith("{")) throw new Error(`the endpoints worker answered ${endpoints.slice(0, 300)}`);
  expectEndpoints(JSON.parse(endpoints));
  return (await run(suiteBin("workerd"), ["--version"])).stdout.trim();
}

async function lintCheck() {
  // The tarball packed above (`attw --pack .` would run npm pack again, and with it `prepare`).
  await run(suiteBin("attw"), [tarball, "--format", "ascii"], { cwd: root }).catch((error) => {
    throw new Error(`attw: ${`${error.stdout}`.trim().split("\n").slice(-6).join(" | ")}`);
  });
  const { stdout } = await run(suiteBin("publint"), ["--strict"], { cwd: root }).catch((error) => {
    throw new Error(`publint: ${`${error.stdout}${error.stderr}`.trim()}`);
  });
  if (/warning|error|suggestion/i.test(stdout) && !/All good/i.test(stdout)) throw new Error(`publint: ${stdout.trim()}`);
  const attwVersion = (await run(suiteBin("attw"), ["--version"])).stdout.match(/cli: (v[\d.]+)/)?.[1];
  const publintVersion = (await run(suiteBin("publint"), ["--version"])).stdout.trim().replace(/^publint,? */, "");
  return `attw ${attwVersion}, publint ${publintVersion}`;
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// --- run -----------------------------------------------------------------------------------
let failures = 0;
let passes = 0;
async function check(name, action) {
  try {
    console.log(`${name}: ok (${await action()})`);
    passes++;
  } catch (error) {
    failures++;
    console.log(`${name}: FAILED ${String(error?.message ?? error).split("\n").slice(0, 4).join(" | ")}`);
  }
}

await Promise.all([
  check("node ESM", () => nodeCheck("esm.mjs", esmDir)),
  check("node CJS", () => nodeCheck("cjs.cjs", cjsDir)),
  check("bun ESM", () => bunCheck("esm.mjs", esmDir)),
  check("bun CJS", () => bunCheck("cjs.cjs", cjsDir)),
]);
await check("npx modelgate mock, then the README's quick-start app.mjs against it (from the tarball)", () => mockCommandCheck({ root, app: esmDir }));
for (let i = 0; i < RESOLUTIONS.length; i += 2) {
  await Promise.all(RESOLUTIONS.slice(i, i + 2).map((resolution) => check(`typescript ${resolution.name}`, () => typescriptCheck(resolution))));
}
await check("deno (source by URL, built ESM by path, npm package, the README program, examples/deno.ts; embeddings and a transcription in the first three)", denoCheck);
await check("mock gateway served by Bun and Deno", serveChecks);
await check("JSR (deno publish --dry-run of jsr.json, offline)", () => jsrPublishCheck({ root, work, deno: suiteBin("deno") }));
await check("tracing channel and modelgate/otel (one span per call)", otelCheck);
await check("browser (chromium, bundled by esbuild: the example, the README pages and the endpoints page)", browserCheck);
await check("cloudflare workerd (the README worker and the endpoints worker)", workerdCheck);
await check("packaging lint (attw, publint)", lintCheck);
await check("install from source (prepare builds dist/ for a directory and a git install)", () => sourceInstallCheck({ root, work, reply: REPLY }));
await check("deno.lock unchanged by the checks", () => {
  if (readFileSync(join(root, "deno.lock"), "utf8") !== denoLock) throw new Error("a Deno run wrote to the tracked deno.lock (pass --no-lock)");
  return "no writes";
});

for (const cleanup of cleanups.reverse()) await cleanup();
console.log(`runtime checks took ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`runtimes: ${passes} passed, ${failures} failed`);
mkdirSync(join(root, ".tmp"), { recursive: true });
writeFileSync(join(root, ".tmp/runtimes-results.json"), JSON.stringify({ passed: passes, failed: failures }));
process.exit(failures === 0 ? 0 : 1);
