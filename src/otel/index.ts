// `modelgate/otel`: OpenTelemetry spans for every call, made from what the SDK publishes on the
// `modelgate:request` tracing channel. A separate entry point, so that `@opentelemetry/api`
// (an optional peer dependency) is loaded only by apps that import it, and never by `modelgate`.
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type AttributeValue, type Span, type TracerProvider } from "@opentelemetry/api";

/** Options of `instrumentModelGate()`. */
export interface InstrumentModelGateOptions {
  /** Where the spans go. @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider | undefined;
}

/** What `modelgate:request` publishes: flat GenAI semantic-convention keys (see the README). */
type CallContext = Record<string, unknown>;

type Handler = (message: CallContext) => void;
interface TracingChannel {
  subscribe(handlers: Record<"start" | "end" | "asyncStart" | "asyncEnd" | "error", Handler>): void;
  unsubscribe(handlers: Record<"start" | "end" | "asyncStart" | "asyncEnd" | "error", Handler>): void;
}
type Runtime = { getBuiltinModule?: (id: string) => { tracingChannel?: (name: string) => TracingChannel } | undefined };

/**
 * Turns every ModelGate call into one OpenTelemetry span, from any client in the process: kind
 * CLIENT, named `{gen_ai.operation.name} {gen_ai.request.model}` (`chat auto`), a child of the
 * context active when the call started, with the GenAI attributes the call published
 * (`gen_ai.usage.*`, `gen_ai.response.*`, `modelgate.attempts`, `modelgate.cost`, …), an ERROR
 * status and `error.type` when it failed. A streamed call's span ends when its body ends, is
 * cancelled or fails, not when the `Stream` is returned.
 *
 * ```ts
 * import { instrumentModelGate } from "modelgate/otel";
 * const stop = instrumentModelGate(); // the global tracer provider
 * ```
 *
 * @returns a function that unsubscribes: later calls make no span; a span already started
 *   still ends when its call settles (its handlers stay subscribed until the last one has).
 * @throws TypeError where the runtime has no `diagnostics_channel` tracing channels (Node
 *   before 20.16, browsers, workers), or when `tracerProvider` is not a tracer provider.
 */
export function instrumentModelGate(options: InstrumentModelGateOptions = {}): () => void {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  if (typeof (provider as Partial<TracerProvider> | null)?.getTracer !== "function") {
    throw new TypeError("instrumentModelGate(): tracerProvider must be an OpenTelemetry TracerProvider (with getTracer()).");
  }
  const runtime = (globalThis as { process?: Runtime }).process;
  const channel = runtime?.getBuiltinModule?.("node:diagnostics_channel")?.tracingChannel?.("modelgate:request");
  if (!channel) {
    throw new TypeError("instrumentModelGate(): this runtime has no diagnostics_channel tracing channels (Node 20.16 or later, Bun and Deno have them).");
  }
  const tracer = provider.getTracer("modelgate");
  const spans = new WeakMap<object, Span>();
  const handlers = {
    start(message: CallContext) {
      if (!subscribed) return;
      open++;
      const attributes = attributesOf(message);
      const name = [message["gen_ai.operation.name"], message["gen_ai.request.model"]].filter((part) => typeof part === "string").join(" ");
      spans.set(message, tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active()));
    },
    end() {},
    asyncStart() {},
    error(message: CallContext) {
      spans.get(message)?.setStatus({ code: SpanStatusCode.ERROR, message: String(message["error.type"]) });
    },
    asyncEnd(message: CallContext) {
      const span = spans.get(message);
      if (!span) return;
      spans.delete(message);
      span.setAttributes(attributesOf(message));
      span.end();
      if (--open === 0 && !subscribed) channel.unsubscribe(handlers);
    },
  };
  channel.subscribe(handlers);
  let subscribed = true;
  /** Spans started and not yet ended: after unsubscribing, their calls are still listened to. */
  let open = 0;
  return () => {
    if (subscribed && open === 0) channel.unsubscribe(handlers);
    subscribed = false;
  };
}

/** The context's fields that are attribute values (all of them: texts, numbers, lists of texts). */
function attributesOf(message: CallContext): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(message)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || Array.isArray(value)) attributes[key] = value as AttributeValue;
  }
  return attributes;
}
