// The one place the SDK loads code on demand. Every `import()` in src/ is here.
//
// A chat app's first load holds the client, the request pipeline, the stream and its helpers,
// and error reading. The larger optional features below load on their first use, so an app
// that never calls them never downloads them: each is an ordinary module that imports what it
// uses from the rest of the SDK; a bundler that splits code gives each its own file.
//
// To add a feature that loads on demand: put it in its own folder, give it one entry module,
// add a loader for it here, and call that loader from the method that needs it. Nothing of
// the feature may be imported statically from the core (a test checks the first load).
import { APIConnectionError } from "./errors/connection-errors.ts";

const LOAD_FAILED = "Could not load part of the SDK (is the network down?)";

/** A module loaded once, on first use; a failed load (a browser gone offline) is tried again next time. */
function onDemand<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new APIConnectionError(LOAD_FAILED, { cause: error });
    }));
}

/** `parse()`: schemas, the incremental JSON parser, the structured stream. */
export const loadStructured = onDemand(() => import("./features/structured/parse.ts"));

/** `runTools()`: the tool runner. */
export const loadToolRunner = onDemand(() => import("./features/tools/runner.ts"));

/** `maxCost` and `shrinkToAffordable`: budgets, prices and the catalogue cache. */
export const loadBudget = onDemand(() => import("./features/budget/index.ts"));

/** The endpoints beside chat: embeddings, images, speech, transcriptions. */
export const loadEndpoints = onDemand(() => import("./features/endpoints/index.ts"));




/**
 * `chat.completions.stream()`: openai's `ChatCompletionStream` helper, its events and final
 * values (built on `parse()`, whose code it loads in turn). An entry of its own, so that an app
 * calling `parse()` alone does not download it.
 */
export const loadChatStream = onDemand(() => import("./features/chat-stream/index.ts"));

/** Publishing calls on the `modelgate:request` tracing channel, once something subscribes to it. */
export const loadTracing = onDemand(() => import("./features/tracing/index.ts"));
