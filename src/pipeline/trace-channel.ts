// The part of tracing every call runs: is anyone listening? Only then is the rest loaded
// (src/features/tracing/, through the loader): a call nobody traces does no tracing work, and
// a runtime without diagnostics channels (a browser) never loads tracing at all.

/** The `diagnostics_channel` `TracingChannel` every call publishes on. */
const REQUEST_CHANNEL = "modelgate:request";

/** One of a tracing channel's five channels, as far as the SDK uses it. */
interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: object): void;
  /** Publishes, then runs `fn` with the stores bound to this channel set (Node 19.9+, Bun, Deno). */
  runStores?<R>(message: object, fn: () => R): R;
}

/** Node's `TracingChannel`, as far as the SDK uses it. */
export interface RequestChannel {
  /** Missing on Bun, whose channels each say it instead. */
  readonly hasSubscribers?: boolean;
  readonly start: Channel;
  readonly end: Channel;
  readonly asyncStart: Channel;
  readonly asyncEnd: Channel;
  readonly error: Channel;
}

type DiagnosticsChannel = { tracingChannel?: (name: string) => RequestChannel };
type ProcessWithBuiltins = { getBuiltinModule?: (id: string) => DiagnosticsChannel | undefined };

/** Looked up once: `null` where the runtime has no tracing channels (browsers, workers). */
let found: RequestChannel | null | undefined;

/**
 * The request channel when anyone listens to it, else `undefined`: checked on every call, so
 * that a subscriber added later is seen, and cheaply, so that a call nobody traces builds
 * nothing. Reached through `process.getBuiltinModule` (Node 20.16+, Bun, Deno) rather than an
 * import, which would tie the SDK to runtimes that have `node:*` modules.
 */
export function subscribedChannel(): RequestChannel | undefined {
  if (found === undefined) {
    const runtime = (globalThis as { process?: ProcessWithBuiltins }).process;
    found = runtime?.getBuiltinModule?.("node:diagnostics_channel")?.tracingChannel?.(REQUEST_CHANNEL) ?? null;
  }
  const channel = found;
  if (!channel) return undefined;
  const listened = channel.hasSubscribers ?? [channel.start, channel.end, channel.asyncStart, channel.asyncEnd, channel.error].some((one) => one.hasSubscribers);
  return listened ? channel : undefined;
}
