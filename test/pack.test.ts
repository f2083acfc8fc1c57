import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// What `npm publish` would upload, read from `npm pack --dry-run --json` (npm test builds
// dist/ first; --ignore-scripts, so this lists the files without building again), and the JSR
// config that publishes the same source.
const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

async function packedFiles(): Promise<string[]> {
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  return packed.files.map((file) => file.path).sort();
}

/** Every file package.json points a user at: main, module, types, exports, typesVersions, bin. */
function namedFiles(): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.startsWith("./")) found.add(value.slice(2));
    } else if (value && typeof value === "object") for (const inner of Object.values(value)) walk(inner);
  };
  walk([pkg.main, pkg.module, pkg.types, pkg.exports, pkg.typesVersions]);
  for (const file of Object.values(pkg.bin ?? {}) as string[]) found.add(file.replace(/^\.\//, ""));
  return [...found].filter((file) => !file.endsWith("*"));
}

describe("the packed package", () => {
  it("holds dist/, README, LICENSE, CHANGELOG and package.json, and nothing else", async () => {
    const files = await packedFiles();
    const outside = files.filter((file) => !file.startsWith("dist/"));
    expect(outside).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json"]);
    // No source, tests, bench, scratch files or source maps (the Deno URL import reads src/ from
    // the repository, and JSR publishes src/ itself: the npm package needs none of it).
    expect(files.filter((file) => /(^|\/)(src|test|bench|\.tmp|node_modules)\/|\.test\.|\.map$|\.tgz$/.test(file))).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("holds every file package.json names, the bin included", async () => {
    const files = new Set(await packedFiles());
    const named = namedFiles();
    expect(named).toContain("dist/testing/cli.js");
    expect(named.filter((file) => file !== "package.json" && !files.has(file))).toEqual([]);
  });

  it("runs no install script in an app (and packs without `prepare`, which only a git install needs)", async () => {
    for (const script of ["preinstall", "install", "postinstall"]) expect(pkg.scripts?.[script], script).toBeUndefined();
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.scripts.prepack).toMatch(/^npm run build && node scripts\/pack-manifest\.mjs strip$/);
    expect(pkg.scripts.postpack).toBe("node scripts/pack-manifest.mjs restore");
    // What prepack writes for the pack, then postpack puts back, on a copy of package.json.
    const dir = mkdtempSync(join(tmpdir(), "modelgate-pack-"));
    try {
      cpSync(join(root, "package.json"), join(dir, "package.json"));
      const script = join(root, "scripts/pack-manifest.mjs");
      await run(process.execPath, [script, "strip", "--dir", dir]);
      const packed = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(packed.scripts.prepare).toBeUndefined();
      expect({ ...packed, scripts: undefined }).toEqual({ ...pkg, scripts: undefined });
      await run(process.execPath, [script, "restore", "--dir", dir]);
      expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(readFileSync(join(root, "package.json"), "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("jsr.json", () => {
  const jsr = JSON.parse(readFileSync(join(root, "jsr.json"), "utf8"));

  it("publishes the same version as package.json and src/version.ts", () => {
    expect(jsr.version).toBe(pkg.version);
    expect(readFileSync(join(root, "src/version.ts"), "utf8")).toContain(`VERSION = "${pkg.version}"`);
  });

  it("maps the entry points to the TypeScript source", () => {
    expect(jsr.name).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/);
    expect(jsr.exports).toEqual({ ".": "./src/index.ts", "./testing": "./src/testing/index.ts", "./otel": "./src/otel/index.ts" });
    for (const file of Object.values(jsr.exports) as string[]) expect(() => readFileSync(join(root, file))).not.toThrow();
    // The one import that is not relative: the optional OpenTelemetry peer, by its npm name.
    expect(jsr.imports).toEqual({ "@opentelemetry/api": `npm:@opentelemetry/api@${pkg.peerDependencies["@opentelemetry/api"]}` });
  });
});
