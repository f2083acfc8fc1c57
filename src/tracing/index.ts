import { abortError, ChatCompletionAccumulator, gatewayInfo, isRecord, learnFrom, Stream, type ChatCompletionChunk, type GatewayInfo, type Outcome } from "../core.ts";
import type { PipelineConfig, Progress, RequestSpec } from "../pipeline/request.ts";
import type { RequestChannel } from "../pipeline/trace-channel.ts";
import { inputMessages, outputMessages } from "./messages.ts";

/** The object a call publishes: flat keys named as OpenTelemetry's GenAI conventions name them. */
type TraceContext = Record<string, unknown>;

/**
 * Runs one call (`call`, the request loop) and publishes it on the `modelgate:request` tracing
 * channel, which has subscribers (`subscribedChannel()`), the way Node's `tracePromise` would:
 * `start` and `end` around its synchronous start, then on settlement `error` (if it failed),
 * `asyncStart` and `asyncEnd`. A streamed call settles when its body has ended, been cancelled
 * or failed, not when the `Stream` is returned. Unlike `tracePromise`, the context never holds
 * the result: only the fields a span needs (no request, completion, chunks, or key).
 */
export function traceCall<T>(channel: RequestChannel, config: PipelineConfig, spec: RequestSpec, call: (progress: Progress) => Promise<Outcome<T>>): Promise<Outcome<T>> {
  const progress: Progress = { attempts: 0 };
  const { redact, traceContent } = config;
  const started = performance.now();
  const body = isRecord(spec.body) ? spec.body : {};
  const { path } = spec;
  const operation = path === "/v1/chat/completions" ? "chat" : path === "/v1/embeddings" ? "embeddings" : "generate_content";
  const url = new URL(config.root);
  const context: TraceContext = {
    "gen_ai.operation.name": operation,
    "gen_ai.provider.name": "modelgate",
    "server.address": redact(url.hostname),
    "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80),
  };
  /** Sets a field only when it is known; texts are cut by `redact` (a server may echo the key). */
  const set = (key: string, value: unknown) => {
    if (typeof value === "string" ? value !== "" : Number.isFinite(value)) context[key] = typeof value === "string" ? redact(value) : value;
  };
  if (operation === "generate_content") set("modelgate.endpoint", path);
  set("gen_ai.request.model", body.model);
  set("gen_ai.request.max_tokens", body.max_completion_tokens ?? body.max_tokens);
  set("gen_ai.request.temperature", body.temperature);
  if (traceContent && Array.isArray(body.messages)) set("gen_ai.input.messages", json(() => inputMessages(body.messages as unknown[])));

  /** Per choice index, for a stream (a non-streamed answer gives them all at once). */
  const reasons: unknown[] = [];
  let settled = false;
  let stopListening = () => {};
  /** Settles a stream whose raw body was read (`asResponse()`) to its end. */
  let bodyDone = () => {};
  const settle = (info: GatewayInfo | undefined, failed: boolean, error?: unknown, output?: unknown[]) => {
    if (settled) return;
    settled = true;
    stopListening();
    context["modelgate.attempts"] = progress.attempts;
    if (info) {
      set("gen_ai.provider.name", info.provider);
      set("modelgate.provider", info.provider);
      set("gen_ai.response.model", info.model);
      set("gen_ai.response.id", info.generationID);
      set("gen_ai.usage.input_tokens", info.usage?.prompt_tokens);
      set("gen_ai.usage.output_tokens", info.usage?.completion_tokens);
      set("modelgate.cost", info.cost);
    }
    const finishReasons = reasons.filter((reason) => typeof reason === "string").map(redact);
    if (finishReasons.length > 0) context["gen_ai.response.finish_reasons"] = finishReasons;
    if (traceContent && output) set("gen_ai.output.messages", json(() => outputMessages(output)));
    if (failed) {
      context["error.type"] = error instanceof Error ? error.name : "_OTHER";
      channel.error.publish(context);
    }
    channel.asyncStart.publish(context);
    channel.asyncEnd.publish(context);
  };
  /** Settles a failure with what the stream had learned (`known`), else what the error knew (an `APIError`'s gateway info). */
  const failed = (error: unknown, known?: GatewayInfo) => settle(known ?? (error as { gateway?: GatewayInfo } | null)?.gateway, true, error);
  const addReasons = (choices: unknown) => {
    if (Array.isArray(choices)) for (const choice of choices) if (isRecord(choice) && choice.finish_reason) reasons[typeof choice.index === "number" ? choice.index : 0] = choice.finish_reason;
  };

  /**
   * The raw body of a stream (`asResponse()`), settling the trace when it ends, fails or is
   * cancelled, like the chunks of the `Stream` would.
   */
  const traceBody = (response: Response, done: () => void, known: GatewayInfo | undefined): Response => {
    const reader = response.body?.getReader();
    if (!reader) return response;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done: ended, value } = await reader.read();
          if (!ended) return controller.enqueue(value);
          done();
          controller.close();
        } catch (error) {
          failed(error, known);
          controller.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** The call's stream, settling the trace however its body ends (see `settle`). */
  const traceStream = (stream: Stream<unknown>): Stream<unknown> => {
    const { controller, gateway } = stream;
    const { signal } = controller;
    // An abort ends the body whether or not anyone is reading it (a stream dropped and
    // aborted still settles); the caller's abort is a failure, as the iterator would report it.
    const onAbort = () => failed(abortError(signal), gateway);
    signal.addEventListener("abort", onAbort);
    stopListening = () => signal.removeEventListener("abort", onAbort);
    const accumulator = traceContent && operation === "chat" ? new ChatCompletionAccumulator() : undefined;
    const done = () => {
      let output: unknown[] | undefined;
      try {
        output = accumulator?.result().choices;
      } catch {
        // No chunk came: there is no output to show.
      }
      settle(gateway, false, undefined, output);
    };
    bodyDone = () => settle(gateway, false);
    return new Stream(
      () => {
        const source = stream[Symbol.asyncIterator]();
        return {
          next: () =>
            source.next().then(
              (result) => {
                if (result.done) done();
                else {
                  context["modelgate.time_to_first_chunk_ms"] ??= performance.now() - started;
                  if (isRecord(result.value)) addReasons(result.value.choices);
                  accumulator?.add(result.value as ChatCompletionChunk);
                }
                return result;
              },
              (error: unknown) => {
                failed(error, gateway);
                throw error;
              },
            ),
          // A `break` (or a tee's two readers both stopping) ends the call; it is no failure.
          return: async () => {
            const result = (await source.return?.()) ?? { done: true, value: undefined };
            done();
            return result;
          },
        };
      },
      controller,
      stream.response,
      gateway,
    );
  };

  const run = () => {
    try {
      return call(progress);
    } finally {
      channel.end.publish(context);
    }
  };
  const outcome = channel.start.runStores ? channel.start.runStores(context, run) : (channel.start.publish(context), run());
  return outcome.then(
    (result) => {
      const { data } = result;
      if (data instanceof Stream) {
        return { ...result, data: traceStream(data) as T, asResponse: async () => traceBody(await result.asResponse(), bodyDone, data.gateway) };
      }
      // `data` may still be worked out (parse() validating): the call settles with it.
      Promise.resolve(result.data).then((data) => {
        // A completion carries what the gateway did; any other answer is read here.
        let info = (data as { gateway?: GatewayInfo } | null)?.gateway;
        if (isRecord(data)) addReasons(data.choices);
        if (!info) {
          info = gatewayInfo(spec.body, result.response().headers, progress.attempts, redact);
          if (isRecord(data)) learnFrom(info, data, redact);
        }
        const choices = isRecord(data) && Array.isArray(data.choices) ? data.choices : undefined;
        settle(info, false, undefined, choices);
      }, failed);
      return result;
    },
    (error: unknown) => {
      failed(error);
      throw error;
    },
  );
}

/** The JSON text of what `make` gives, or nothing when it cannot be written as JSON (a cycle). */
function json(make: () => unknown): string | undefined {
  try {
    return JSON.stringify(make());
  } catch {
    return undefined;
  }
}
