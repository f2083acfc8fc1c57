/** The JavaScript runtime the SDK is running in, reported to the gateway for diagnostics. */
export interface RuntimeInfo {
  name: "node" | "bun" | "deno" | "workerd" | "browser" | "unknown";
  version: string;
}

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

/** Bun and Deno also define `process`, so they are recognised before Node. */
export function detectRuntime(): RuntimeInfo {
  const g = globalThis as RuntimeGlobals;
  if (typeof g.Bun?.version === "string") return { name: "bun", version: g.Bun.version };
  if (typeof g.Deno?.version?.deno === "string") return { name: "deno", version: g.Deno.version.deno };
  if (typeof g.process?.versions?.node === "string") {
    return { name: "node", version: g.process.versions.node };
  }
  const userAgent = g.navigator?.userAgent ?? "";
  if (userAgent === "Cloudflare-Workers") return { name: "workerd", version: "unknown" };
  if (isBrowserLike()) return { name: "browser", version: "unknown" };
  return { name: "unknown", version: "unknown" };
}

/**
 * True where the code most likely runs in a web page (or a web worker of one), where an API key
 * would be readable by the page's visitors.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as RuntimeGlobals;
  const hasDocument = typeof g.window !== "undefined" && typeof g.document !== "undefined";
  const isWebWorker = typeof g.importScripts === "function";
  return hasDocument || isWebWorker;
}
