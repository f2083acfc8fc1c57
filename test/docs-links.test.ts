import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every relative link of the repository's own Markdown (the README, CONTRIBUTING, SECURITY,
// the CHANGELOG, bench/README and everything under docs/, the generated reference included)
// points at a file or folder that exists, and a `#fragment` into a Markdown file at one of its
// headings, as GitHub makes their anchors.
const root = join(import.meta.dirname, "..");

const markdownUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
const FILES = ["README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "bench/README.md", ...markdownUnder("docs")].filter((file) => existsSync(join(root, file)));

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of a Markdown file's headings, outside code fences; a repeated heading gets `-1`, `-2`, … */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative links of a Markdown text, outside code fences and inline code. */
function linksOf(text: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    for (const [, target] of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/^[a-z][a-z+.-]*:/i.test(target!)) links.push(target!);
    }
  }
  return links;
}

describe("relative links in the repository's Markdown", () => {
  it("finds the files to check, docs/ and its reference among them", () => {
    expect(FILES).toContain("docs/migration.md");
    expect(FILES.filter((file) => file.startsWith("docs/api/")).length).toBeGreaterThan(50);
  });

  it.each(FILES)("%s: every relative link resolves", (file) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(root, file), "utf8"))) {
      const [path, fragment] = link.split("#") as [string, string | undefined];
      const target = path === "" ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (fragment && target.endsWith(".md") && statSync(target).isFile() && !anchorsOf(readFileSync(target, "utf8")).has(fragment.toLowerCase())) {
        broken.push(`${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  // The CHANGELOG tells what was, where it was then; the rest describes the code as it is.
  it.each(FILES.filter((file) => file !== "CHANGELOG.md"))("%s: every src/ file named in code quotes exists", (file) => {
    const named = [...readFileSync(join(root, file), "utf8").matchAll(/`(src\/[\w./-]+\.ts)`/g)].map(([, path]) => path!);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
