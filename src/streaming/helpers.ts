import { APIError } from "../errors/api-error.ts";
import { BudgetExceededError } from "../errors/budget-exceeded-error.ts";
import { abortError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "../errors/connection-errors.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { apiErrorForStatus } from "../errors/status-errors.ts";
import { untilAborted } from "../internal/until-aborted.ts";
import { excerpt, isRecord, MAX_TIMER_MS } from "../internal/values.ts";
import { assertAPIKey } from "../pipeline/auth.ts";
import { invalidArgument } from "../internal/checks.ts";
import { assertChatParams } from "../resources/chat/validate.ts";

/**
 * What the lazily loaded helpers (`./lazy/`: the chunk accumulator, the stream bridge, `tee()`,
 * a stream's raw body; and the error reader, `errors/read-body.ts`) use from the rest of the
 * SDK, handed to them when they load instead of imported. A static import from the lazy files would make every code-splitting bundler
 * (esbuild, Rollup) move these modules into a third, shared file of the chat app's first
 * load, which measured 600 B gzip more than keeping them in the main file.
 */
const shared = {
  ModelGateError,
  APIError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BudgetExceededError,
  apiErrorForStatus,
  abortError,
  assertAPIKey,
  invalidArgument,
  assertChatParams,
  untilAborted,
  excerpt,
  isRecord,
  MAX_TIMER_MS,
};

/** The SDK pieces the lazy helpers use; see `loadHelpers()`. */
export type Shared = typeof shared;

type Helpers = typeof import("./lazy/index.ts");
let loading: Promise<Helpers> | undefined;

const LOAD_FAILED = "A part of the SDK that loads on first use (the error reader, the stream helpers) could not be loaded; is the network down?";

/**
 * The lazy helpers, loaded on first use (one dynamic import for all of them). A failed load
 * (a network blip in a browser) is tried again on the next use.
 */
export function loadHelpers(): Promise<Helpers> {
  return (loading ??= import("./lazy/index.ts").then(
    (helpers) => {
      helpers.install(shared);
      return helpers;
    },
    (error: unknown) => {
      loading = undefined;
      throw new APIConnectionError(LOAD_FAILED, { cause: error });
    },
  ));
}

/**
 * A loader for a lazily loaded part that builds on the helpers (`parse()`, the tool runner):
 * it loads once, with the helpers, and is handed `pieces` of the SDK and the helpers module
 * (whose caches it shares) before anything of it runs. A failed load is tried again next time.
 */
export function loaderOf<Part extends { install(pieces: Pieces, helpers: Helpers): void }, Pieces>(load: () => Promise<Part>, pieces: Pieces): () => Promise<Part> {
  let loading: Promise<Part> | undefined;
  return () =>
    (loading ??= Promise.all([loadHelpers(), load()]).then(
      ([helpers, part]) => {
        part.install(pieces, helpers);
        return part;
      },
      (error: unknown) => {
        loading = undefined;
        throw error instanceof APIConnectionError ? error : new APIConnectionError(LOAD_FAILED, { cause: error });
      },
    ));
}

/** The loaded helpers module. */
export type { Helpers };
