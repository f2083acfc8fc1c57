// Adds lockfile entries for other platforms' optional binary packages (bun, deno, rollup,
// workerd ship one package per OS and CPU) that this project's npm mirror does not serve, so
// that `npm install` here leaves them out of a package-lock.json and `npm ci` then refuses the
// lockfile everywhere else. Each entry records only the version and the platform (inferred
// from the package name), which is all `npm ci` needs to skip it on other platforms or fetch
// it by version where the public registry has it. Two lockfiles: the repository's own, and the
// runtime suite's (test/runtimes/, where Bun, Deno and workerd live). Run after changing
// devDependencies in either:
//   npm install && (cd test/runtimes && npm install) && node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const LOCKFILES = ["../package-lock.json", "../test/runtimes/package-lock.json"];
const OS = { darwin: "darwin", linux: "linux", win32: "win32", windows: "win32", android: "android", freebsd: "freebsd", openbsd: "openbsd", openharmony: "openharmony" };
const CPU = { aarch64: "arm64", arm64: "arm64", x64: "x64", 64: "x64", arm: "arm", ia32: "ia32", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x" };

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.map((part) => OS[part]).find(Boolean);
  const cpu = parts.map((part) => CPU[part]).find(Boolean);
  const libc = parts.some((part) => part === "musl" || part === "musleabihf") ? "musl" : parts.some((part) => part === "gnu" || part === "glibc" || part === "gnueabihf") ? "glibc" : undefined;
  return { os, cpu, libc };
}

/** Completes one lockfile in place; returns how many entries it added. */
function complete(file) {
  const lock = JSON.parse(readFileSync(file, "utf8"));
  let added = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const key = `node_modules/${name}`;
      if (lock.packages[key]) continue;
      const { os, cpu, libc } = platformOf(name);
      if (!os || !cpu) throw new Error(`cannot tell the platform of ${name} (optional dependency of ${path} in ${file.pathname})`);
      lock.packages[key] = { version, cpu: [cpu], os: [os], ...(libc ? { libc: [libc] } : {}), dev: entry.dev, optional: true };
      added++;
    }
  }
  const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
  writeFileSync(file, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
  return added;
}

for (const path of LOCKFILES) {
  const file = new URL(path, import.meta.url);
  console.log(`${path.slice(3)}: ${complete(file)} platform entries added`);
}
