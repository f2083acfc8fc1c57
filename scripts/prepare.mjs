// npm's `prepare` script, kept for one case only: a git dependency
// (`npm install git+https://…/modelgate.git`), where npm clones the repository, installs its
// devDependencies there and runs `prepare` before packing the clone — there is no other hook
// (`prepack` is not run for a git dependency: checked with npm 11.19, a git+file:// install of a
// package with only `prepack` gets no dist/). Publishing and `npm pack` build through `prepack`
// (`npm run build`, always a clean build), and the packed package.json has no `prepare`
// (scripts/pack-manifest.mjs), so a tarball's install lists no install script.
//
// npm also runs `prepare` for a directory dependency (`npm install ../modelgate`, linked) on
// *every* later `npm install` of the app. So it builds only when dist/ is missing or older than
// what it is built from (src/, the build's config and scripts, package.json), as make would:
// a built checkout costs the app's install nothing, a pulled one is rebuilt once.
//
// Skipped entirely in the repository's own `npm ci` / `npm install` (nothing in a checkout
// needs dist/ before `npm test` or `npm run build` builds it) and under `npm pack` / `npm publish`.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const env = process.env;

/** True when npm was started in this folder to install this folder's own dependencies. */
function isOwnInstall() {
  if (env.npm_command !== "ci" && env.npm_command !== "install") return false;
  try {
    return env.INIT_CWD !== undefined && realpathSync(env.INIT_CWD) === root;
  } catch {
    return false;
  }
}

/** The newest modification time among `paths` (files, or folders walked). */
function newest(paths) {
  let latest = 0;
  for (const path of paths) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) latest = Math.max(latest, newest(readdirSync(path).map((name) => join(path, name))));
    else latest = Math.max(latest, stat.mtimeMs);
  }
  return latest;
}

/** True when dist/ exists and was built after every input of the build last changed. */
function distIsCurrent(dir = root) {
  const built = statSync(join(dir, "dist/index.js"), { throwIfNoEntry: false });
  if (!built || !existsSync(join(dir, "dist/index.cjs"))) return false;
  const inputs = ["src", "package.json", "tsconfig.json", "tsup.config.ts", "scripts/write-namespace.mjs", "scripts/write-cjs-types.mjs"];
  return newest(inputs.map((input) => join(dir, input))) <= built.mtimeMs;
}

/** Runs npm with the given arguments in this folder, the same npm that runs this script where it can tell. */
function npm(args) {
  const execpath = env.npm_execpath ?? "";
  const [command, prefix] = /npm-cli\.c?js$/.test(execpath) ? [process.execPath, [execpath]] : ["npm", []];
  execFileSync(command, [...prefix, ...args], { cwd: root, stdio: "inherit", shell: command === "npm" && process.platform === "win32" });
}

if (isOwnInstall()) {
  console.log("modelgate prepare: the repository's own install, nothing to build (npm run build makes dist/)");
} else if (env.npm_command === "pack" || env.npm_command === "publish") {
  // `prepack` has just built dist/ (npm runs prepack, then prepare, which pack-manifest.mjs
  // normally removes for the pack).
} else if (distIsCurrent()) {
  console.log("modelgate prepare: dist/ is up to date, nothing to build");
} else {
  // What the build runs (tsup.config.ts, scripts/write-cjs-types.mjs). A directory installed
  // as a dependency has none of them unless its owner ran `npm ci` there.
  const tools = ["tsup", "typescript", "esbuild"];
  if (!tools.every((tool) => existsSync(join(root, "node_modules", tool, "package.json")))) {
    console.log("modelgate prepare: installing the build tools (npm ci, devDependencies included)");
    // --ignore-scripts: the build needs none of the tools' install scripts (esbuild finds its
    // binary package without its postinstall), and an app installing with
    // --strict-allow-scripts (npm 12's way) would otherwise refuse them.
    npm(["ci", "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"]);
  }
  npm(["run", "build", "--silent"]);
}
