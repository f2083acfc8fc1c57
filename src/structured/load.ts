import { StructuredOutputError } from "../errors/structured-output-error.ts";
import { invalidArgument } from "../internal/checks.ts";
import { assertChatParams } from "../resources/chat/validate.ts";
import { loaderOf } from "../streaming/helpers.ts";
import { Stream } from "../streaming/stream.ts";

/**
 * What the lazily loaded `parse()` code (`./lazy/`) uses from the rest of the SDK besides the
 * stream helpers' pieces, handed over when it loads: see `streaming/helpers.ts` for why it is
 * not imported.
 */
const pieces = { Stream, StructuredOutputError, invalidArgument, assertChatParams };

/** The pieces `./lazy/` is given when it loads. */
export type StructuredPieces = typeof pieces;

/**
 * `parse()`'s implementation (schemas, the incremental JSON parser, the structured stream),
 * loaded on its first call, so that an app that never calls it never loads it.
 */
export const loadStructured = loaderOf(() => import("./lazy/index.ts"), pieces);
