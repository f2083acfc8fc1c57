// The one place the SDK loads code on demand. Every `import()` in src/ is here, and every module
// it loads is the entry of a folder under src/features/.
//
// A chat app's first load holds the client, the whole request path, the stream and its helpers,
// and error reading: nothing a chat call reaches, whether it succeeds or fails, is fetched on
// first use. The large optional features below load on their first use, so an app that never
// calls them never downloads them: each is an ordinary module that imports what it uses from
// the rest of the SDK; a bundler that splits code gives it files of its own.
//
// To add a feature that loads on demand: give it a folder under src/features/ with one entry
// module, add a loader for it here, and call that loader from the method that needs it, with
// the call's bounds. Nothing under src/features/ may be imported statically from outside it
// (test/architecture.test.ts checks it).
import { APIConnectionTimeoutError } from "../errors/connection-errors.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import { limits } from "./limits.ts";
import { unlessAborted } from "./unless-aborted.ts";

/** What bounds a call's wait for code: the call's own `signal` and `timeout`, as they bound its attempts. */
export interface LoadBounds {
  /** The caller's signal: its abort ends the wait with `APIUserAbortError`. */
  signal?: AbortSignal | null | undefined;
  /** Milliseconds: past them the wait ends with `APIConnectionTimeoutError` (`Infinity`: no limit). */
  timeout: number;
}

/**
 * A module loaded once, on first use, and the wait for it bounded by each call that asks.
 * A load that fails rejects every call waiting on it with a `ModelGateError` naming `feature`,
 * the loader's error as its `cause`; the next call asks again, though the runtime may answer
 * with the same failure (Node and browsers keep a failed `import()` in their module maps).
 */
function onDemand<Module>(feature: string, load: () => Promise<Module>): (bounds: LoadBounds) => Promise<Module> {
  let loading: Promise<Module> | undefined;
  /** Once loaded, a call waits for nothing, whatever its signal says: an aborted call fails in its own steps. */
  let loaded: Module | undefined;
  const start = () =>
    (loading ??= load().then((module) => (loaded = module), (error: unknown) => {
      loading = undefined;
      throw new ModelGateError(
        `Could not load the code of ${feature}, so nothing was sent; the loader's error is the \`cause\`. A runtime may keep answering with that failure until the page is reloaded or the process restarted (Node and browsers keep a failed import() in their module maps).`,
        { cause: error },
      );
    }));
  return async ({ signal, timeout }) => {
    if (loaded) return loaded;
    const { controller, release } = limits(signal, timeout, () => new APIConnectionTimeoutError(`The code of ${feature} did not load within ${timeout} ms (timeout), so nothing was sent.`));
    try {
      return await unlessAborted(start(), controller.signal);
    } finally {
      release();
    }
  };
}

// Making a loader has no side effect (it only builds the closure above), and each call below
// says so (`@__PURE__`): a page that never uses a loader leaves it out, and with it that
// feature's import(), so a page can load only the features it calls.

/**
 * Structured outputs: schemas, the incremental JSON parser, the structured stream. `parse()`
 * needs it, and so do `stream()` and a `create()` given `tool()` tools, whose callers are told
 * so when it cannot load: they never called `parse()`.
 */
export const loadStructured = /* @__PURE__ */ onDemand("structured outputs (the schema reading of parse(), of stream() and of tool() tools)", () => import("../features/structured/parse.ts"));

/** `runTools()`: the tool runner. */
export const loadToolRunner = /* @__PURE__ */ onDemand("runTools() (the tool runner)", () => import("../features/tools/runner.ts"));

/** `maxCost` and `shrinkToAffordable`: budgets, prices and the catalogue cache. */
export const loadBudget = /* @__PURE__ */ onDemand("budgets (maxCost, shrinkToAffordable)", () => import("../features/budget/index.ts"));

/** The endpoints beside chat and models: embeddings, images, speech, transcriptions. */
export const loadEndpoints = /* @__PURE__ */ onDemand("the embeddings, images and audio endpoints", () => import("../features/endpoints/index.ts"));

/**
 * `chat.completions.stream()`: openai's `ChatCompletionStream` helper, its events and final
 * values (built on `parse()`, whose code it needs too).
 */
export const loadChatStream = /* @__PURE__ */ onDemand("chat.completions.stream() (the stream helper)", () => import("../features/chat-stream/index.ts"));

/** Publishing calls on the `modelgate:request` tracing channel, once something subscribes to it. */
export const loadTracing = /* @__PURE__ */ onDemand("tracing", () => import("../features/tracing/index.ts"));
