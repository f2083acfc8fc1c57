// Installing the package from source, as `npm install github:owner/modelgate` and
// `npm install ../modelgate` do: npm runs the `prepare` script (scripts/prepare.mjs), which
// must leave a working package with dist/, and must not build it again on a later install. Each form starts from an unbuilt copy of this
// checkout (no dist/, no node_modules), is installed into a scratch app, and the app imports
// the package in ESM and CommonJS and makes one call with the mock gateway as its `fetch`.
// Nothing here needs the network beyond npm's cache: every install is --prefer-offline, the
// build tools come from the lockfile, and the git form clones a local repository.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock"];
const GIT = ["-c", "user.name=modelgate", "-c", "user.email=runtimes@modelgate.invalid", "-c", "commit.gpgsign=false"];

/** Copies the files of `root` that git would commit (tracked, or new and not ignored): a checkout with no dist/ and no node_modules. */
async function unbuiltCopy(root, dir) {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const files = stdout.split("\0").filter((file) => file !== "" && !file.startsWith("dist/") && !file.includes("node_modules/"));
  for (const file of files) {
    try {
      cpSync(join(root, file), join(dir, file));
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the checkout being copied.
      if (error?.code !== "ENOENT") throw error;
    }
  }
}

const ESM = `import ModelGate from "modelgate";
import { createMockGateway, MOCK_API_KEY } from "modelgate/testing";
const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.modelgate.invalid", fetch: createMockGateway({ reply: process.argv[2] }) });
const completion = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] });
console.log(JSON.stringify({ format: "esm", content: completion.choices[0].message.content }));
`;
const CJS = `const { ModelGate } = require("modelgate");
const { createMockGateway, MOCK_API_KEY } = require("modelgate/testing");
const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.modelgate.invalid", fetch: createMockGateway({ reply: process.argv[2] }) });
client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] }).then((completion) => {
  console.log(JSON.stringify({ format: "cjs", content: completion.choices[0].message.content }));
});
`;

/** A scratch app that installs `spec` with `flags`, then runs the two programs; throws unless both print `reply`. */
async function installAndCall(app, spec, flags, reply) {
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", private: true }));
  writeFileSync(join(app, "esm.mjs"), ESM);
  writeFileSync(join(app, "cjs.cjs"), CJS);
  await run("npm", ["install", ...NPM_FLAGS, ...flags, spec], { cwd: app, maxBuffer: 64 * 1024 * 1024 }).catch((error) => {
    throw new Error(`npm install ${[...flags, spec].join(" ")}: ${`${error.stderr}`.trim().split("\n").slice(-4).join(" | ")}`);
  });
  const form = `npm install ${[...flags, spec].join(" ")}`;
  for (const program of ["esm.mjs", "cjs.cjs"]) {
    const { stdout } = await run(process.execPath, [program, reply], { cwd: app }).catch((error) => {
      // The line that names the failure (ERR_MODULE_NOT_FOUND when dist/ was not built).
      const reason = `${error.stderr}`.split("\n").find((line) => /Error/.test(line) && !/^\s+at /.test(line));
      throw new Error(`after ${form}, ${program} failed: ${reason ?? error.message}`);
    });
    const { content } = JSON.parse(stdout.trim().split("\n").at(-1));
    if (content !== reply) throw new Error(`after ${form}, ${program} got ${JSON.stringify(content)}`);
  }
}

/**
 * Installs unbuilt copies of `root` from a directory (linked, npm's default) and from a git
 * repository (`git+file://`, the path `github:` takes), each into its own app; returns what ran.
 */
export async function sourceInstallCheck({ root, work, reply }) {
  const base = join(work, "source-install");
  const checkout = join(base, "checkout");
  const repo = join(base, "repo");
  await Promise.all([unbuiltCopy(root, checkout), unbuiltCopy(root, repo)]);
  await run("git", ["init", "-q"], { cwd: repo });
  await run("git", ["add", "-A"], { cwd: repo });
  await run("git", [...GIT, "commit", "-q", "-m", "an unbuilt checkout"], { cwd: repo });
  // One at a time: each runs an install and a build, which share the machine's cores.
  await installAndCall(join(base, "app-dir"), checkout, [], reply);
  // npm runs a linked directory's `prepare` on every later install of the app: with dist/ built
  // and its sources unchanged it must not build again (scripts/prepare.mjs compares times).
  const builtAt = statSync(join(checkout, "dist/index.js")).mtimeMs;
  const started = Date.now();
  await run("npm", ["install", ...NPM_FLAGS], { cwd: join(base, "app-dir") });
  const again = Date.now() - started;
  if (statSync(join(checkout, "dist/index.js")).mtimeMs !== builtAt) throw new Error("a second npm install of the app rebuilt the linked directory's dist/");
  await installAndCall(join(base, "app-git"), `git+file://${repo}`, [], reply);
  const { stdout } = await run("npm", ["--version"]);
  return `npm ${stdout.trim()}: npm install <unbuilt dir> (a later install did not rebuild: ${(again / 1000).toFixed(1)} s), npm install git+file://<unbuilt repo>; ESM and CJS each made a call`;
}
