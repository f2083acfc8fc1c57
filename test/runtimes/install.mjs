// The runtime suite's own install: Bun, Deno, workerd, the Chromium driver and the packaging
// linters live in test/runtimes/node_modules, from test/runtimes/package-lock.json, so that the
// repository's `npm ci` (building, unit tests, examples) does not download ~400 MB of runtimes
// a newcomer never runs. `npm run test:runtimes` calls this first; it runs `npm ci` here only
// when the folder was never installed or its package.json or lockfile changed since.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
/** This folder (test/runtimes/), which has its own package.json. */
export const suite = fileURLToPath(new URL(".", import.meta.url));
// Written after a successful `npm ci`, inside node_modules so that `npm ci` (which empties the
// folder first) can never leave a stale one behind.
const stamp = join(suite, "node_modules/.modelgate-runtime-suite");

/** The path of an executable installed in this folder (`bun`, `deno`, `workerd`, `attw`, `publint`). */
export const suiteBin = (name) => join(suite, "node_modules/.bin", name);

/** Installs this folder's dependencies unless the installed ones match package.json and the lockfile; says which it did. */
export async function installRuntimes() {
  const wanted = createHash("sha256")
    .update(readFileSync(join(suite, "package.json")))
    .update(readFileSync(join(suite, "package-lock.json")))
    .digest("hex");
  let installed = "";
  try {
    installed = readFileSync(stamp, "utf8");
  } catch {
    // Never installed (or emptied): install below.
  }
  if (installed === wanted) return "up to date";
  await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: suite });
  writeFileSync(stamp, wanted);
  return "installed with npm ci";
}
