import type { Helpers } from "../../streaming/helpers.ts";
import { install as installShared } from "../../streaming/lazy/shared.ts";
import type { StructuredPieces } from "../load.ts";

/** The SDK classes `parse()` needs, installed by `loadStructured()` before any of this code runs. */
export let pieces: StructuredPieces;

/**
 * Takes the SDK's pieces. The stream helpers' pieces are installed again here because the
 * published build bundles this code into a file of its own (see tsup.config.ts), with its own
 * copy of the chunk accumulator and of the module that holds them.
 */
export function install(given: StructuredPieces, helpers: Helpers): void {
  pieces = given;
  installShared(helpers.sdk);
}
