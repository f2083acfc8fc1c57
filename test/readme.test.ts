import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIConnectionError, RateLimitError, Stream, type ChatCompletionChunk } from "modelgate";
import { createMockGateway, MOCK_API_KEY } from "modelgate/testing";
import { serveNode, type NodeServer } from "modelgate/testing/node";
import { fenceLanguages, readmeBlocks, RUNTIMES, type ReadmeBlock } from "./runtimes/readme-blocks.mjs";

// Every ```ts and ```js block of README.md and of the guides in docs/ is a whole program, run
// here exactly as written (imports included) against the mock gateway on 127.0.0.1, with
// `modelgate` resolved to the source; every TypeScript block is type-checked under strict,
// exactOptionalPropertyTypes and noUncheckedIndexedAccess. Blocks for other runtimes
// (`<!-- runs: browser|deno|workerd -->`, README only) are run by `npm run test:runtimes` from
// the same README text. docs/api/ (generated from the doc comments) holds no programs, and
// docs/contract.md (the contract) only fragments, type-checked below with a declared preamble.
const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const GUIDES = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md") && name !== "contract.md")
  .map((name) => `docs/${name}`)
  .sort();
const texts = new Map([["README.md", readme], ...GUIDES.map((file) => [file, readFileSync(join(root, file), "utf8")] as const)]);
type Block = ReadmeBlock & { file: string };
const blocks: Block[] = [...texts].flatMap(([file, text]) => readmeBlocks(text).map((block) => ({ ...block, file })));
const nodeBlocks = blocks.filter((block) => block.runs === "node");

// docs/contract.md is the contract, a copy of the project's API.md: its ```ts blocks are
// fragments of a specification, not programs. They name a client, an API key, the messages, a
// schema library or `tool` without importing or making them, as a specification may, and hold
// nothing to run. They still must not lie about the API, so each is type-checked with the
// rest, under the same options, behind the declarations written here for it (what it assumes,
// typed as an app would have it); none is run.
const CONTRACT_PREAMBLES: { block: RegExp; preamble: string }[] = [
  { block: /new ModelGate\(\{ apiKey, baseURL \}\)/, preamble: "declare const apiKey: string;\ndeclare const baseURL: string;\n" },
  {
    block: /completions\.parse\(/,
    preamble: 'import type ModelGate from "modelgate";\nimport { z } from "zod";\ndeclare const client: ModelGate;\ndeclare const messages: ModelGate.ChatCompletionMessageParam[];\n',
  },
  {
    block: /completions\.runTools\(/,
    preamble:
      'import type ModelGate from "modelgate";\nimport { tool } from "modelgate";\nimport { z } from "zod";\ndeclare const client: ModelGate;\ndeclare const messages: ModelGate.ChatCompletionMessageParam[];\n',
  },
];
const contractBlocks: Block[] = readmeBlocks(readFileSync(join(root, "docs/contract.md"), "utf8")).map((block) => ({ ...block, file: "docs/contract.md" }));
const contractPreamble = (block: Block) => CONTRACT_PREAMBLES.find((candidate) => candidate.block.test(block.code))?.preamble ?? "";
const routeBlocks = blocks.filter((block) => block.runs === "route");

/** What each Node block prints (the mock's replies are deterministic); one entry per block. */
const EXPECTED: { block: RegExp; prints: RegExp }[] = [
  { block: /Say hello in French/, prints: /^mistralai\/mistral-small .*Say hello in French/ },
  { block: /Write a haiku about rivers/, prints: /You asked: "Write a haiku about rivers\."/ },
  { block: /route: \{/, prints: /^routed to deepseek\/deepseek-chat\n$/ },
  { block: /stream\.tee\(\)/, prints: /You asked: "Name three rivers\."[\s\S]*\n\[mistralai\/mistral-small, \d+ tokens\]\n$/ },
  { block: /modelgate\/testing/, prints: /^Hello from the mock\.\n2\n$/ },
  { block: /require\("modelgate"\)/, prints: /^15 models\n$/ },
  { block: /no-such\/model/, prints: /^not found \(404\): .*'no-such\/model' does not exist\. \[request req_mock_\d+\]\n$/ },
  { block: /Weather in Lisbon/, prints: /^openai\/gpt-4\.1-mini: -?\d+(\.\d+)? °C\n$/ },
  // Chunks that arrive together share a partial, and how the mock's chunks group on a loopback
  // socket depends on how busy the machine is: at least one update is all that is certain.
  { block: /partialObjectStream/, prints: /^[1-9]\d* updates?, then [2-4] steps\n$/ },
  { block: /Describe the sea in one sentence/, prints: /^\S+ via \S+, 1 attempt\(s\), \$[\d.e-]+\n$/ },
  { block: /runTools\(/, prints: /^done 2\n$/ },
  { block: /modalities: \["image", "text"\]/, prints: /^image\/png \d+\nwav \d+\nThe question is "Is 91 prime\?"\. .+\n$/ },
  { block: /client\.embeddings\.create/, prints: /^\[ 256, 256 \]\niVBORw0K\n\w.+\n$/ },
  { block: /AbortController/, prints: /You asked: "Tell me a long story\."/ },
  { block: /tracingChannel\("modelgate:request"\)/, prints: /^chat mistralai\/mistral-small 1 ok\n$/ },
  { block: /instrumentModelGate\(/, prints: /^chat auto 1 \d+\n$/ },
  { block: /Talk like a pirate/, prints: /Are semicolons optional in JavaScript\?[\s\S]*\n\S+ \d+\n$/ },
  { block: /Hello through middleware/, prints: /^POST \/v1\/chat\/completions attempt 1: 200 in \d+ ms\n.*Hello through middleware.*\n$/ },
  { block: /Hello from tenant acme/, prints: /^acme: .*Hello from tenant acme/ },
];

const label = (block: Block) => `${block.file}:${block.line} (${block.code.split("\n").find((line) => line.trim() !== "" && !line.startsWith("import"))?.trim().slice(0, 60)})`;
const fileName = (block: Block) => `${block.file.replace(/\W/g, "-")}-${block.line}.${block.lang === "ts" ? "ts" : /\brequire\(/.test(block.code) ? "cjs" : "mjs"}`;

let gateway: ReturnType<typeof createMockGateway>;
let server: NodeServer;
let dir: string;
const saved = { baseURL: process.env.MODELGATE_BASE_URL, apiKey: process.env.MODELGATE_API_KEY };

beforeAll(async () => {
  // A chunk per millisecond, as from a model: the partials block usually shows several updates.
  gateway = createMockGateway({ chunkDelayMs: 1 });
  server = await serveNode(gateway);
  // Inside the repository (ignored by git), so that a block's `import { z } from "zod"` finds
  // the dev dependency in node_modules as it would in an app that installed it.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  dir = mkdtempSync(join(root, ".tmp", "readme-"));
  // As in an app's package: .ts files are ES modules, so top-level await works.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  // The route block builds its client when imported, from these two variables.
  process.env.MODELGATE_BASE_URL = server.url;
  process.env.MODELGATE_API_KEY = MOCK_API_KEY;
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  for (const [name, value] of [["MODELGATE_BASE_URL", saved.baseURL], ["MODELGATE_API_KEY", saved.apiKey]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("README and docs/ code blocks", () => {
  it("are all TypeScript or JavaScript programs, or shell commands and text", () => {
    expect(blocks.filter((block) => block.file === "README.md").length).toBeGreaterThanOrEqual(10);
    expect(GUIDES.length).toBeGreaterThanOrEqual(9);
    for (const [file, text] of texts) expect(fenceLanguages(text).filter((language) => !["ts", "js", "sh", "text"].includes(language)), file).toEqual([]);
  });

  it("in docs/ all run in Node here (the runtime suite reads only the README's)", () => {
    expect(blocks.filter((block) => block.file !== "README.md" && block.runs !== "node").map(label)).toEqual([]);
  });

  it("each run somewhere the tests know: Node here, the rest in npm run test:runtimes", () => {
    expect(blocks.filter((block) => !RUNTIMES.includes(block.runs as never)).map(label)).toEqual([]);
    expect(new Set(blocks.map((block) => block.runs))).toEqual(new Set(RUNTIMES));
  });

  it("each Node block has exactly one expected output", () => {
    const unmatched = nodeBlocks.filter((block) => EXPECTED.filter((expected) => expected.block.test(block.code)).length !== 1);
    expect(unmatched.map(label)).toEqual([]);
    expect(EXPECTED.filter((expected) => !nodeBlocks.some((block) => expected.block.test(block.code))).map(String)).toEqual([]);
  });

  it("keeps the two set-up commands exactly as they are, in the README and in CONTRIBUTING, and names only scripts that exist", () => {
    const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>;
    const contributing = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
    for (const text of [...texts.values(), contributing]) for (const [, script] of text.matchAll(/npm run ([\w:-]+)/g)) expect(scripts, script).toHaveProperty(script!);
    for (const text of [readme, contributing]) {
      expect(text).toContain("```sh\nnpm ci && npm run example\n```");
      expect(text).toContain("```sh\nnpm test\n```");
    }
  });

  it("in docs/contract.md are TypeScript fragments, each with exactly one declared preamble", () => {
    expect(contractBlocks.length).toBeGreaterThanOrEqual(3);
    expect(contractBlocks.filter((block) => block.lang !== "ts").map(label)).toEqual([]);
    expect(contractBlocks.filter((block) => CONTRACT_PREAMBLES.filter((candidate) => candidate.block.test(block.code)).length !== 1).map(label)).toEqual([]);
    expect(CONTRACT_PREAMBLES.filter((candidate) => !contractBlocks.some((block) => candidate.block.test(block.code))).map((candidate) => String(candidate.block))).toEqual([]);
  });

  it("type-check as written (the Deno block aside, checked by deno check in the runtime suite; the contract's fragments behind their preambles)", async () => {
    const checked = [...blocks.filter((block) => block.lang === "ts" && block.runs !== "deno"), ...contractBlocks];
    for (const block of checked) writeFileSync(join(dir, fileName(block)), (block.file === "docs/contract.md" ? contractPreamble(block) : "") + block.code);
    const config = join(dir, "tsconfig.json");
    // As strict as a careful app: optional properties are not `undefined` slots, and an index may miss.
    // `modelgate` resolves to the built declarations, as in an app (the source itself is checked
    // by the repository's own tsconfig).
    const declarations = { modelgate: "index", "modelgate/testing": "testing/index", "modelgate/testing/node": "testing/node", "modelgate/otel": "otel/index" };
    const paths = Object.fromEntries(Object.entries(declarations).map(([name, file]) => [name, [join(root, "dist", `${file}.d.ts`)]]));
    const compilerOptions = { typeRoots: [join(root, "node_modules/@types")], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, paths };
    writeFileSync(config, JSON.stringify({ extends: join(root, "tsconfig.json"), compilerOptions, include: [], files: checked.map(fileName) }));
    const result = await run(join(root, "node_modules/.bin/tsc"), ["-p", config], { cwd: dir }).catch((error: { stdout: string }) => error);
    expect("stdout" in result ? result.stdout.replaceAll(dir, "") : "", "tsc output").toBe("");
  });
});

describe("README and docs/ Node programs run as written against the mock gateway", () => {
  it.each(nodeBlocks.map((block) => [label(block), block] as const))("%s", async (_name, block) => {
    const file = join(dir, fileName(block));
    writeFileSync(file, block.code);
    const env = { ...process.env, MODELGATE_BASE_URL: server.url, MODELGATE_API_KEY: MOCK_API_KEY, NO_COLOR: "1" };
    const result = await run(join(root, "node_modules/.bin/tsx"), ["--tsconfig", join(root, "tsconfig.json"), file], { cwd: dir, env, timeout: 90_000 }).catch(
      (error: { stderr?: string; message: string }) => {
        throw new Error(`the block failed: ${error.stderr || error.message}`);
      },
    );
    const expected = EXPECTED.find((candidate) => candidate.block.test(block.code))!;
    expect(result.stdout).toMatch(expected.prints);
  });
});

describe("README server route for the browser bridge", () => {
  const ask = async (question: string) => {
    const [block] = routeBlocks;
    const file = join(dir, "readme-route.ts");
    writeFileSync(file, block!.code);
    const { POST } = (await import(file)) as { POST: (request: Request) => Promise<Response> };
    return POST(new Request("http://app.test/api/chat", { method: "POST", body: JSON.stringify({ question }) }));
  };
  const frames = (body: string) => body.split("\n").slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);

  it("is one module exporting POST, whose answer the page's Stream.fromReadableStream reads back", async () => {
    expect(routeBlocks).toHaveLength(1);
    const response = await ask("Hi from the page");
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const text = await Stream.fromReadableStream<ChatCompletionChunk>(response.body!).text();
    expect(text).toContain('You asked: "Hi from the page"');
  });

  // The framing below is the bridge the README documents: openai's chunk lines, then a frame.
  it("writes each chunk on its own line, each ending in \\n, then exactly one end frame with the stream's id", async () => {
    const body = await (await ask("Hi from the page")).text();
    expect(body.endsWith("\n")).toBe(true);
    const all = frames(body);
    const chunks = all.slice(0, -1) as unknown as ChatCompletionChunk[];
    expect(all.at(-1)).toEqual({ id: chunks[0]!.id, choices: [], modelgate_bridge: "end" });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: "chat.completion.chunk", id: chunks[0]!.id });
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(content).toContain('You asked: "Hi from the page"');
  });

  it("ends a failed stream with one error frame, then errors the body; the page throws the same class", async () => {
    gateway.inject({ type: "stream-error", afterChunks: 2, status: 429, message: "Slow down." });
    const reader = (await ask("Hi")).body!.getReader();
    let body = "";
    const failure = await (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return undefined;
        body += new TextDecoder().decode(value);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RateLimitError);
    const last = frames(body).at(-1) as { modelgate_bridge: string; choices: unknown[]; error: Record<string, unknown> };
    expect(last).toMatchObject({ choices: [], modelgate_bridge: "error" });
    expect(last.error).toMatchObject({ name: "RateLimitError", status: 429, message: expect.stringContaining("Slow down.") });
    for (const field of ["code", "type", "param", "requestID", "error"]) expect(last.error).toHaveProperty(field);

    gateway.inject({ type: "stream-error", afterChunks: 2, status: 429, message: "Slow down." });
    const stream = Stream.fromReadableStream<ChatCompletionChunk>((await ask("Hi")).body!);
    await expect(stream.text()).rejects.toBeInstanceOf(RateLimitError);
  });

  it("reads a body cut before its terminal frame, or mid-line, as APIConnectionError", async () => {
    const body = await (await ask("Hi from the page")).text();
    const lastLine = body.slice(0, -1).lastIndexOf("\n") + 1;
    for (const cut of [body.slice(0, lastLine), body.slice(0, lastLine + 3), body.slice(0, -1)]) {
      const stream = Stream.fromReadableStream<ChatCompletionChunk>(new Response(cut).body!);
      await expect(stream.text(), JSON.stringify(cut.slice(-20))).rejects.toBeInstanceOf(APIConnectionError);
    }
  });
});
