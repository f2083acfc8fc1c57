// The code blocks of README.md that are programs, for test/readme.test.ts (Node) and
// test/runtimes/run.mjs (every other runtime): both read the same text the reader sees.

/**
 * Where a block runs. A block runs in Node unless an HTML comment on the line before it says
 * otherwise: `route` is a module exporting `POST(request: Request): Promise<Response>` (run in
 * Node by the README test, and behind the browser page by the runtime suite); `browser`,
 * `deno` and `workerd` run in `npm run test:runtimes`.
 */
export const RUNTIMES = ["node", "route", "browser", "deno", "workerd"];

/** Every ```ts and ```js block, in order, with where it runs and the line it starts on. */
export function readmeBlocks(readme) {
  const blocks = [];
  for (const match of readme.matchAll(/(?:<!-- runs: ([\w-]+) -->\n)?```(ts|js)\n([\s\S]*?)```/g)) {
    const fence = match.index + match[0].indexOf("```");
    const line = readme.slice(0, fence).split("\n").length + 1;
    blocks.push({ runs: match[1] ?? "node", lang: match[2], code: match[3], line });
  }
  return blocks;
}

/** The language of every fenced block, so a block in another language cannot escape the checks. */
export function fenceLanguages(readme) {
  const languages = [];
  let open = false;
  for (const line of readme.split("\n")) {
    if (!line.startsWith("```")) continue;
    if (!open) languages.push(line.slice(3).trim());
    open = !open;
  }
  return languages;
}
