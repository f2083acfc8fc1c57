import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ModelGate } from "../src/index.ts";
import { importGraph, staticClosure, SRC } from "./fixtures/import-graph.ts";

// `npx modelgate mock`: the file package.json's `bin` names, as npx runs it (npm test builds
// dist/ first). Each test spawns it, reads what it prints, and stops it as Ctrl-C does.
const root = join(SRC, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> };
const bin = join(root, pkg.bin.modelgate as string);

interface Running {
  child: ChildProcessWithoutNullStreams;
  env: Record<string, string>;
  stderr: () => string;
  exited: Promise<number | null>;
}

const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts the bin and resolves once it printed both lines (or rejects when it exits first). */
function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: "pipe" });
  started.push(child);
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (data: Buffer) => (stderr += data));
    child.stdout.on("data", (data: Buffer) => {
      stdout += data;
      const lines = stdout.split("\n").filter((line) => line !== "");
      if (lines.length >= 2) resolve({ child, env: Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string])), stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`the bin exited (${code}) before printing both lines; stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)}`)));
  });
}

describe("npx modelgate mock", () => {
  it("is a Node script of its own (a shebang, named by package.json's bin)", () => {
    // Written without "./": npm publish rewrites a bin path that has it, and warns that it did.
    expect(pkg.bin).toEqual({ modelgate: "dist/testing/cli.js" });
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("prints exactly the two environment lines, serves the mock on 127.0.0.1 and stops on SIGINT", async () => {
    const running = await start(["mock", "--port", "0"]);
    expect(Object.keys(running.env)).toEqual(["MODELGATE_BASE_URL", "MODELGATE_API_KEY"]);
    expect(running.env.MODELGATE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.env.MODELGATE_API_KEY).toBe("mg-mock-key");

    const client = new ModelGate({ apiKey: running.env.MODELGATE_API_KEY, baseURL: running.env.MODELGATE_BASE_URL, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Say hello in French." }] });
    expect(completion.choices[0]?.message.content).toEqual(expect.any(String));
    expect(completion.model).not.toBe("auto");
    const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
    expect((await stream.text()).length).toBeGreaterThan(0);
    // A wrong key is refused as the gateway would.
    await expect(new ModelGate({ apiKey: "wrong", baseURL: running.env.MODELGATE_BASE_URL, maxRetries: 0 }).models.list()).rejects.toMatchObject({ status: 401 });

    running.child.kill("SIGINT");
    expect(await running.exited).toBe(0);
    await expect(fetch(`${running.env.MODELGATE_BASE_URL}/v1/models`)).rejects.toThrow();
    expect(running.stderr()).toContain("Ctrl-C stops it");
  });

  it("answers with --reply's text, and takes --port=N", async () => {
    const running = await start(["mock", "--port=0", "--reply", "Bonjour !"]);
    const client = new ModelGate({ apiKey: running.env.MODELGATE_API_KEY, baseURL: running.env.MODELGATE_BASE_URL, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toBe("Bonjour !");
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("listens on 4010 by default, or says the port is taken and how to pick another", async () => {
    const child = spawn(process.execPath, [bin, "mock"], { stdio: "pipe" });
    started.push(child);
    let output = "";
    child.stdout.on("data", (data: Buffer) => (output += data));
    child.stderr.on("data", (data: Buffer) => (output += data));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // The machine may have something on 4010 already: then the bin must say so and exit 1.
    const first = await Promise.race([exited.then((code) => ({ code })), new Promise<{ code: "running" }>((resolve) => child.stdout.once("data", () => setTimeout(() => resolve({ code: "running" }), 50)))]);
    if (first.code === "running") {
      expect(output).toContain("MODELGATE_BASE_URL=http://127.0.0.1:4010\n");
      const taken = spawn(process.execPath, [bin, "mock", "--port", "4010"], { stdio: "pipe" });
      started.push(taken);
      let message = "";
      taken.stderr.on("data", (data: Buffer) => (message += data));
      expect(await new Promise((resolve) => taken.once("exit", resolve))).toBe(1);
      expect(message).toContain("port 4010 is in use (--port 0 takes any free port)");
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } else {
      expect(first.code).toBe(1);
      expect(output).toContain("port 4010 is in use (--port 0 takes any free port)");
    }
  });

  it.each([
    [[], "no command given"],
    [["serve"], 'unknown command "serve"'],
    [["mock", "--port", "http"], "--port takes a port number"],
    [["mock", "--host", "0.0.0.0"], 'unknown option "--host"'],
    [["mock", "--reply", "--port", "0"], "--reply takes the text to answer with"],
    [["mock", "--chunk-delay", "999999999999"], "--chunk-delay takes milliseconds from 0 to 2147483647"],
  ])("refuses %j with the usage and exit code 2", async (args, message) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: "pipe" });
    started.push(child);
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data));
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("Usage: npx modelgate mock");
  });

  it("prints the usage for --help on stdout", async () => {
    const child = spawn(process.execPath, [bin, "--help"], { stdio: "pipe" });
    let stdout = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data));
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(0);
    expect(stdout).toMatch(/^Usage: npx modelgate mock \[--port <n>\]/);
  });

  it("is reached from no entry of the SDK (it is Node-only, like the Node adapter)", () => {
    const { edges } = importGraph();
    const runtime = edges.filter((edge) => !edge.typeOnly);
    for (const entry of ["index.ts", "commonjs.ts", "testing/index.ts", "testing/node.ts", "otel/index.ts"]) {
      expect([...staticClosure(entry, runtime)], entry).not.toContain("testing/cli.ts");
    }
    // And it imports no node:* module itself: the Node adapter is its only way to a socket.
    expect(readFileSync(join(SRC, "testing/cli.ts"), "utf8")).not.toMatch(/from "node:/);
  });
});
