// `deno publish --dry-run` of jsr.json: the same TypeScript source, published to JSR, passes
// Deno's checks (types of the three entries, no slow types, the file list) without the network.
// The proxies point at a closed loopback port, so any fetch Deno tried would fail the check;
// the one npm import (`@opentelemetry/api`, the optional peer) resolves from the repository's
// node_modules, which `npm ci` installed. DENO_DIR is a scratch folder, so nothing is cached.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs the dry run in `root` with the given deno binary; returns what it simulated. */
export async function jsrPublishCheck({ root, work, deno }) {
  const offline = "http://127.0.0.1:9";
  const env = { ...process.env, DENO_DIR: join(work, "deno-publish-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", HTTPS_PROXY: offline, HTTP_PROXY: offline, https_proxy: offline, http_proxy: offline };
  const lock = readFileSync(join(root, "deno.lock"), "utf8");
  const { stdout, stderr } = await run(deno, ["publish", "--dry-run", "--allow-dirty", "--config", "jsr.json"], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 }).catch((error) => {
    throw new Error(`deno publish --dry-run: ${`${error.stderr}${error.stdout}`.trim().split("\n").filter((line) => /error|warning/i.test(line)).slice(0, 4).join(" | ") || error.message}`);
  });
  const output = `${stdout}${stderr}`;
  if (!output.includes("Success Dry run complete")) throw new Error(`deno publish --dry-run did not complete: ${output.trim().split("\n").slice(-3).join(" | ")}`);
  if (/with slow types|errors for slow types/i.test(output)) throw new Error("deno publish --dry-run warned about slow types");
  if (readFileSync(join(root, "deno.lock"), "utf8") !== lock) throw new Error("deno publish --dry-run wrote to deno.lock");
  const { name, version } = JSON.parse(readFileSync(join(root, "jsr.json"), "utf8"));
  const files = output.split("\n").filter((line) => /^\s+file:\/\//.test(line)).length;
  return `${name}@${version}, ${files} files, offline`;
}
