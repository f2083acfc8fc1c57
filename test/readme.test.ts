import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// README code blocks marked `<!-- snippet: path -->` must appear verbatim in that file, which
// an example test or a unit test runs: the README cannot drift from code that works.
const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map(([, file, code]) => ({ file: file!, code: code! }));
const normalise = (text: string) => text.split("\n").map((line) => line.trim()).filter(Boolean).join("\n");

describe("README snippets", () => {
  it("has snippets to check", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(8);
  });

  it.each(snippets.map((snippet) => [snippet.file, snippet.code]))("mirrors %s verbatim", (file, code) => {
    const source = normalise(readFileSync(join(root, file), "utf8"));
    expect(source).toContain(normalise(code));
  });

  it("names only test commands and examples that exist in package.json", () => {
    const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>;
    for (const [, script] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(scripts, script).toHaveProperty(script!);
    expect(readme).toContain("npm ci && npm run example");
    expect(readme).toContain("npm test");
  });
});
