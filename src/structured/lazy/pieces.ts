import type { StructuredPieces } from "../load.ts";

/** The SDK classes `parse()` needs, installed by `loadStructured()` before any of this code runs. */
export let pieces: StructuredPieces;

export function install(given: StructuredPieces): void {
  pieces = given;
}
