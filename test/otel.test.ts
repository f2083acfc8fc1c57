import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { APIUserAbortError, ModelGate, tool } from "../src/index.ts";
import { instrumentModelGate } from "../src/otel/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGatewayOptions } from "../src/testing/index.ts";
import { turns } from "./fixtures/promises.ts";

// modelgate/otel (API.md, "Middleware, tracing and per-tenant clients"): one CLIENT span per
// call from the tracing channel, proved with the OpenTelemetry SDK's in-memory exporter.

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const USER = [{ role: "user" as const, content: "Hi there" }];
const STREAM = { model: "auto", messages: USER, stream: true as const, stream_options: { include_usage: true } };
let stop = () => {};

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
beforeEach(() => {
  exporter.reset();
  stop = instrumentModelGate({ tracerProvider: provider });
});
afterEach(() => stop());

function mock(options: MockGatewayOptions = {}, maxRetries = 0) {
  const gateway = createMockGateway({ chunkDelayMs: 0, ...options });
  return { gateway, client: new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries }) };
}

const spans = () => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  expect(spans()).toHaveLength(1);
  return spans()[0]!;
};

describe("instrumentModelGate()", () => {
  it("makes one CLIENT span for a streamed chat, ended when its body ends, the retried 429 counted as attempts", async () => {
    const { client, gateway } = mock({}, 1);
    gateway.inject({ type: "status", status: 429, retryAfterMs: 1 });
    const stream = await client.chat.completions.create(STREAM);
    expect(spans()).toHaveLength(0);
    await stream.finalChatCompletion();
    const span = only();
    expect(span.name).toBe("chat auto");
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe("modelgate");
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "auto",
      "gen_ai.provider.name": stream.gateway.provider,
      "gen_ai.response.model": stream.gateway.model,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.input_tokens": stream.gateway.usage!.prompt_tokens,
      "gen_ai.usage.output_tokens": stream.gateway.usage!.completion_tokens,
      "modelgate.cost": stream.gateway.cost,
      "modelgate.attempts": 2,
      "server.address": "mock.test",
      "server.port": 443,
    });
    expect(span.attributes["modelgate.time_to_first_chunk_ms"]).toBeTypeOf("number");
  });

  it("makes one span per step of a tool run, each a child of the span active when the run started", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "reply", toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] });
    const lookup = tool({ name: "lookup", parameters: z.object({ q: z.string() }), run: () => "found" });
    const tracer = provider.getTracer("test");
    const result = await tracer.startActiveSpan("agent", async (parent) => {
      const run = await client.chat.completions.runTools({ model: "auto", messages: USER, tools: [lookup], stream: true });
      parent.end();
      return run;
    });
    const agent = spans().find((span) => span.name === "agent")!;
    const steps = spans().filter((span) => span.name === "chat auto");
    expect(result.steps).toHaveLength(2);
    expect(steps).toHaveLength(2);
    for (const step of steps) {
      expect(step.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
      expect(step.spanContext().traceId).toBe(agent.spanContext().traceId);
    }
    expect(steps.map((step) => step.attributes["gen_ai.response.finish_reasons"])).toEqual([["tool_calls"], ["stop"]]);
  });

  it("starts a root span when no span is active", async () => {
    const { client } = mock();
    await client.chat.completions.create({ model: "auto", messages: USER });
    await turns();
    expect(only().parentSpanContext).toBeUndefined();
  });

  it("marks a failed call ERROR with error.type", async () => {
    const { client, gateway } = mock();
    gateway.inject({ type: "status", status: 400, message: "Bad model." });
    await expect(client.chat.completions.create({ model: "auto", messages: USER })).rejects.toThrow("Bad model.");
    await turns();
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("BadRequestError");
    expect(span.attributes["modelgate.attempts"]).toBe(1);
  });

  it("marks a stream the caller aborted ERROR with APIUserAbortError", async () => {
    const { client } = mock({ chunkDelayMs: 5 });
    const stream = await client.chat.completions.create(STREAM);
    const reading = stream.text();
    stream.controller.abort();
    await expect(reading).rejects.toBeInstanceOf(APIUserAbortError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("APIUserAbortError");
  });

  it("ends the span of a stream left with break, without an error", async () => {
    const { client } = mock();
    for await (const _chunk of await client.chat.completions.create(STREAM)) break;
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).not.toHaveProperty("error.type");
  });

  it("ends the span of a stream read by text(), and of a tee()d stream once, when its body has ended", async () => {
    const { client } = mock();
    await (await client.chat.completions.create(STREAM)).text();
    expect(spans()).toHaveLength(1);
    const [left, right] = (await client.chat.completions.create(STREAM)).tee();
    for await (const _chunk of left) break;
    expect(spans()).toHaveLength(1);
    await right.text();
    expect(spans()).toHaveLength(2);
    expect(spans()[1]!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
  });

  it("uses the global tracer provider when none is given", async () => {
    stop();
    trace.setGlobalTracerProvider(provider);
    stop = instrumentModelGate();
    try {
      const { client } = mock();
      await client.models.list();
      await turns();
      expect(only().name).toBe("generate_content");
      expect(only().attributes["modelgate.endpoint"]).toBe("/v1/models");
    } finally {
      trace.disable();
    }
  });

  it("stops making spans once unsubscribed", async () => {
    const { client } = mock();
    stop();
    stop();
    await client.chat.completions.create({ model: "auto", messages: USER });
    await turns();
    expect(spans()).toHaveLength(0);
  });

  it("ends a span already started when its call settles after unsubscribing, and makes no new one", async () => {
    const { client } = mock();
    const stream = await client.chat.completions.create(STREAM);
    stop();
    await client.chat.completions.create({ model: "auto", messages: USER });
    expect(spans()).toHaveLength(0);
    await stream.text();
    await turns();
    expect(only().attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
  });

  it("throws a TypeError for a tracerProvider that is not one", () => {
    expect(() => instrumentModelGate({ tracerProvider: {} as never })).toThrow(TypeError);
  });
});
