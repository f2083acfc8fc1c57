interface RuntimeGlobals {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env?: { get(name: string): string | undefined } };
}

/**
 * Reads an environment variable where the runtime has one: `process.env` on Node and Bun,
 * `Deno.env` on Deno. Browsers and workers have neither, and Deno without `--allow-env`
 * throws a permission error; all of those mean "not set", never a crash.
 */
export function readEnv(name: string): string | undefined {
  const globals = globalThis as RuntimeGlobals;
  try {
    const value = globals.Deno?.env?.get(name) ?? globals.process?.env?.[name];
    const trimmed = value?.trim();
    return trimmed === "" ? undefined : trimmed;
  } catch {
    return undefined;
  }
}
