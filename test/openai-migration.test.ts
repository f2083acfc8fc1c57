import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockGateway, DEFAULT_CATALOGUE, MOCK_API_KEY, type MockFault } from "../src/testing/index.ts";
import { serveNode, type NodeServer } from "../src/testing/node.ts";

// Programs written the way the `openai` package's README and examples use it (`*.openai.ts`),
// each beside its modelgate twin (`*.ts`). The twins must differ only in the import, the class
// name, the key and the base URL, compile under strict + exactOptionalPropertyTypes, and run
// against the mock gateway.

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const folder = join(import.meta.dirname, "openai-migration");
const bin = (name: string) => join(root, "node_modules/.bin", name);
const programs = readdirSync(folder)
  .filter((file) => file.endsWith(".openai.ts"))
  .map((file) => file.slice(0, -".openai.ts".length))
  .sort();

/**
 * Lines beyond the allowed ones that a program has to change, and why. Each is marked
 * `// differs` in both files; every other program must move over unchanged.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

/** One line of a diff that is not shared by both files. */
interface Changed {
  side: "openai" | "modelgate";
  line: string;
}

/** The lines of `a` and `b` outside their longest common subsequence. */
function changedLines(a: string[], b: string[]): Changed[] {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const changed: Changed[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      changed.push({ side: "modelgate", line: b[j++]! });
    } else {
      changed.push({ side: "openai", line: a[i++]! });
    }
  }
  return changed;
}

/**
 * What a migrating user changes: the class name (`OpenAI` → `ModelGate`, in the import, `new`
 * and the statics and types reached through it) and the package name of the import. After
 * that substitution, only the key and base URL lines may remain different.
 */
function renamed(openaiLine: string): string {
  return openaiLine.replaceAll(/\bOpenAI\b/g, "ModelGate").replace(/from 'openai';$/, "from 'modelgate';");
}
const KEY_OR_BASE_URL = /^\s*(apiKey|baseURL): /;

function migrationDiff(program: string) {
  const read = (file: string) => readFileSync(join(folder, file), "utf8").split("\n");
  const changed = changedLines(read(`${program}.openai.ts`).map(renamed), read(`${program}.ts`));
  return {
    disallowed: changed.filter(({ line }) => !KEY_OR_BASE_URL.test(line) && !line.includes("// differs")),
    marked: changed.filter(({ line }) => line.includes("// differs")),
  };
}

describe("openai migration: what changes", () => {
  it("has a modelgate twin for every openai original, and the known differences name real programs", () => {
    const twins = readdirSync(folder).filter((file) => /^[\w-]+\.ts$/.test(file) && !file.endsWith(".openai.ts"));
    expect(twins.map((file) => file.slice(0, -3)).sort()).toEqual(programs);
    expect(programs.length).toBeGreaterThanOrEqual(7);
    for (const name of Object.keys(KNOWN_DIFFERENCES)) expect(programs).toContain(name);
  });

  for (const program of programs) {
    it(`${program}.ts differs from ${program}.openai.ts only in the import, the class name, the key and the base URL${KNOWN_DIFFERENCES[program] ? " (and its marked lines)" : ""}`, () => {
      const { disallowed, marked } = migrationDiff(program);
      expect(disallowed, `lines that changed for no allowed reason:\n${disallowed.map((c) => `${c.side}: ${c.line}`).join("\n")}`).toEqual([]);
      if (KNOWN_DIFFERENCES[program]) expect(marked.length, "a known difference should show in the files").toBeGreaterThan(0);
      else expect(marked, "an unlisted `// differs` line").toEqual([]);
    });
  }

  it("runs most programs unchanged but for the allowed lines", () => {
    const unchanged = programs.filter((program) => migrationDiff(program).marked.length === 0);
    expect(unchanged.length).toBe(programs.length - Object.keys(KNOWN_DIFFERENCES).length);
  });
});

describe("openai migration: the programs compile", () => {
  it("compiles the modelgate programs under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", async () => {
    const result = await run(bin("tsc"), ["-p", join(folder, "tsconfig.json")]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe("");
  });

  it("compiles the openai originals against the installed openai package", async () => {
    const result = await run(bin("tsc"), ["-p", join(folder, "tsconfig.openai.json")]).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe("");
  });
});

describe("openai migration: the modelgate programs run against the mock gateway", () => {
  // The programs name OpenAI's bare model ids; a gateway may serve them as aliases.
  const alias = (id: string, as: string) => ({ ...DEFAULT_CATALOGUE.find((model) => model.id === id)!, id: as });
  const ALIASES = [alias("openai/gpt-4.1-mini", "gpt-4.1-mini"), alias("google/gemini-2.5-flash", "whisper-1"), alias("openai/gpt-image-1", "gpt-image-1")];
  const gateway = createMockGateway({ models: [...DEFAULT_CATALOGUE, ...ALIASES] });
  /** Faults for the next requests, in order (`undefined`: none), set by a test before it runs its program. */
  let script: (MockFault | undefined)[] = [];
  let server: NodeServer;

  beforeAll(async () => {
    server = await serveNode((request) => {
      const fault = script.shift();
      if (fault) gateway.inject(fault, 1);
      return gateway(request);
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function runProgram(program: string): Promise<string[]> {
    gateway.reset();
    const { stdout } = await run(bin("tsx"), ["--tsconfig", join(folder, "tsconfig.json"), join(folder, `${program}.ts`)], {
      cwd: root,
      env: { ...process.env, MODELGATE_BASE_URL: server.url, MODELGATE_API_KEY: MOCK_API_KEY, MODELGATE_LOG: "off" },
    });
    return stdout.trimEnd().split("\n");
  }

  /** The openai original, run with the `openai` package against the same gateway (its base URL ends in `/v1`). */
  async function runOpenAIOriginal(program: string): Promise<string[]> {
    gateway.reset();
    const { stdout } = await run(bin("tsx"), ["--tsconfig", join(folder, "tsconfig.openai.json"), join(folder, `${program}.openai.ts`)], {
      cwd: root,
      env: { ...process.env, OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: MOCK_API_KEY, OPENAI_LOG: "off" },
    });
    return stdout.trimEnd().split("\n");
  }

  it("chat: prints the reply and the model that answered", async () => {
    const [content, modelAndTokens] = await runProgram("chat");
    expect(content!.length).toBeGreaterThan(10);
    expect(modelAndTokens).toMatch(/^gpt-4\.1-mini \d+$/);
    const body = gateway.requests[0]!.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(200);
    expect("temperature" in body).toBe(false);
    expect(await runOpenAIOriginal("chat")).toEqual(await runProgram("chat"));
  });

  it("streaming: writes the text as it arrives, with the usage chunk and the response headers", async () => {
    const lines = await runProgram("streaming");
    expect(lines[0]).toBe("text/event-stream");
    const usage = lines.find((line) => line.startsWith("usage: "));
    expect(Number(usage?.slice("usage: ".length))).toBeGreaterThan(0);
    const text = lines.at(-1)!.slice("text: ".length);
    expect(text.length).toBeGreaterThan(10);
    expect(lines.slice(1).join("\n")).toContain(text);
    expect(await runOpenAIOriginal("streaming")).toEqual(await runProgram("streaming"));
  });

  it("tools: finalChatCompletion() gives the tool call, and the tool result gets an answer", async () => {
    const lines = await runProgram("tools");
    expect(lines).toEqual(["finish: tool_calls", "call: get_weather string", expect.stringMatching(/^answer: .*celsius/)]);
    expect(gateway.requests).toHaveLength(2);
    const second = gateway.requests[1]!.body as { messages: { role: string }[] };
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("stream-helper: stream() with on('content.delta') and finalChatCompletion() prints what it prints under openai", async () => {
    const lines = await runProgram("stream-helper");
    expect(lines.slice(0, 3)).toEqual(["deltas: true", "assembled: true", "finish: stop"]);
    expect(lines[3]!.length).toBeGreaterThan(10);
    expect(await runOpenAIOriginal("stream-helper")).toEqual(lines);
  });

  it("run-tools: runTools() with an openai-shaped tool, on('functionToolCall') and finalContent() prints what it prints under openai", async () => {
    const lines = await runProgram("run-tools");
    expect(lines[0]).toMatch(/^call: getWeather \{"city":".+"\}$/);
    expect(lines[1]).toMatch(/^result: \{"city":".+","celsius":21\}$/);
    expect(lines.at(-1)).toBe("messages: user assistant tool assistant");
    expect(gateway.requests).toHaveLength(2);
    expect(await runOpenAIOriginal("run-tools")).toEqual(lines);
  });

  it("stream-flags: ended, errored and aborted of the stream helper read as under openai (an abort sets errored too)", async () => {
    const lines = await runProgram("stream-flags");
    expect(lines).toEqual([
      "before: ended false, errored false, aborted false",
      "whole, in end: ended true, errored false, aborted false",
      "whole, after: ended true, errored false, aborted false",
      "stopped, in abort: ended false, errored true, aborted true",
      "stopped, in end: ended true, errored true, aborted true",
      "stopped: true",
      "stopped, after: ended true, errored true, aborted true",
      "failed, in error: ended false, errored true, aborted false",
      "failed: true",
      "failed, after: ended true, errored true, aborted false",
    ]);
    expect(await runOpenAIOriginal("stream-flags")).toEqual(lines);
  });

  it("stored-completions: retrieve, update, list (filtered and page by page), messages.list and delete print what they print under openai", async () => {
    const lines = await runProgram("stored-completions");
    expect(lines).toEqual([
      "typed: lookup",
      "retrieved: true, 1 choice",
      "updated: true",
      "search: 1, more: false",
      "listed in order: true",
      "user: Hello from search",
      "deleted: true chat.completion.deleted",
      "gone: 404",
    ]);
    expect(await runOpenAIOriginal("stored-completions")).toEqual(lines);
  });

  it("client-surface: the options read back, withResponse() and asResponse() share a Response, toFile() reads a Response-like, as under openai", async () => {
    const lines = await runProgram("client-surface");
    expect(lines).toEqual([
      "key: true, baseURL: true",
      "logLevel: warn, maxRetries: 1, timeout: 20000",
      "same response: true, status: 200",
      "file: memo.txt 11 hello there",
    ]);
    expect(await runOpenAIOriginal("client-surface")).toEqual(lines);
  });

  it("tools (under openai too): the stream() helper's finalChatCompletion() gives the same tool call and answer", async () => {
    const lines = await runProgram("tools");
    expect(await runOpenAIOriginal("tools")).toEqual(lines);
  });

  it("structured: parse() with zodResponseFormat() gives the typed, validated object, as under openai", async () => {
    const lines = await runProgram("structured");
    expect(lines).toEqual(["string true"]);
    const body = gateway.requests[0]!.body as { response_format: { type: string; json_schema: { name: string; strict: boolean } } };
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema).toMatchObject({ name: "event", strict: true });
    expect(await runOpenAIOriginal("structured")).toEqual(lines);
  });

  it("zod-function: a zodFunction() tool's call gets parsed_arguments from parse(), as under openai", async () => {
    const lines = await runProgram("zod-function");
    expect(lines).toEqual(["getWeather string true"]);
    const body = gateway.requests[0]!.body as { tools: { function: { name: string; strict: boolean; parameters: { additionalProperties: boolean } } }[] };
    expect(body.tools[0]!.function).toMatchObject({ name: "getWeather", strict: true, parameters: { additionalProperties: false } });
    expect(await runOpenAIOriginal("zod-function")).toEqual(lines);
  });

  it("bridge: a page on openai's ChatCompletionStream.fromReadableStream() reads the body a modelgate server sends", async () => {
    const lines = await runProgram("bridge");
    expect(lines).toEqual(["same text: true true", "finish: stop"]);
    expect(await runOpenAIOriginal("bridge")).toEqual(lines);
  });

  it("run-tools-stream: a streamed runTools() gives its content deltas, tool results and conversation as under openai", async () => {
    const lines = await runProgram("run-tools-stream");
    expect(lines[0]).toMatch(/^result: \{"city":".+","celsius":21\}$/);
    expect(lines.slice(1)).toEqual(["streamed the answer: true", "completions: 2", "messages: user assistant tool assistant"]);
    expect((gateway.requests[0]!.body as { stream: boolean }).stream).toBe(true);
    expect(await runOpenAIOriginal("run-tools-stream")).toEqual(lines);
  });

  it("run-tools-context: toolContext reaches the function, afterCompletion follows each step, and the turns carry openai's parsed fields, as under openai", async () => {
    const lines = await runProgram("run-tools-context");
    expect(lines).toEqual([
      "turn: parsed=null parsed_arguments=null",
      "tool: string for acme",
      "after tool_calls: user assistant tool",
      "turn: parsed=null parsed_arguments=\"none\"",
      "after stop: user assistant tool assistant",
      "answer: true",
    ]);
    for (const request of gateway.requests) expect(request.body).not.toHaveProperty("toolContext");
    expect(await runOpenAIOriginal("run-tools-context")).toEqual(lines);
  });

  it("run-tools-sequential: parallel_tool_calls: false runs each call to its end and answers it before the next, as under openai", async () => {
    const lines = await runProgram("run-tools-sequential");
    expect(lines.at(-1)).toBe("sent parallel_tool_calls: false, messages: user assistant tool assistant");
    expect(lines.slice(0, 3)).toEqual(["start getWeather object", "end getWeather", "tool message"]);
    expect((gateway.requests[0]!.body as { parallel_tool_calls: boolean }).parallel_tool_calls).toBe(false);
    expect(await runOpenAIOriginal("run-tools-sequential")).toEqual(lines);
  });

  it("run-tools-bridge: openai's ChatCompletionStreamingRunner.fromReadableStream() rebuilds a streamed run's conversation, tool messages included", async () => {
    const lines = await runProgram("run-tools-bridge");
    expect(lines).toEqual(["messages: assistant tool assistant", 'tool result: {"celsius":21}', "call answered: true", "completions: 2, answer quotes it: true"]);
    expect(await runOpenAIOriginal("run-tools-bridge")).toEqual(lines);
  });

  it("errors: instanceof on the statics and on named imports picks the right class, as under openai", async () => {
    script = [undefined, { type: "status", status: 429 }];
    const lines = await runProgram("errors");
    expect(lines).toEqual(["404", "NotFoundError", "true", "string", "rate limited: 429", "true true"]);
    script = [undefined, { type: "status", status: 429 }];
    expect(await runOpenAIOriginal("errors")).toEqual(lines);
  });

  it("with-response: the parsed completion and the raw Response", async () => {
    const [statusLine, content, statusText] = await runProgram("with-response");
    expect(statusLine).toBe("200 application/json");
    expect(content!.length).toBeGreaterThan(10);
    expect(statusText).toBe("OK");
    expect(await runOpenAIOriginal("with-response")).toEqual(await runProgram("with-response"));
  });

  it("abort: an aborted request throws APIUserAbortError, and break ends a stream quietly", async () => {
    const lines = await runProgram("abort");
    expect(lines).toEqual(["aborted", "stopped after 2 chunks"]);
    expect(await runOpenAIOriginal("abort")).toEqual(await runProgram("abort"));
  });

  it("models: for await over list() and its data give the same catalogue", async () => {
    const lines = await runProgram("models");
    const count = DEFAULT_CATALOGUE.length + ALIASES.length;
    expect(lines).toEqual([`iterated: ${count}`, `data: ${count}`, "true"]);
    expect(gateway.requests.map((request) => request.url.replace(server.url, ""))).toEqual(["/v1/models", "/v1/models"]);
    expect(await runOpenAIOriginal("models")).toEqual(await runProgram("models"));
  });

  it("uploads: streams and toFile() uploads, a translation, an image edit and an image stream print the same under openai", async () => {
    const lines = await runProgram("uploads");
    expect(lines).toEqual([
      expect.stringMatching(/^transcription: \w/),
      expect.stringMatching(/^translation: \w/),
      expect.stringMatching(/^edited: \d+$/),
      expect.stringMatching(/^image_generation\.partial_image: \d+$/),
      expect.stringMatching(/^image_generation\.completed: \d+$/),
    ]);
    const uploads = gateway.requests.slice(0, 3).map((request) => (request.body as { file?: unknown; image?: unknown }).file ?? (request.body as { image?: unknown }).image);
    expect(uploads).toEqual([
      { name: "speech.wav", type: expect.any(String), size: 16 },
      { name: "speech.wav", type: expect.any(String), size: 16 },
      { name: "lamp.png", type: "image/png", size: 64 },
    ]);
    expect(await runOpenAIOriginal("uploads")).toEqual(lines);
  });
});
