// The README's quick start as a reader runs it, from the installed tarball: `npx modelgate
// mock` in an app prints the two lines, the README's app.mjs (the quick start's program,
// saved as `app.mjs`) runs with them in its environment, then Ctrl-C (SIGINT) stops the command.
import { execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The README's quick-start program: the first ```js block of "## Quick start", which the reader saves as `app.mjs`. */
function quickStartProgram(root) {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf("\n## Quick start\n");
  const section = start === -1 ? "" : readme.slice(start, readme.indexOf("\n## ", start + 1));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block || !section.includes("`app.mjs`")) throw new Error("README.md: no app.mjs program in the quick start");
  return block[1];
}

/** Runs `npx modelgate mock --port 0` in `app` (where the tarball is installed), then the quick start's app.mjs against it. */
export async function mockCommandCheck({ root, app }) {
  writeFileSync(join(app, "app.mjs"), quickStartProgram(root));
  const child = spawn("npx", ["--no-install", "modelgate", "mock", "--port", "0"], { cwd: app, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  try {
    const env = await new Promise((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (data) => {
        stdout += data;
        const lines = stdout.split("\n").filter(Boolean);
        if (lines.length >= 2) resolve(Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2))));
      });
      exited.then((code) => reject(new Error(`npx modelgate mock exited (${code}) before printing its two lines: ${JSON.stringify(stdout)}`)));
      setTimeout(() => reject(new Error("npx modelgate mock printed nothing within 30 s")), 30_000).unref();
    });
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(env.MODELGATE_BASE_URL ?? "") || env.MODELGATE_API_KEY !== "mg-mock-key") throw new Error(`npx modelgate mock printed ${JSON.stringify(env)}`);
    const { stdout } = await run(process.execPath, ["app.mjs"], { cwd: app, env: { ...process.env, ...env } });
    if (!/You asked: "Say hello in French\."/.test(stdout)) throw new Error(`app.mjs printed ${JSON.stringify(stdout)}`);
    // npx runs the bin under npm and a shell: Ctrl-C signals the whole group, so do the same
    // (the child was started as the leader of a group of its own).
    process.kill(-child.pid, "SIGINT");
    const code = await exited;
    if (code !== 0 && code !== "SIGINT") throw new Error(`npx modelgate mock ended with ${code} after SIGINT`);
    return `${env.MODELGATE_BASE_URL}: app.mjs answered "${stdout.trim().slice(0, 40)}…"`;
  } finally {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group has already gone.
      }
    }
  }
}
