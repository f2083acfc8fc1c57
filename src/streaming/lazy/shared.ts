import type { Shared } from "../helpers.ts";

/**
 * The SDK pieces (error classes, value helpers) these lazily loaded files use, installed by
 * `loadHelpers()` before any of them runs. Only types are imported from the rest of the SDK:
 * see `../helpers.ts` for why.
 */
export let sdk: Shared;

export function install(pieces: Shared): void {
  sdk = pieces;
}
