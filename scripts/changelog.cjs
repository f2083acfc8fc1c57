// The changelog generator `npx changeset version` uses (.changeset/config.json's `changelog`).
// Each changeset declares its kind by the first word of its summary (CONTRIBUTING.md,
// "Changesets"): `Breaking:`, `Added:`, `Changed:` or `Fixed:`; a breaking one also holds a
// paragraph that starts with `Migration:`. The release's entry is written as
//
//   ## 0.2.0
//
//   ### Breaking
//   - <summary>
//
//     Migration: <what to change>
//
//   ### Added / ### Changed / ### Fixed
//   - <summary>
//
// Changesets itself only asks a generator for one line per changeset and puts each under a
// heading of its semver bump ("### Minor Changes"), which it writes itself (the headings are
// fixed in @changesets/apply-release-plan: changesets/changesets#1807). So this module gives
// changesets those lines (a valid entry on its own), remembers each changeset, and when the
// `changeset version` process exits, rewrites that one entry of CHANGELOG.md into the kinds
// above. A changeset with no kind, a breaking one without its migration note or a breaking
// one bumped as a patch stops `changeset version` before it writes anything.
//
// Plain CommonJS with no dependency, so changesets can require() it on every Node it runs on.
"use strict";

const { existsSync, readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

/** The kinds, in the order of their headings. */
const KINDS = ["Breaking", "Added", "Changed", "Fixed"];

/**
 * Reads a changeset's summary: its kind, the text without the kind word, and for a breaking
 * one its migration note. Throws, naming the changeset, when the kind or the note is missing.
 */
function parseSummary(summary, id = "a changeset") {
  const text = summary.trim();
  const match = /^(Breaking|Added|Changed|Fixed):\s*/.exec(text);
  if (!match) {
    throw new Error(`.changeset/${id}.md declares no kind: its summary must start with one of ${KINDS.map((kind) => `"${kind}:"`).join(", ")} (CONTRIBUTING.md, "Changesets")`);
  }
  const kind = match[1];
  const body = text.slice(match[0].length);
  const migration = /(?:^|\n)\s*Migration:\s*([\s\S]+?)(?=\n\s*\n|$)/.exec(body);
  if (kind === "Breaking" && !migration) {
    throw new Error(`.changeset/${id}.md is breaking but has no "Migration:" paragraph saying what users change`);
  }
  return { kind, text: body, migration: migration ? migration[1].trim() : undefined };
}

/** One list item: the first line after "- ", the rest indented under it (as changesets does). */
function item(text, commit) {
  const [first, ...rest] = text.trim().split("\n");
  const prefix = commit ? `${commit.slice(0, 7)}: ` : "";
  return [`- ${prefix}${first}`, ...rest.map((line) => (line.trim() === "" ? "" : `  ${line}`))].join("\n");
}

/** The body of a release's entry (everything under its `## version` heading), by kind. */
function renderEntry(changesets) {
  const byKind = new Map(KINDS.map((kind) => [kind, []]));
  for (const changeset of changesets) {
    const { kind, text } = parseSummary(changeset.summary, changeset.id);
    byKind.get(kind).push(item(text, changeset.commit));
  }
  return KINDS.filter((kind) => byKind.get(kind).length > 0)
    .map((kind) => `### ${kind}\n\n${byKind.get(kind).join("\n")}\n`)
    .join("\n");
}

/** Replaces the body of `## version` in a CHANGELOG's text; the text as it was when there is no such entry. */
function replaceEntry(changelog, version, body) {
  const lines = changelog.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${version}`);
  if (start === -1) return changelog;
  let end = lines.findIndex((line, index) => index > start && /^## /.test(line));
  if (end === -1) end = lines.length;
  const after = lines.slice(end);
  return [...lines.slice(0, start + 1), "", ...body.trimEnd().split("\n"), ...(after.length > 0 ? ["", ...after] : [""])].join("\n");
}

// What this `changeset version` run handed over, for the rewrite at exit.
const seen = [];
let rewriteRegistered = false;

function registerRewrite(cwd) {
  if (rewriteRegistered) return;
  rewriteRegistered = true;
  process.once("exit", (code) => {
    if (code !== 0 || seen.length === 0) return;
    const changelogPath = join(cwd, "CHANGELOG.md");
    const packagePath = join(cwd, "package.json");
    if (!existsSync(changelogPath) || !existsSync(packagePath)) return;
    const { version } = JSON.parse(readFileSync(packagePath, "utf8"));
    const before = readFileSync(changelogPath, "utf8");
    const after = replaceEntry(before, version, renderEntry(seen));
    if (after !== before) writeFileSync(changelogPath, after);
  });
}

/** changesets' ChangelogFunctions: one line per changeset, under changesets' own headings until the rewrite. */
const changelogFunctions = {
  async getReleaseLine(changeset, type) {
    const { kind } = parseSummary(changeset.summary, changeset.id);
    if (kind === "Breaking" && type === "patch") {
      throw new Error(`.changeset/${changeset.id}.md is breaking but bumps a patch: make it "minor" while the version is 0.x, "major" from 1.0`);
    }
    seen.push(changeset);
    registerRewrite(process.cwd());
    return `${item(`**${kind}:** ${parseSummary(changeset.summary, changeset.id).text}`, changeset.commit)}\n`;
  },
  async getDependencyReleaseLine() {
    // modelgate has no dependencies of its own to release.
    return "";
  },
};

module.exports = { ...changelogFunctions, default: changelogFunctions, KINDS, parseSummary, renderEntry, replaceEntry };
