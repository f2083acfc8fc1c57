// npm's `prepare` script: builds dist/ when this package is installed from source, so that
// `npm install github:owner/modelgate` and `npm install ../a/modelgate/checkout` give a working
// package as the registry's tarball does. npm runs `prepare` in these cases (checked with npm
// 11, see the runtime suite's "install from source" check):
//   - a git dependency: npm clones it, installs its devDependencies there (running `prepare`
//     once as that clone's own install, skipped below), then runs `prepare` and packs;
//   - a directory, linked (`npm install <dir>`) or packed (`npm install --install-links <dir>`):
//     npm runs `prepare` in that directory but installs none of its dependencies, so the build
//     tools are installed here first, from the lockfile;
//   - `npm pack` and `npm publish`, before packing;
//   - the repository's own `npm ci` / `npm install`: skipped, because nothing in a checkout
//     needs dist/ before `npm test` or `npm run build` builds it, and a newcomer's
//     `npm ci && npm run example` should not wait for a build it does not use.
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
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

/** Runs npm with the given arguments in this folder, the same npm that runs this script where it can tell. */
function npm(args) {
  const execpath = env.npm_execpath ?? "";
  const [command, prefix] = /npm-cli\.c?js$/.test(execpath) ? [process.execPath, [execpath]] : ["npm", []];
  execFileSync(command, [...prefix, ...args], { cwd: root, stdio: "inherit", shell: command === "npm" && process.platform === "win32" });
}

if (isOwnInstall()) {
  console.log("modelgate prepare: the repository's own install, nothing to build (npm run build makes dist/)");
} else {
  // What the build runs (tsup.config.ts, scripts/write-cjs-types.mjs). A directory installed
  // as a dependency has none of them unless its owner ran `npm ci` there.
  const tools = ["tsup", "typescript", "esbuild"];
  if (!tools.every((tool) => existsSync(join(root, "node_modules", tool, "package.json")))) {
    console.log("modelgate prepare: installing the build tools (npm ci, devDependencies included)");
    // --ignore-scripts: the build needs none of the tools' install scripts (esbuild finds its
    // binary package without its postinstall), and an app installing with
    // --strict-allow-scripts (npm 12's way) would otherwise refuse them, as this checkout
    // approves none.
    npm(["ci", "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"]);
  }
  npm(["run", "build", "--silent"]);
}
