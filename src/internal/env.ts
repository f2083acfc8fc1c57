import type { RuntimeGlobals } from "./runtime.ts";

/**
 * Reads an environment variable where the runtime has one: `process.env` on Node and Bun,
 * `Deno.env` on Deno. Browsers and workers have neither, which means "not set", never a crash.
 * On Deno the variable is read only if env access is already granted: asking would open an
 * interactive permission prompt just for constructing a client.
 */
export function readEnv(name: string): string | undefined {
  const { Deno: deno, process } = globalThis as RuntimeGlobals;
  try {
    let value: string | undefined;
    if (deno?.env) {
      const state = deno.permissions?.querySync?.({ name: "env", variable: name }).state ?? "granted";
      value = state === "granted" ? deno.env.get(name) : undefined;
    } else {
      value = process?.env?.[name];
    }
    const trimmed = value?.trim();
    return trimmed === "" ? undefined : trimmed;
  } catch {
    return undefined;
  }
}
