/** The runtime-specific globals the SDK looks at, all optional: each runtime has only some. */
export interface RuntimeGlobals {
  Deno?: {
    version?: { deno?: string };
    env?: { get(name: string): string | undefined };
    permissions?: { querySync?(descriptor: { name: "env"; variable: string }): { state: string } };
  };
  Bun?: { version?: string };
  process?: { versions?: { node?: string }; env?: Record<string, string | undefined> };
  navigator?: { userAgent?: string };
  window?: { document?: unknown };
  document?: unknown;
  importScripts?: unknown;
}

/**
 * The runtime and its version as the User-Agent names them ("node 20.20.2", "bun 1.2.0", "deno
 * 2.1.0"), else what the runtime calls itself (workerd: "Cloudflare-Workers"). Bun and Deno
 * also define `process`, so they are recognised before Node.
 */
export function runtimeName(): string {
  const g = globalThis as RuntimeGlobals;
  if (typeof g.Bun?.version === "string") return `bun ${g.Bun.version}`;
  if (typeof g.Deno?.version?.deno === "string") return `deno ${g.Deno.version.deno}`;
  if (typeof g.process?.versions?.node === "string") return `node ${g.process.versions.node}`;
  return g.navigator?.userAgent ?? "unknown";
}

/**
 * True where the code most likely runs in a web page (or a web worker of one), where an API key
 * would be readable by the page's visitors.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as RuntimeGlobals;
  // A page has a window with a document; a web worker has importScripts.
  return (g.window !== undefined && g.document !== undefined) || typeof g.importScripts === "function";
}
