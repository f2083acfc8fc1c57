import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The changelog generator `npx changeset version` runs (scripts/changelog.cjs), over the
// changesets waiting in .changeset/: each must declare its kind, each breaking one must say how
// to migrate, so that the release's entry can be written under Breaking / Added / Changed / Fixed.
const root = join(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const generator = require("../scripts/changelog.cjs") as {
  KINDS: string[];
  parseSummary(summary: string, id?: string): { kind: string; text: string; migration?: string };
  renderEntry(changesets: { id: string; summary: string; commit?: string }[]): string;
  replaceEntry(changelog: string, version: string, body: string): string;
  getReleaseLine(changeset: { id: string; summary: string; releases: unknown[] }, type: string): Promise<string>;
};

/** The pending changesets, read as changesets reads them: the front matter, then the summary. */
const pending = readdirSync(join(root, ".changeset"))
  .filter((file) => file.endsWith(".md") && file !== "README.md")
  .map((file) => {
    const text = readFileSync(join(root, ".changeset", file), "utf8");
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    if (!match) throw new Error(`.changeset/${file} has no front matter`);
    return { id: file.slice(0, -".md".length), bump: /"modelgate":\s*(\w+)/.exec(match[1] as string)?.[1], summary: (match[2] as string).trim() };
  });

describe("the pending changesets", () => {
  it("are there to read", () => {
    expect(pending.length).toBeGreaterThan(50);
  });

  it.each(pending.map((changeset) => [changeset.id, changeset] as const))("%s declares its kind, and a migration when breaking", (_id, changeset) => {
    const { kind, text, migration } = generator.parseSummary(changeset.summary, changeset.id);
    expect(generator.KINDS).toContain(kind);
    expect(text.length).toBeGreaterThan(20);
    expect(["major", "minor", "patch"]).toContain(changeset.bump);
    if (kind === "Breaking") {
      expect(migration, "a breaking changeset says what users change").toMatch(/\S{10,}/);
      expect(changeset.bump, "a breaking change is not a patch").not.toBe("patch");
    }
  });

  it("render into one entry with Breaking, Added and Fixed headings, each change once, in kind order", () => {
    const body = generator.renderEntry(pending.map((changeset) => ({ ...changeset, commit: "0123456789abcdef" })));
    const headings = body.match(/^### .*/gm);
    expect(headings).toEqual(["### Breaking", "### Added", "### Changed", "### Fixed"]);
    expect(body.match(/^- 0123456: /gm)).toHaveLength(pending.length);
    const breaking = body.slice(0, body.indexOf("### Added"));
    expect(breaking.match(/^ {2}Migration: /gm)).toHaveLength(pending.filter((changeset) => changeset.summary.startsWith("Breaking:")).length);
    // Stale figures of the last entry stay out of the next one.
    expect(body).not.toMatch(/10-model|3\.2–3\.3×/);
  });
});

describe("the generator", () => {
  it("refuses a changeset with no kind, or a breaking one with no migration or bumped as a patch", async () => {
    expect(() => generator.parseSummary("Something changed.", "vague")).toThrow(/\.changeset\/vague\.md declares no kind/);
    expect(() => generator.parseSummary("Breaking: `foo` is gone.", "gone")).toThrow(/no "Migration:" paragraph/);
    expect(generator.parseSummary("Breaking: `foo` is gone.\n\nMigration: call `bar`.").migration).toBe("call `bar`.");
    await expect(generator.getReleaseLine({ id: "sneaky", summary: "Breaking: x.\n\nMigration: y.", releases: [] }, "patch")).rejects.toThrow(/bumps a patch/);
  });

  it("rewrites only the new version's entry of a CHANGELOG", () => {
    const before = "# modelgate\n\n## 0.2.0\n\n### Minor Changes\n\n- abc: Added: x\n\n## 0.1.0\n\n### Minor Changes\n\n- old\n";
    const after = generator.replaceEntry(before, "0.2.0", "### Added\n\n- abc: x\n");
    expect(after).toBe("# modelgate\n\n## 0.2.0\n\n### Added\n\n- abc: x\n\n## 0.1.0\n\n### Minor Changes\n\n- old\n");
    expect(generator.replaceEntry(before, "9.9.9", "### Added\n")).toBe(before);
  });
});

describe("CHANGELOG.md", () => {
  it("carries none of the stale figures (the 10-model catalogue, 3.2–3.3× openai)", () => {
    expect(readFileSync(join(root, "CHANGELOG.md"), "utf8")).not.toMatch(/10-model|3\.2–3\.3×/);
  });
});
