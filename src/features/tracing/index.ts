import { abortError } from "../../errors/connection-errors.ts";
import { APIError } from "../../errors/index.ts";
import { redactedBrokenBodyError } from "../../errors/fetch-failure.ts";
import { gatewayInfo, learnFrom } from "../../gateway/info.ts";
import { isRecord } from "../../internal/values.ts";
import { keyFrom } from "../../pipeline/key-function.ts";
import type { Outcome } from "../../pipeline/api-promise.ts";
import type { APIKeyFunction } from "../../pipeline/auth.ts";
import { streamOptions } from "../../pipeline/decode-success.ts";
import { finalData } from "../../pipeline/outcome-of.ts";
import { assertOptions } from "../../pipeline/call-options.ts";
import { ChatCompletionAccumulator } from "../../streaming/accumulate.ts";
import { BodyReader } from "../../streaming/body-reader.ts";
import { Stream } from "../../streaming/stream.ts";
import { sseStream } from "../../streaming/sse-chunks.ts";
import type { ChatCompletionChunk, GatewayInfo } from "../../types/index.ts";
import type { PipelineConfig, Progress, RequestSpec } from "../../pipeline/request.ts";
import type { RequestChannel } from "../../pipeline/trace-channel.ts";
import { inputMessages, outputMessages } from "./messages.ts";
import { LEFT_THE_LOOP } from "../../resources/chat/event-stream.ts";

/** The object a call publishes: flat keys named as OpenTelemetry's GenAI conventions name them. */
type TraceContext = Record<string, unknown>;

/**
 * Runs one call (`call`, the request loop) and publishes it on the `modelgate:request` tracing
 * channel, which has subscribers (`subscribedChannel()`), the way Node's `tracePromise` would:
 * `start` and `end` around its synchronous start, then on settlement `error` (if it failed),
 * `asyncStart` and `asyncEnd`. A streamed call settles when its body has ended, been cancelled
 * or failed, not when the `Stream` is returned. As `tracePromise` does, the `error` event's
 * context holds the `error` the call rejected with; unlike it, the context never holds the
 * result: only the fields a span needs (no request, completion, chunks, or key).
 *
 * Publishing never changes the call: whatever a subscriber does to the context (freezes or
 * seals it, defines a throwing setter or getter) or throws, the call goes on as it would
 * untraced, returning what it would (`asResponse()` included) and leaving no rejection unobserved.
 */
export async function traceCall<T>(channel: RequestChannel, config: PipelineConfig, spec: RequestSpec, call: (progress: Progress) => Promise<Outcome<T>>, promise?: object): Promise<Outcome<T>> {
  const progress: Progress = { attempts: 0 };
  if (spec.untraced) return call(progress);
  const { apiKey } = config;
  const options = spec.options ?? {};
  let askable = typeof apiKey !== "string";
  try {
    // A call its options or params refuse never asks for a key: it is left to refuse them.
    if (askable && spec.options !== undefined) assertOptions(spec.options);
    if (askable) spec.validate?.();
  } catch {
    askable = false;
  }
  if (askable) {
    // The first key an `apiKey` function gives is asked for before `start`, so that every field
    // the call publishes is cut by a redaction that knows it: the call's first attempt uses it
    // (its asking time is not the span's). A function that fails fails the call, published.
    try {
      progress.key = await keyFrom(apiKey as APIKeyFunction, config.rememberSecret, config.redact, options.signal, options.timeout ?? config.timeout);
    } catch (error) {
      if (error instanceof APIError) (error as { gateway: GatewayInfo }).gateway = gatewayInfo(spec.body, error.headers, 0, config.redact);
      return publishCall(channel, config, spec, progress, () => Promise.reject(error), promise);
    }
  }
  return publishCall(channel, config, spec, progress, call, promise);
}

/** Publishes one call (`call`, with the key known if a function gives it): see `traceCall`. */
function publishCall<T>(channel: RequestChannel, config: PipelineConfig, spec: RequestSpec, progress: Progress, call: (progress: Progress) => Promise<Outcome<T>>, promise?: object): Promise<Outcome<T>> {
  const { redact, traceContent } = config;
  const abortedBefore = (spec.options?.signal as AbortSignal | null | undefined)?.aborted === true;
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
  /**
   * Writes a field of the context. A subscriber may have frozen or sealed it, or defined a
   * throwing setter or getter: the field is then left as it is, and the call goes on unchanged.
   */
  const write = (key: string, value: unknown) => {
    try {
      context[key] = value;
    } catch {
      // The context is the subscribers' to keep as they like; the call is not theirs to break.
    }
  };
  /** Sets a field only when it is known; texts are cut by `redact` (a server may echo the key). */
  const set = (key: string, value: unknown) => {
    if (typeof value === "string" ? value !== "" : Number.isFinite(value)) write(key, typeof value === "string" ? redact(value) : value);
  };
  /** Publishes one event; a subscriber's failure is reported as Node reports it, never the call's. */
  const publish = (event: RequestChannel["start"]) => {
    try {
      event.publish(context);
    } catch (error) {
      reportLater(error);
    }
  };
  if (operation === "generate_content") set("modelgate.endpoint", path);
  set("gen_ai.request.model", body.model);
  set("gen_ai.request.max_tokens", body.max_completion_tokens ?? body.max_tokens);
  set("gen_ai.request.temperature", body.temperature);
  if (traceContent && Array.isArray(body.messages)) set("gen_ai.input.messages", json(() => inputMessages(body.messages as unknown[])));

  /**
   * Per choice index, for a stream (a non-streamed answer gives them all at once): a Map, so a
   * hostile index (4294967294) costs one entry, not an array that long.
   */
  const reasons = new Map<unknown, unknown>();
  let settled = false;
  let stopListening = () => {};
  /** Settles a stream whose raw body was read (`asResponse()`) to its end. */
  let bodyDone = () => {};
  /** The timer that reads a stream's first chunk ahead (see `traceStream`). */
  let readAhead: ReturnType<typeof setTimeout> | undefined;
  /**
   * Once the first chunk was read ahead: the raw body's other branch, whole, for `asResponse()`,
   * and how to stop the branch the chunks were read from (see `traceStream`).
   */
  let spare: { raw: ReadableStream<Uint8Array>; stopChunks: () => void } | undefined;
  const settle = (info: GatewayInfo | undefined, failed: boolean, error?: unknown, output?: unknown[]) => {
    if (settled) return;
    settled = true;
    stopListening();
    // A signal aborted before the call stops its first attempt before anything is sent.
    write("modelgate.attempts", abortedBefore ? 0 : progress.attempts);
    // Cut again what `start` published: a key given since (a refresh after a 401) is known now.
    for (const key in context) {
      let value: unknown;
      try {
        value = context[key];
      } catch {
        continue;
      }
      if (typeof value === "string") write(key, redact(value));
    }
    if (info) {
      set("gen_ai.provider.name", info.provider);
      set("modelgate.provider", info.provider);
      set("gen_ai.response.model", info.model);
      set("gen_ai.response.id", info.generationID);
      set("gen_ai.usage.input_tokens", info.usage?.prompt_tokens);
      set("gen_ai.usage.output_tokens", info.usage?.completion_tokens);
      set("modelgate.cost", info.cost);
    }
    const finishReasons = [...reasons]
      .sort(([a], [b]) => Number(a) - Number(b))
      .flatMap(([, reason]) => (typeof reason === "string" ? [redact(reason)] : []));
    if (finishReasons.length > 0) write("gen_ai.response.finish_reasons", finishReasons);
    if (traceContent && output) set("gen_ai.output.messages", json(() => outputMessages(output)));
    if (failed) {
      write("error.type", error instanceof Error ? error.name : "_OTHER");
      // As `tracePromise` sets it: the very error the call rejected with (the SDK's errors are redacted copies already).
      write("error", error);
      publish(channel.error);
    }
    publish(channel.asyncStart);
    publish(channel.asyncEnd);
  };
  /** Settles a failure with what the stream had learned (`known`), else what the error knew (an `APIError`'s gateway info). */
  const failed = (error: unknown, known?: GatewayInfo) => settle(known ?? (error as { gateway?: GatewayInfo } | null)?.gateway, true, error);
  const addReasons = (choices: unknown) => {
    if (Array.isArray(choices)) for (const choice of choices) if (isRecord(choice) && choice.finish_reason) reasons.set(typeof choice.index === "number" ? choice.index : 0, choice.finish_reason);
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

  /**
   * The call's stream, settling the trace however its body ends (see `settle`). `raw` gives the
   * raw body (the pipeline's `asResponse()`) and `chunksOf` the chunks of a body, read as the
   * pipeline reads the call's own.
   */
  const traceStream = (stream: Stream<unknown>, raw: () => Response | Promise<Response>, chunksOf: (body: ReadableStream<Uint8Array>) => { chunks: Stream<unknown>; stop: () => void }): Stream<unknown> => {
    const { controller, gateway } = stream;
    const { signal } = controller;
    // An abort ends the body whether or not anyone is reading it (a stream dropped and
    // aborted still settles); the caller's abort is a failure, as the iterator would report it.
    // `chat.completions.stream()` aborts with LEFT_THE_LOOP when its loop is left: that is no failure.
    const onAbort = () => ((signal.reason as { cause?: unknown } | undefined)?.cause === LEFT_THE_LOOP ? settle(gateway, false) : failed(abortError(signal), gateway));
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
    const stamp = () => {
      try {
        context["modelgate.time_to_first_chunk_ms"] ??= performance.now() - started;
      } catch {
        // A context a subscriber made unwritable (see `write`).
      }
    };
    let source: AsyncIterator<unknown> | undefined;
    /** The first chunk, asked for before the caller asks (see `readAhead`). */
    let first: Promise<IteratorResult<unknown>> | undefined;
    // The first chunk is asked for a timer turn after the stream is handed over (not at once:
    // `asResponse()`, called then, reads the raw body as it is), so that its time is when it came,
    // not when the caller got round to reading it. One chunk at most waits here. The raw body is
    // split in two first: the chunks are read from one branch, and the other stays whole for an
    // `asResponse()` called later, which gets the bytes as an untraced call would.
    readAhead = setTimeout(() => {
      if (source) return;
      let body: Response | Promise<Response>;
      try {
        body = raw();
      } catch {
        // The caller took the body first (its Stream or its raw response): nothing is read ahead.
        return;
      }
      if (!(body instanceof Response) || !body.body || body.body.locked || body.bodyUsed) return;
      const [forChunks, forRaw] = body.body.tee();
      const { chunks, stop } = chunksOf(forChunks);
      source = chunks[Symbol.asyncIterator]();
      // Stopping the chunks' branch leaves the other to the raw body (a tee cancels its source only once both are).
      spare = { raw: forRaw, stopChunks: stop };
      first = source.next();
      first.then((result) => void (result.done || stamp()), () => {});
    }, 0);
    return new Stream(
      () => {
        clearTimeout(readAhead);
        // The caller reads the chunks: the raw branch, if any, is no longer wanted (nor buffered).
        spare?.raw.cancel().catch(() => {});
        spare = undefined;
        source ??= stream[Symbol.asyncIterator]();
        const read = source;
        return {
          next: () => {
            // An abort is final, as untraced: no chunk read ahead (or buffered by the tee) is
            // handed out after it. `stream()`'s own LEFT_THE_LOOP is its end, not a failure.
            if (signal.aborted && (signal.reason as { cause?: unknown } | undefined)?.cause !== LEFT_THE_LOOP) {
              first = undefined;
              const error = abortError(signal);
              failed(error, gateway);
              return Promise.reject(error);
            }
            // Each read takes the chunk read ahead at most once.
            const pending = first ?? read.next();
            first = undefined;
            return pending.then(
              (result) => {
                if (result.done) done();
                else {
                  stamp();
                  if (isRecord(result.value)) addReasons(result.value.choices);
                  accumulator?.add(result.value as ChatCompletionChunk);
                }
                return result;
              },
              (error: unknown) => {
                failed(error, gateway);
                throw error;
              },
            );
          },
          // A `break` (or a tee's two readers both stopping) ends the call; it is no failure.
          return: async () => {
            first = undefined;
            const result = (await read.return?.()) ?? { done: true, value: undefined };
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

  let outcome: Promise<Outcome<T>> | undefined;
  const run = () => {
    try {
      return (outcome = call(progress));
    } finally {
      publish(channel.end);
    }
  };
  try {
    if (channel.start.runStores) channel.start.runStores(context, run);
    else {
      publish(channel.start);
      run();
    }
  } catch (error) {
    // Node reports a store's or subscriber's failure itself; a runtime that throws it instead
    // does not get to stop the call.
    reportLater(error);
  }
  // Run once, whether or not the stores ran it.
  outcome ??= run();
  return outcome.then(
    (result) => {
      const { data } = result;
      if (data instanceof Stream) {
        const asResponse = async () => {
          clearTimeout(readAhead);
          const kept = spare;
          spare = undefined;
          // A whole answer's chunks were read ahead from the events it stands for, not from its body.
          if (kept && result.events) {
            kept.stopChunks();
            kept.raw.cancel().catch(() => {});
          }
          if (!kept || result.events) return traceBody(await result.asResponse(), bodyDone, data.gateway);
          // The first chunk was read ahead from one branch of the body: the other is whole.
          kept.stopChunks();
          const { response } = data;
          return traceBody(new Response(kept.raw, { status: response.status, statusText: response.statusText, headers: response.headers }), bodyDone, data.gateway);
        };
        const chunksOf = (body: ReadableStream<Uint8Array>) => {
          // The same reading the pipeline gives the call's own body (its `decodeSuccess`), on a
          // branch of it: under the call's signal and its idle timeout, events decoded by the same rules.
          const reader = new BodyReader(body, { controller: data.controller, idleTimeoutMs: config.streamIdleTimeout, brokenBody: (error) => redactedBrokenBodyError(error, redact) });
          return { chunks: (spec.stream ?? sseStream)(data.response, reader, data.controller, data.gateway as GatewayInfo, streamOptions(config, spec)), stop: () => reader.cancel() };
        };
        // One Response for `withResponse().response` and `asResponse()`, as untraced: made at
        // once, its body taken from the traced raw body when it is first read, so the read-ahead
        // (which may have split the body by then) and the caller never race for one body.
        let shown: Response | undefined;
        const shownResponse = () => {
          if (shown) return shown;
          let source: ReadableStreamDefaultReader<Uint8Array> | undefined;
          const body = new ReadableStream<Uint8Array>(
            {
              async pull(sink) {
                source ??= (await asResponse()).body?.getReader();
                const next = source ? await source.read() : { done: true as const, value: undefined };
                if (next.done) sink.close();
                else sink.enqueue(next.value);
              },
              // Cancelled unread: the traced body is cancelled too, which settles the trace.
              cancel: async (reason) => {
                if (source) return source.cancel(reason);
                await (await asResponse()).body?.cancel(reason);
              },
            },
            { highWaterMark: 0 },
          );
          const { response } = data;
          return (shown = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
        };
        return { ...result, data: traceStream(data, () => result.events?.() ?? result.asResponse(), chunksOf) as T, response: shownResponse, asResponse: shownResponse };
      }
      // `data` may still be worked out (parse() validating, see `finalData`): the call settles with it.
      Promise.resolve((promise && finalData.get(promise)) ?? result.data).then((data) => {
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
      // A layer over the call may turn its failure into another (see `finalData`): that is the call's.
      const final = promise && finalData.get(promise);
      if (final) final.then(() => failed(error), failed);
      else failed(error);
      throw error;
    },
  );
}

/**
 * Reports what a subscriber threw as Node's channels do (an uncaught exception on a later turn),
 * for runtimes whose channels let it through to the publisher: the subscriber's bug is shown,
 * and the call it interrupted goes on.
 */
function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

/** The JSON text of what `make` gives, or nothing when it cannot be written as JSON (a cycle). */
function json(make: () => unknown): string | undefined {
  try {
    return JSON.stringify(make());
  } catch {
    return undefined;
  }
}
