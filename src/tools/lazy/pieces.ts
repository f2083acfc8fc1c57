import type { Helpers } from "../../streaming/helpers.ts";
import { install as installShared } from "../../streaming/lazy/shared.ts";
import type { RunnerPieces } from "../load.ts";

/** The SDK pieces the runner uses, installed by `loadRunner()` before any of this code runs. */
export let pieces: RunnerPieces;
/** The loaded helpers module: its catalogue cache is the client's one, shared with `maxCost`. */
export let helpers: Helpers;

/**
 * Takes the SDK's pieces. The stream helpers' shared pieces are installed here again because
 * the published build bundles this code into a file of its own (see tsup.config.ts).
 */
export function install(given: RunnerPieces, loadedHelpers: Helpers): void {
  pieces = given;
  helpers = loadedHelpers;
  installShared(loadedHelpers.sdk);
}
