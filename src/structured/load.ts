import { StructuredOutputError } from "../errors/structured-output-error.ts";
import { invalidArgument } from "../internal/checks.ts";
import { assertChatParams } from "../resources/chat/validate.ts";
import { loadHelpers } from "../streaming/helpers.ts";
import { Stream } from "../streaming/stream.ts";

/**
 * What the lazily loaded `parse()` code (`./lazy/`) uses from the rest of the SDK besides the
 * stream helpers' pieces, handed over when it loads: see `streaming/helpers.ts` for why it is
 * not imported.
 */
const pieces = { Stream, StructuredOutputError, invalidArgument, assertChatParams };

/** The pieces `./lazy/` is given when it loads. */
export type StructuredPieces = typeof pieces;

type Structured = typeof import("./lazy/index.ts");
let loading: Promise<Structured> | undefined;

/**
 * `parse()`'s implementation (schemas, the incremental JSON parser, the structured stream),
 * loaded on its first call, so that an app that never calls it never loads it. It builds on the
 * stream helpers, which load first.
 */
export function loadStructured(): Promise<Structured> {
  return (loading ??= Promise.all([loadHelpers(), import("./lazy/index.ts")])
    .then(([helpers, structured]) => {
      structured.install(pieces, helpers.sdk);
      return structured;
    })
    .catch((error: unknown) => {
      loading = undefined; // a chunk that failed to load (a network blip in a browser) is tried again next call
      throw error;
    }));
}
