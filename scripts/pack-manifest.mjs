// Run by `prepack` (`strip`) and `postpack` (`restore`): the packed package.json carries no
// `prepare` script. `prepare` is only for an install from git (scripts/prepare.mjs); in a
// tarball it never runs, yet npm 11 lists a tarball's `prepare` as an install script "not yet
// covered by allowScripts" in every app that installs the file (`npm install ./modelgate-x.y.z.tgz`),
// a warning about nothing. npm packs the package.json on disk after `prepack`, so `strip` writes
// it without the script, keeping the original in .tmp/, and `restore` puts the original back
// (run by hand, `node scripts/pack-manifest.mjs restore`, after a pack that failed half way).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dirFlag = process.argv.indexOf("--dir");
const root = dirFlag > 0 ? process.argv[dirFlag + 1] : fileURLToPath(new URL("..", import.meta.url));
const manifest = join(root, "package.json");
const kept = join(root, ".tmp/package.json.before-pack");

const mode = process.argv[2];
if (mode === "strip") {
  const text = readFileSync(manifest, "utf8");
  const pkg = JSON.parse(text);
  if (pkg.scripts?.prepare !== undefined) {
    mkdirSync(join(root, ".tmp"), { recursive: true });
    if (!existsSync(kept)) writeFileSync(kept, text);
    delete pkg.scripts.prepare;
    writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  }
} else if (mode === "restore") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore [--dir <package folder>]");
  process.exitCode = 2;
}
