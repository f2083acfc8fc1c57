import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readPNG } from "./fixtures/media.ts";

// Every example is run as a user would run it (offline, against the mock gateway), so none
// of them rots. Output is checked for what each example is about. examples/deno.ts runs in
// Deno in the runtime suite (`npm run test:runtimes`), which installs Deno.
const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const offlineEnv = { ...process.env, MODELGATE_BASE_URL: "", MODELGATE_API_KEY: "", MOCK_CHUNK_DELAY_MS: "0", NO_COLOR: "1" };

async function example(file: string, env: Record<string, string> = {}) {
  const { stdout, stderr } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "examples", file)], { cwd: root, env: { ...offlineEnv, ...env }, timeout: 90_000 });
  return { stdout, stderr };
}

describe("examples run offline against the mock gateway", () => {
  it("stream.ts (npm run example) streams a reply and says it is offline", async () => {
    const { stdout, stderr } = await example("stream.ts");
    expect(stderr).toContain("offline");
    expect(stdout).toContain('You asked: "Write a haiku about rivers."');
  });

  it("chat.ts prints the routed model and the reply", async () => {
    const { stdout } = await example("chat.ts");
    expect(stdout).toMatch(/^mistralai\/mistral-small .*Say hello in French/);
  });

  it("auto-routing.ts reports the model the filters chose", async () => {
    const { stdout } = await example("auto-routing.ts");
    expect(stdout).toContain("routed to deepseek/deepseek-chat");
  });

  it("tracing.ts prints the span tree: a streamed chat retried after a 429, then one span per tool-run step", async () => {
    const { stdout } = await example("tracing.ts");
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("plan a day out");
    expect(lines.slice(1)).toHaveLength(3);
    expect(lines[1]).toMatch(/^  chat auto → \S+ via \S+, attempts 2, tokens \d+ in \/ \d+ out, \$[\d.e-]+, finish stop, first chunk after \d+ ms$/);
    expect(lines[2]).toMatch(/^  chat auto → .*attempts 1, .*finish tool_calls$/);
    expect(lines[3]).toMatch(/^  chat auto → .*attempts 1, .*finish stop$/);
  });

  it("tools.ts runs a tool loop: two tools at once, then the answer that uses them", async () => {
    const { stdout } = await example("tools.ts");
    expect(stdout).toMatch(/^step 1 \(\S+\): called get_weather and get_local_time\nstep 2 \(\S+\): answered\ndone: .*"temperature":21.*It is 14:05/);
    expect(stdout).toMatch(/\n\d+ tokens, \$[\d.e-]+\n$/);
  });

  it("tools-stream.ts prints the run's progress events, then its result", async () => {
    const { stdout } = await example("tools-stream.ts");
    expect(stdout).toMatch(/^\[step 1\] calling look_up_flight… done in \d+ ms \n\[step 2\] .*"status":"on time"/);
    expect(stdout).toMatch(/\ndone after 2 steps\n$/);
  });

  it("cost.ts shows the gateway info of a plain, a streamed, a retried and a failed call, and a budget at work", async () => {
    const { stdout } = await example("cost.ts");
    expect(stdout).toMatch(/plain: \{\n  requestedModel: 'auto',\n  model: '[^']+',\n  provider: '[^']+',\n  generationID: 'gen-/);
    expect(stdout).toMatch(/streamed: \{[\s\S]*?cost: [\d.e-]+,/);
    expect(stdout).toMatch(/retried: \{[\s\S]*?attempts: 2,/);
    expect(stdout).toMatch(/failed: 404 \{[\s\S]*?requestedModel: 'no-such\/model'/);
    expect(stdout).toMatch(/under maxCost \$0\.00005: \d+ tokens \(finish_reason length\)/);
    expect(stdout).toMatch(/refused before sending: maxCost: the prompt .* Nothing was sent\.\n$/);
  });

  it("vision.ts is routed to a vision model", async () => {
    const { stdout } = await example("vision.ts");
    expect(stdout).toContain("routed to openai/gpt-4.1-mini (a vision model)");
  });

  it("image.ts generates an image through chat, decodes its data: URL and saves a valid PNG in the temp dir", async () => {
    const { stdout } = await example("image.ts");
    expect(stdout).toMatch(/^google\/gemini-2\.5-flash-image: Here is the image you asked for: "Draw a lighthouse at dusk\."\.\n/);
    const [, path, mediaType, count] = /\nsaved (.+) \((.+), (\d+) bytes\)\n$/.exec(stdout) ?? [];
    expect(path?.startsWith(tmpdir()), `${path} is in the OS temp dir`).toBe(true);
    expect(path).toMatch(/modelgate-image-[^/\\]+[/\\]image-1\.png$/);
    try {
      const bytes = readFileSync(path!);
      expect(mediaType).toBe("image/png");
      expect(bytes.length).toBe(Number(count));
      expect(readPNG(bytes)).toMatchObject({ width: 2, height: 2 });
    } finally {
      rmSync(dirname(path!), { recursive: true, force: true });
    }
  });

  it("reasoning.ts streams the reasoning with reasoningStream, then the answer, from a reasoning model", async () => {
    const { stdout } = await example("reasoning.ts");
    expect(stdout).toMatch(/^thinking: The question is "Why is the sky blue\? Answer in one"\. .+\nanswer \(deepseek\/deepseek-r1\): .*You asked: "Why is the sky blue\? Answer in one"\..*\n$/);
  });

  it("embeddings.ts embeds two sentences and prints their cosine similarity", async () => {
    const { stdout } = await example("embeddings.ts");
    expect(stdout).toMatch(/^openai\/text-embedding-3-small: 2 vectors of 1536 dimensions, \d+ tokens\ncosine similarity: -?[01]\.\d{4}\n$/);
    const similarity = Number(/cosine similarity: (\S+)/.exec(stdout)?.[1]);
    expect(Math.abs(similarity)).toBeLessThanOrEqual(1);
  });

  it("abort-timeout.ts finishes in time, breaks early and reports the abort", async () => {
    const { stdout } = await example("abort-timeout.ts");
    expect(stdout).toContain("finished in time:");
    expect(stdout).toContain("stopped after 3 chunks");
    expect(stdout).toContain("aborted: true");
  });

  it("errors.ts catches a NotFoundError with its status and request id", async () => {
    const { stdout } = await example("errors.ts");
    expect(stdout).toMatch(/^not found \(404\): 404 The model 'no-such\/model' does not exist\. \[request req_mock_\d+\]/);
  });

  it("structured.ts gets a typed, validated object, natively and through a forced tool call", async () => {
    const { stdout } = await example("structured.ts");
    expect(stdout).toMatch(/^openai\/gpt-4\.1-mini planned \d+ days in .+ \((spring|summer|autumn|winter)\): [0-3] highlights\n/);
    expect(stdout).toMatch(/\nvia a tool call, mistralai\/mistral-small: .+\n$/);
  });

  it("structured-stream.ts renders partial objects, then the validated recipe", async () => {
    // The mock in the example's own process, a timer turn between chunks: each arrives on its own
    // and shows as its own partial, whatever the machine's load (chunks sent at once would share one).
    const { stdout } = await example("structured-stream.ts", { MOCK_CHUNK_DELAY_MS: "1" });
    expect(stdout).toMatch(/\n(\d+) partial objects, then: ".+", [2-4] steps, [\d.]+ minutes\n$/);
    expect(Number(/\n(\d+) partial objects/.exec(stdout)?.[1])).toBeGreaterThan(3);
  });

  it("stream-helpers.ts prints the text and the assembled completion's usage", async () => {
    const { stdout } = await example("stream-helpers.ts");
    expect(stdout).toMatch(/You asked: "Name three rivers\."[\s\S]*\n\[mistralai\/mistral-small, \d+ tokens\]/);
  });

  it("server-to-browser.ts passes a stream through a route as NDJSON", async () => {
    const { stdout } = await example("server-to-browser.ts");
    expect(stdout).toContain('You asked: "Hi from the page"');
  });
});
