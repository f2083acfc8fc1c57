import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { APIConnectionTimeoutError, APIUserAbortError, BudgetExceededError, ModelGate, ModelGateError, StructuredOutputError, tool, type ChatCompletionChunk } from "../src/index.ts";
import { loadTracing } from "../src/pipeline/loader.ts";
import { createMockGateway, MOCK_API_KEY, type MockGatewayOptions } from "../src/testing/index.ts";
import { turns, unhandledDuring } from "./fixtures/promises.ts";
import { useTraceEvents } from "./fixtures/trace-events.ts";

// API.md, "Middleware, tracing and per-tenant clients": every call published on the
// `modelgate:request` TracingChannel, as Node's tracePromise orders its events, with the GenAI
// fields and nothing else. The OpenTelemetry spans made from it are in otel.test.ts.

vi.mock("../src/pipeline/loader.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/pipeline/loader.ts")>();
  return { ...actual, loadTracing: vi.fn(actual.loadTracing) };
});

const trace = useTraceEvents();
const USER = [{ role: "user" as const, content: "Hi there" }];
const STREAM = { model: "auto", messages: USER, stream: true as const, stream_options: { include_usage: true } };
const lookup = tool({ name: "lookup", parameters: z.object({ q: z.string() }), run: () => "found" });
const SETTLED = ["asyncStart", "asyncEnd"];
const FAILED = ["error", "asyncStart", "asyncEnd"];
/** Every key a context may hold (API.md); any other would be something it must not carry. */
const ALLOWED = new Set([
  "gen_ai.operation.name",
  "gen_ai.provider.name",
  "gen_ai.request.model",
  "gen_ai.request.max_tokens",
  "gen_ai.request.temperature",
  "gen_ai.response.model",
  "gen_ai.response.id",
  "gen_ai.response.finish_reasons",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.input.messages",
  "gen_ai.output.messages",
  "server.address",
  "server.port",
  "error.type",
  "modelgate.endpoint",
  "modelgate.provider",
  "modelgate.cost",
  "modelgate.attempts",
  "modelgate.time_to_first_chunk_ms",
]);

function mock(options: MockGatewayOptions = {}, client: Partial<ConstructorParameters<typeof ModelGate>[0]> = {}) {
  const gateway = createMockGateway({ chunkDelayMs: 0, ...options });
  return { gateway, client: new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, ...client }) };
}

describe("the modelgate:request tracing channel", () => {
  it("publishes start and end, then asyncStart and asyncEnd when a plain call settles, on one context object", async () => {
    const { client } = mock();
    const completion = await client.chat.completions.create({ model: "auto", messages: USER, max_tokens: 50, temperature: 0.2 });
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.contexts()).toHaveLength(1);
    expect(trace.events[0]!.fields).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "modelgate",
      "gen_ai.request.model": "auto",
      "gen_ai.request.max_tokens": 50,
      "gen_ai.request.temperature": 0.2,
      "server.address": "mock.test",
      "server.port": 443,
    });
    expect(trace.ended()).toMatchObject({
      "gen_ai.provider.name": completion.provider,
      "modelgate.provider": completion.provider,
      "gen_ai.response.model": completion.model,
      "gen_ai.response.id": completion.gateway!.generationID,
      "gen_ai.response.finish_reasons": [completion.choices[0]!.finish_reason],
      "gen_ai.usage.input_tokens": completion.usage!.prompt_tokens,
      "gen_ai.usage.output_tokens": completion.usage!.completion_tokens,
      "modelgate.cost": completion.gateway!.cost,
      "modelgate.attempts": 1,
    });
    expect(trace.ended()).not.toHaveProperty("modelgate.time_to_first_chunk_ms");
  });

  it("settles a stream when its body has ended, not when the Stream is returned: attempts count the retried 429", async () => {
    const { client, gateway } = mock({}, { maxRetries: 1 });
    gateway.inject({ type: "status", status: 429, retryAfterMs: 1 });
    const stream = await client.chat.completions.create(STREAM);
    await turns();
    expect(trace.names()).toEqual(["start", "end"]);
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).not.toBe("");
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    const ended = trace.ended()!;
    expect(ended).toMatchObject({ "modelgate.attempts": 2, "gen_ai.response.finish_reasons": ["stop"], "gen_ai.response.model": stream.gateway.model });
    expect(ended["gen_ai.usage.output_tokens"]).toBe(stream.gateway.usage!.completion_tokens);
    expect(ended["modelgate.cost"]).toBe(stream.gateway.cost);
    expect(ended["modelgate.time_to_first_chunk_ms"]).toBeTypeOf("number");
    expect(ended["modelgate.time_to_first_chunk_ms"] as number).toBeGreaterThanOrEqual(0);
    expect(ended).not.toHaveProperty("error.type");
  });

  it("leaves a stream nobody reads unsettled, and settles it as a failure when it is aborted", async () => {
    const { client } = mock();
    const stream = await client.chat.completions.create(STREAM);
    await turns();
    expect(trace.names()).toEqual(["start", "end"]);
    stream.controller.abort();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()!["error.type"]).toBe("APIUserAbortError");
  });

  it("reports the caller's abort in the middle of a stream as APIUserAbortError", async () => {
    const { client } = mock({ chunkDelayMs: 5 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(STREAM, { signal: controller.signal });
    const error = await (async () => {
      try {
        for await (const _chunk of stream) controller.abort();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    // What the stream had learned before the abort stays on the call.
    expect(trace.ended()).toMatchObject({ "error.type": "APIUserAbortError", "gen_ai.response.model": stream.gateway.model, "modelgate.provider": stream.gateway.provider });
  });

  it("reports the caller's abort before the answer as a failed call", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "latency", ms: 10_000 });
    const controller = new AbortController();
    const call = client.chat.completions.create({ model: "auto", messages: USER }, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "APIUserAbortError", "modelgate.attempts": 0 });
  });

  it("reports a parse() whose answer does not validate as a failed call, with the error the caller gets", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "structured", as: "schema-violation" }, 1);
    const call = client.chat.completions.parse({ model: "openai/gpt-4.1", messages: USER, response_format: z.object({ a: z.string(), b: z.number() }) });
    await expect(call).rejects.toBeInstanceOf(StructuredOutputError);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "StructuredOutputError" });
  });

  it("stamps time_to_first_chunk_ms when the first chunk arrives, not when the caller reads it", async () => {
    const { client } = mock();
    let now = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      const stream = await client.chat.completions.create(STREAM);
      now = 40;
      // A timer turn: the chunk is read ahead while the caller is busy elsewhere.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await turns();
      now = 5_000;
      expect(await stream.text()).not.toBe("");
    } finally {
      clock.mockRestore();
    }
    await turns();
    expect(trace.ended()?.["modelgate.time_to_first_chunk_ms"]).toBe(40);
  });

  it("counts no attempt when the signal was aborted before the call, as nothing was sent", async () => {
    const fetch = vi.fn(createMockGateway());
    const aborted = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch, maxRetries: 0 });
    await expect(aborted.chat.completions.create({ model: "auto", messages: USER }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    await turns();
    expect(fetch).not.toHaveBeenCalled();
    expect(trace.ended()).toMatchObject({ "error.type": "APIUserAbortError", "modelgate.attempts": 0 });
  });

  it("treats a break out of chat.completions.stream() as the end of the call, not a failure", async () => {
    const { client } = mock();
    const helper = client.chat.completions.stream({ model: "auto", messages: USER });
    for await (const _chunk of helper) break;
    await helper.done().catch(() => {});
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.ended()).not.toHaveProperty("error.type");
  });

  it("keeps finish reasons by choice index in a map: a hostile index costs one entry, in index order", async () => {
    const huge = 4294967294;
    const chunk = (index: number, reason: string) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index, delta: { content: "x" }, finish_reason: reason }] })}\n\n`;
    const body = chunk(huge, "stop") + chunk(1e8, "length") + chunk(2, "tool_calls") + "data: [DONE]\n\n";
    const fetch = async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch, maxRetries: 0 });
    // An array indexed by choice would be 4294967295 long: counting what its length would be proves none is built.
    const lengths: number[] = [];
    const { filter } = Array.prototype;
    const spy = vi.spyOn(Array.prototype, "filter").mockImplementation(function (this: unknown[], ...args) {
      lengths.push(this.length);
      return filter.apply(this, args as never);
    });
    try {
      for await (const _chunk of await client.chat.completions.create(STREAM)) void _chunk;
      await turns();
    } finally {
      spy.mockRestore();
    }
    expect(Math.max(0, ...lengths)).toBeLessThan(100);
    expect(trace.ended()?.["gen_ai.response.finish_reasons"]).toEqual(["tool_calls", "length", "stop"]);
  });

  it("treats a break out of a stream as the end of the call, not a failure", async () => {
    const { client } = mock();
    const stream = await client.chat.completions.create(STREAM);
    for await (const _chunk of stream) break;
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.ended()).not.toHaveProperty("error.type");
  });

  it("traces a whole completion answered to stream: true as the stream of one chunk it is, asResponse() giving the body as it came", async () => {
    const whole = { id: "chatcmpl-whole", object: "chat.completion", created: 1, model: "mock/model", choices: [{ index: 0, message: { role: "assistant", content: "Whole." }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", maxRetries: 0, fetch: async () => Response.json(whole) });
    expect(await (await client.chat.completions.create(STREAM)).text()).toBe("Whole.");
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.ended()).not.toHaveProperty("error.type");
    expect(trace.ended()).toMatchObject({ "gen_ai.response.finish_reasons": ["stop"], "gen_ai.usage.output_tokens": 2 });
    // Asked after the first chunk was read ahead (a timer turn after the stream was returned).
    const call = client.chat.completions.create(STREAM);
    await call;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(JSON.parse(await (await call.asResponse()).text())).toEqual(whole);
    expect(trace.names()).toEqual(["start", "end", ...SETTLED, "start", "end", ...SETTLED]);
    expect(trace.ended(1)).not.toHaveProperty("error.type");
    // Read after its chunk was read ahead.
    const later = await client.chat.completions.create(STREAM);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await later.text()).toBe("Whole.");
    expect(trace.ended(2)).not.toHaveProperty("error.type");
    expect(trace.ended(2)!["modelgate.time_to_first_chunk_ms"]).toBeTypeOf("number");
  });

  it("settles a stream read by text()", async () => {
    const { client } = mock();
    const stream = await client.chat.completions.create(STREAM);
    await stream.text();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
  });

  it("settles a tee()d stream once, when both readers are done, even when one broke off early", async () => {
    const { client } = mock();
    const [left, right] = (await client.chat.completions.create(STREAM)).tee();
    for await (const _chunk of left) break;
    expect(trace.names()).toEqual(["start", "end"]);
    await right.text();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.ended()!["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
  });

  it("settles a stream carried by the bridge when its body has been read, and when it is cancelled", async () => {
    const { client } = mock();
    const readBody = (await client.chat.completions.create(STREAM)).toReadableStream();
    await new Response(readBody).text();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    const cancelled = (await client.chat.completions.create(STREAM)).toReadableStream();
    const reader = cancelled.getReader();
    await reader.read();
    await reader.cancel();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED, "start", "end", ...SETTLED]);
    expect(trace.ended(1)).not.toHaveProperty("error.type");
  });

  it("settles a streamed parse() when its stream has been read", async () => {
    const { client } = mock();
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const stream = await client.chat.completions.parse({ model: "openai/gpt-4.1-mini", messages: USER, response_format: Weather, stream: true });
    await turns();
    expect(trace.names()).toEqual(["start", "end"]);
    await stream.finalChatCompletion();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    expect(trace.ended()).toMatchObject({ "gen_ai.request.model": "openai/gpt-4.1-mini", "gen_ai.response.finish_reasons": ["stop"] });
  });

  it("settles a stream read as its raw body (asResponse()) when that body ends or is cancelled", async () => {
    const { client } = mock();
    const raw = await client.chat.completions.create(STREAM).asResponse();
    await turns();
    expect(trace.names()).toEqual(["start", "end"]);
    expect(await raw.text()).toContain("data: [DONE]");
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    const cancelled = await client.chat.completions.create(STREAM).asResponse();
    await cancelled.body!.cancel();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED, "start", "end", ...SETTLED]);
    expect(trace.ended(1)).not.toHaveProperty("error.type");
  });

  it("gives asResponse() a timer turn after awaiting a stream the whole raw body, traced as untraced, after reading the first chunk ahead", async () => {
    /** The raw body of a stream asked for a timer turn after it was awaited: its texts and events. */
    const rawAfterATurn = async (client: ModelGate) => {
      const call = client.chat.completions.create(STREAM);
      await call;
      // The read-ahead starts a timer turn after the stream is returned.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const lines = (await (await call.asResponse()).text()).split("\n").filter((line) => line.startsWith("data: "));
      const chunks = lines.filter((line) => line !== "data: [DONE]").map((line) => JSON.parse(line.slice(6)) as ChatCompletionChunk);
      return { text: chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join(""), roles: chunks.map((chunk) => chunk.choices[0]?.delta?.role ?? null), done: lines.at(-1) };
    };
    const { client } = mock({ reply: "Whole, every byte." });
    const traced = await rawAfterATurn(client);
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
    // The first chunk was read ahead (its time stamped) before asResponse() was called.
    expect(trace.ended()!["modelgate.time_to_first_chunk_ms"]).toBeTypeOf("number");
    trace.unsubscribe();
    const untraced = await rawAfterATurn(client);
    expect(traced).toEqual(untraced);
    expect(traced).toMatchObject({ text: "Whole, every byte.", done: "data: [DONE]" });
    expect(traced.roles[0]).toBe("assistant");
  });

  it("keeps a stream read ahead under the stream's idle timeout and the caller's abort", async () => {
    const encoder = new TextEncoder();
    const first = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }] })}\n\n`;
    // The first chunk, then keep-alives only: they never count as the server being alive.
    const fetch = async () => {
      let cancelled = false;
      const body = new ReadableStream({
        start: (controller) => controller.enqueue(encoder.encode(first)),
        pull: (controller) => new Promise<void>((resolve) => setTimeout(() => (cancelled || controller.enqueue(encoder.encode(": keep-alive\n\n")), resolve()), 5)),
        cancel: () => void (cancelled = true),
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch, maxRetries: 0, streamIdleTimeout: 50 });
    const idle = await client.chat.completions.create(STREAM);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const chunks: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of idle) chunks.push(chunk);
    })().catch((caught: unknown) => caught);
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);

    const aborted = await client.chat.completions.create(STREAM);
    await new Promise((resolve) => setTimeout(resolve, 5));
    aborted.controller.abort();
    await expect(aborted.text()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(trace.names().filter((name) => name === "error")).toHaveLength(2);
  });

  it("reads a streamed image generation whole after reading its first event ahead", async () => {
    const { client } = mock();
    const stream = await client.images.generate({ model: "openai/gpt-image-1", prompt: "a lighthouse", n: 2, stream: true, partial_images: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(["image_generation.partial_image", "image_generation.completed", "image_generation.partial_image", "image_generation.completed"]);
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
  });

  it("reports a stream that fails in the middle with the class of its error", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "stream-error", afterChunks: 2, status: 503 });
    const stream = await client.chat.completions.create(STREAM);
    await expect(stream.text()).rejects.toThrow();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()!["error.type"]).toBe("InternalServerError");
    gateway.inject({ type: "cut", afterChunks: 2 });
    await expect((await client.chat.completions.create(STREAM)).text()).rejects.toThrow();
    expect(trace.ended(1)!["error.type"]).toBe("APIConnectionError");
  });

  it("reports an error answer, after its retries, with its class and the attempts made", async () => {
    const { client, gateway } = mock({}, { maxRetries: 1 });
    gateway.inject({ type: "status", status: 429, retryAfterMs: 1 }, 2);
    await expect(client.chat.completions.create({ model: "auto", messages: USER })).rejects.toThrow();
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "RateLimitError", "modelgate.attempts": 2, "gen_ai.provider.name": "modelgate" });
  });

  it("reports a mistake in the arguments as a failed call that sent nothing", async () => {
    const { client } = mock();
    await expect(client.chat.completions.create({ model: "auto" } as never)).rejects.toBeInstanceOf(ModelGateError);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "ModelGateError", "modelgate.attempts": 0 });
  });

  it("names other operations: embeddings, and generate_content with the endpoint's path", async () => {
    const { client } = mock();
    const embeddings = await client.embeddings.create({ model: "openai/text-embedding-3-small", input: "sea" });
    await client.models.list();
    await turns();
    const [embedding, models] = trace.contexts();
    expect(embedding).toMatchObject({ "gen_ai.operation.name": "embeddings", "gen_ai.request.model": "openai/text-embedding-3-small", "gen_ai.usage.input_tokens": embeddings.usage.prompt_tokens });
    expect(embedding).not.toHaveProperty("modelgate.endpoint");
    expect(models).toMatchObject({ "gen_ai.operation.name": "generate_content", "modelgate.endpoint": "/v1/models" });
    // Fields not known are absent, not null.
    expect(Object.values(models!).filter((value) => value === null || value === undefined)).toEqual([]);
    expect(models).not.toHaveProperty("gen_ai.request.model");
  });

  it("gives the URL's port, or the scheme's default", async () => {
    for (const [baseURL, address, port] of [
      ["http://localhost:8080", "localhost", 8080],
      ["http://gateway.internal/v1", "gateway.internal", 80],
    ] as const) {
      const gateway = createMockGateway();
      const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL, fetch: gateway, maxRetries: 0, logLevel: "off" });
      await client.models.list();
      expect(trace.events.at(-1)!.fields).toMatchObject({ "server.address": address, "server.port": port });
    }
  });

  it("publishes one context per step of a tool run", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "reply", toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] });
    const result = await client.chat.completions.runTools({ model: "auto", messages: USER, tools: [lookup] });
    await turns();
    expect(result.steps).toHaveLength(2);
    expect(trace.contexts()).toHaveLength(2);
    expect(trace.names()).toEqual(["start", "end", ...SETTLED, "start", "end", ...SETTLED]);
    expect(trace.ended(0)!["gen_ai.response.finish_reasons"]).toEqual(["tool_calls"]);
    expect(trace.ended(1)!["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
  });

  it("holds only the listed fields, as texts, numbers or lists of texts: never the request, the completion or chunks", async () => {
    const { client } = mock();
    await client.chat.completions.create({ model: "auto", messages: USER });
    await (await client.chat.completions.create(STREAM)).finalChatCompletion();
    await turns();
    expect(trace.contexts()).toHaveLength(2);
    for (const context of trace.contexts()) {
      for (const [key, value] of Object.entries(context)) {
        expect(ALLOWED, key).toContain(key);
        const ok = typeof value === "string" || typeof value === "number" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
        expect(ok, `${key}: ${JSON.stringify(value)}`).toBe(true);
      }
      expect(context).not.toHaveProperty("gen_ai.input.messages");
      expect(context).not.toHaveProperty("gen_ai.output.messages");
    }
  });

  it("adds the messages as JSON strings only with traceContent: true", async () => {
    const { client } = mock({ reply: "Fine, thanks." }, { traceContent: true });
    await client.chat.completions.create({ model: "auto", messages: [{ role: "system", content: "Be brief." }, ...USER] });
    await (await client.chat.completions.create(STREAM)).text();
    await turns();
    const input = [
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Hi there" }] },
    ];
    const output = [{ role: "assistant", parts: [{ type: "text", content: "Fine, thanks." }], finish_reason: "stop" }];
    expect(JSON.parse(trace.ended(0)!["gen_ai.input.messages"] as string)).toEqual(input);
    expect(JSON.parse(trace.ended(0)!["gen_ai.output.messages"] as string)).toEqual(output);
    expect(JSON.parse(trace.ended(1)!["gen_ai.input.messages"] as string)).toEqual(input.slice(1));
    expect(JSON.parse(trace.ended(1)!["gen_ai.output.messages"] as string)).toEqual(output);
    expect(() => new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", traceContent: "yes" as never })).toThrow(/traceContent/);
  });

  it("reports messages that cannot be written as JSON as the call's failure, without them", async () => {
    const { client } = mock({}, { traceContent: true });
    const looped: Record<string, unknown> = { type: "image_url", image_url: { url: "https://example.test/a.png" } };
    looped.self = looped;
    await expect(client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: [looped] }] } as never)).rejects.toThrow(/JSON/);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "ModelGateError" });
    expect(trace.ended()).not.toHaveProperty("gen_ai.input.messages");
  });

  it("writes tool calls and tool results as the conventions' parts", async () => {
    const { client, gateway } = mock({}, { traceContent: true });
    gateway.inject({ type: "reply", toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] });
    await client.chat.completions.runTools({ model: "auto", messages: USER, tools: [lookup] });
    await turns();
    const [call] = JSON.parse(trace.ended(0)!["gen_ai.output.messages"] as string) as { parts: { type: string; id: string; name: string; arguments: string }[] }[];
    expect(call!.parts[0]).toMatchObject({ type: "tool_call", name: "lookup", arguments: '{"q":"x"}' });
    const input = JSON.parse(trace.ended(1)!["gen_ai.input.messages"] as string) as { role: string; parts: Record<string, unknown>[] }[];
    expect(input.at(-1)).toEqual({ role: "tool", parts: [{ type: "tool_call_response", id: call!.parts[0]!.id, response: "found" }] });
  });

  it("never carries the API key, not even with traceContent and a message that quotes it", async () => {
    const key = "mg-live-tracing-key-0123456789";
    const gateway = createMockGateway({ apiKey: key, chunkDelayMs: 0 });
    const client = new ModelGate({ apiKey: key, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, traceContent: true });
    const messages = [{ role: "user" as const, content: `my key is ${key}` }];
    await client.chat.completions.create({ model: "auto", messages });
    await (await client.chat.completions.create({ model: "auto", messages, stream: true })).text();
    await expect(client.chat.completions.create({ model: key, messages })).rejects.toThrow();
    await turns();
    expect(trace.contexts()).toHaveLength(3);
    for (const { fields } of trace.events) {
      const text = JSON.stringify(fields);
      for (let start = 0; start + 8 <= key.length; start++) expect(text).not.toContain(key.slice(start, start + 8));
    }
  });
});

describe("a traced stream's body and abort", () => {
  it("gives withResponse().response as asResponse() gives it, readable whenever it is read, and settles the trace at its end", async () => {
    const { client } = mock({ reply: "abc" });
    const call = client.chat.completions.create(STREAM);
    const { response } = await call.withResponse();
    expect(await call.asResponse()).toBe(response);
    // Read after the read-ahead's timer turn, which splits the body: the caller still gets it all.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const text = await response.text();
    expect(text).toContain("[DONE]");
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
  });

  it("reads withResponse().response at once without failing the read-ahead (no uncaught error)", async () => {
    const { client } = mock({ reply: "abc" });
    const { response } = await client.chat.completions.create(STREAM).withResponse();
    const uncaught = await unhandledDuring(async () => {
      expect(await response.text()).toContain("[DONE]");
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    expect(uncaught).toEqual([]);
  });

  it("hands out no chunk after the caller's abort, as untraced, though the tee holds the rest", async () => {
    const { client } = mock({ reply: "a b c d" });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(STREAM, { signal: controller.signal });
    // The read-ahead and the tee have the whole short reply by now.
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
    })().then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual([]);
  });
});

describe("the error event's context", () => {
  /** The context as it was at the `error` event of the n-th failed call. */
  const errorEvent = (call = 0) => trace.events.filter(({ event }) => event === "error")[call];

  it("carries error: the very error the call rejected with, as tracePromise sets it, and no result", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "status", status: 429, retryAfterMs: 1 });
    const refused = await client.chat.completions.create({ model: "auto", messages: USER }).catch((caught: unknown) => caught);
    gateway.inject({ type: "stream-error", afterChunks: 2, status: 503 });
    const cut = await (await client.chat.completions.create(STREAM)).text().catch((caught: unknown) => caught);
    gateway.inject({ type: "structured", as: "schema-violation" }, 1);
    const invalid = await client.chat.completions.parse({ model: "openai/gpt-4.1", messages: USER, response_format: z.object({ a: z.string(), b: z.number() }) }).catch((caught: unknown) => caught);
    await turns();
    expect([refused, cut, invalid].map((error) => (error as Error).name)).toEqual(["RateLimitError", "InternalServerError", "StructuredOutputError"]);
    for (const [index, error] of [refused, cut, invalid].entries()) {
      expect(errorEvent(index)!.fields.error).toBe(error);
      expect(errorEvent(index)!.fields).not.toHaveProperty("result");
    }
    // A call that did not fail has none.
    await client.chat.completions.create({ model: "auto", messages: USER });
    await turns();
    expect(trace.ended(3)).not.toHaveProperty("error");
  });

  it("carries the caller's abort as the APIUserAbortError the call rejected with", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "latency", ms: 10_000 });
    const controller = new AbortController();
    const call = client.chat.completions.create({ model: "auto", messages: USER }, { signal: controller.signal });
    controller.abort();
    const error = await call.catch((caught: unknown) => caught);
    await turns();
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(errorEvent()!.fields.error).toBe(error);
  });
});

describe("what a subscriber does to the context", () => {
  const { tracingChannel } = process.getBuiltinModule("node:diagnostics_channel");
  const channel = tracingChannel("modelgate:request");
  const hardenings: [string, (context: object) => void][] = [
    ["freezes it", (context) => Object.freeze(context)],
    ["seals it", (context) => Object.seal(context)],
    ["prevents extensions", (context) => Object.preventExtensions(context)],
    [
      "defines throwing setters",
      (context) => {
        for (const key of ["modelgate.attempts", "error", "error.type", "modelgate.time_to_first_chunk_ms", "gen_ai.request.model"]) {
          Object.defineProperty(context, key, { get: () => undefined, set: () => { throw new Error("setter"); }, enumerable: true });
        }
      },
    ],
  ];
  /** Runs `body` while a subscriber hardens each context at its start. */
  async function whileHardening(harden: (context: object) => void, body: () => Promise<void>) {
    // Only `start`: the other events are the recording subscriber's (useTraceEvents).
    const handlers = { start: harden } as never;
    channel.subscribe(handlers);
    try {
      return await unhandledDuring(body);
    } finally {
      channel.unsubscribe(handlers);
    }
  }

  it.each(hardenings)("when it %s, a plain call and a stream answer as untraced, and nothing goes unobserved", async (_, harden) => {
    const { client } = mock({ reply: "Still here." });
    const unhandled = await whileHardening(harden, async () => {
      expect((await client.chat.completions.create({ model: "auto", messages: USER })).choices[0]!.message.content).toBe("Still here.");
      const stream = await client.chat.completions.create(STREAM);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await stream.text()).toBe("Still here.");
      expect(await (await client.chat.completions.create(STREAM).asResponse()).text()).toContain("data: [DONE]");
      await turns();
    });
    expect(unhandled).toEqual([]);
    // Every call still settled, once.
    expect(trace.names().filter((name) => name === "asyncEnd")).toHaveLength(3);
  });

  it.each(hardenings)("when it %s, a failing call rejects with its own error, and error is left unset where it cannot be written", async (_, harden) => {
    const { client, gateway } = mock();
    const unhandled = await whileHardening(harden, async () => {
      gateway.inject({ type: "status", status: 400 });
      await expect(client.chat.completions.create({ model: "auto", messages: USER })).rejects.toHaveProperty("status", 400);
      gateway.inject({ type: "stream-error", afterChunks: 1, status: 503 });
      await expect((await client.chat.completions.create(STREAM)).text()).rejects.toHaveProperty("status", 503);
      await turns();
    });
    expect(unhandled).toEqual([]);
    expect(trace.names().filter((name) => name === "error")).toHaveLength(2);
    for (const { event, context } of trace.events) if (event === "error") expect(Object.getOwnPropertyDescriptor(context, "error")?.value).toBeUndefined();
  });

  it("when it throws, the call goes on as untraced: Node reports the subscriber's error on its own", async () => {
    const { client } = mock({ reply: "Unbroken." });
    const thrown = new Error("a subscriber's bug");
    const handlers = Object.fromEntries(["start", "end", "asyncStart", "asyncEnd", "error"].map((name) => [name, () => { throw thrown; }])) as never;
    // Node reports a subscriber's error as an uncaught exception a turn later; the test runner's own listener is set aside meanwhile.
    const runners = process.listeners("uncaughtException");
    const reported: unknown[] = [];
    const record = (error: unknown) => reported.push(error);
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", record);
    channel.subscribe(handlers);
    try {
      const unhandled = await unhandledDuring(async () => {
        expect((await client.chat.completions.create({ model: "auto", messages: USER })).choices[0]!.message.content).toBe("Unbroken.");
        expect(await (await client.chat.completions.create(STREAM)).text()).toBe("Unbroken.");
        await turns();
      });
      expect(unhandled).toEqual([]);
    } finally {
      channel.unsubscribe(handlers);
      process.off("uncaughtException", record);
      for (const listener of runners) process.on("uncaughtException", listener);
    }
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.every((error) => error === thrown)).toBe(true);
  });
});

describe("with maxCost", () => {
  it("publishes one context per call: the catalogue fetched behind maxCost publishes none of its own", async () => {
    const { client } = mock();
    await client.chat.completions.create({ model: "openai/gpt-4.1-mini", messages: USER, max_tokens: 10 }, { maxCost: 0.01 });
    await turns();
    expect(trace.contexts()).toHaveLength(1);
    expect(trace.ended()).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "openai/gpt-4.1-mini" });
  });

  it("publishes a call maxCost refuses before sending, as a failure with the error the caller gets", async () => {
    const { client } = mock();
    const tooSmall = client.chat.completions.create({ model: "openai/gpt-4.1-mini", messages: USER }, { maxCost: 1e-12 });
    await expect(tooSmall).rejects.toBeInstanceOf(BudgetExceededError);
    const unpriced = client.chat.completions.create({ model: "x/unpriced", messages: USER }, { maxCost: 0.01 });
    await expect(unpriced).rejects.toBeInstanceOf(BudgetExceededError);
    await turns();
    expect(trace.contexts()).toHaveLength(2);
    expect(trace.names()).toEqual(["start", "end", ...FAILED, "start", "end", ...FAILED]);
    expect(trace.ended(0)).toMatchObject({ "error.type": "BudgetExceededError", "gen_ai.request.model": "openai/gpt-4.1-mini", "modelgate.attempts": 0 });
    expect(trace.ended(1)).toMatchObject({ "error.type": "BudgetExceededError", "gen_ai.request.model": "x/unpriced" });
  });

  it("reports the error the caller gets when no model fits maxCost with model auto", async () => {
    const { client } = mock({ credits: 0.0005 });
    await expect(client.chat.completions.create({ model: "auto", messages: USER }, { maxCost: 1e-9 })).rejects.toBeInstanceOf(BudgetExceededError);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "BudgetExceededError" });
  });
});

describe("with an apiKey function", () => {
  it("asks for the first key before start, so no event ever shows the key the function gives", async () => {
    const key = "mg-live-function-key-0123456789";
    const gateway = createMockGateway({ apiKey: key, chunkDelayMs: 0 });
    const apiKey = vi.fn(async () => key);
    const client = new ModelGate({ apiKey, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, traceContent: true });
    const messages = [{ role: "user" as const, content: `rotate ${key}` }];
    await client.chat.completions.create({ model: `auto-${key}`, messages }).catch(() => {});
    await client.post(`/v1/echo/${key}`, { body: {} }).catch(() => {});
    await turns();
    expect(apiKey).toHaveBeenCalledTimes(2);
    expect(trace.contexts()).toHaveLength(2);
    expect(trace.names()).toEqual(["start", "end", ...FAILED, "start", "end", ...FAILED]);
    for (const { fields } of trace.events) {
      const text = JSON.stringify(fields);
      for (let start = 0; start + 8 <= key.length; start++) expect(text).not.toContain(key.slice(start, start + 8));
    }
  });

  it("publishes a key function's failure as the call's failure", async () => {
    const client = new ModelGate({ apiKey: async () => Promise.reject(new Error("vault down")), baseURL: "https://mock.test", fetch: createMockGateway(), maxRetries: 0 });
    await expect(client.chat.completions.create({ model: "auto", messages: USER })).rejects.toBeInstanceOf(ModelGateError);
    await turns();
    expect(trace.names()).toEqual(["start", "end", ...FAILED]);
    expect(trace.ended()).toMatchObject({ "error.type": "ModelGateError", "modelgate.attempts": 0 });
  });
});

describe("with nobody listening", () => {
  it("builds nothing and loads nothing of tracing, and sees a subscriber added later", async () => {
    const { client } = mock();
    trace.unsubscribe();
    vi.mocked(loadTracing).mockClear();
    await (await client.chat.completions.create(STREAM)).text();
    await client.chat.completions.create({ model: "auto", messages: USER });
    expect(loadTracing).not.toHaveBeenCalled();
    expect(trace.events).toEqual([]);
    trace.subscribe();
    await client.chat.completions.create({ model: "auto", messages: USER });
    await turns();
    expect(loadTracing).toHaveBeenCalledTimes(1);
    expect(trace.names()).toEqual(["start", "end", ...SETTLED]);
  });

  it("skips tracing where the runtime has no process.getBuiltinModule (browsers, workers)", async () => {
    const original = process.getBuiltinModule;
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      vi.resetModules();
      const fresh = (await import("../src/index.ts")) as typeof import("../src/index.ts");
      const client = new fresh.ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: createMockGateway({ chunkDelayMs: 0 }), maxRetries: 0 });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of await client.chat.completions.create(STREAM)) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      expect(trace.events).toEqual([]);
    } finally {
      process.getBuiltinModule = original;
    }
  });
});
