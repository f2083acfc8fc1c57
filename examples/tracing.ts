// OpenTelemetry spans for every call (modelgate/otel): a streamed chat whose first attempt
// meets a 429, then a tool run, under one parent span, printed as a tree. Each call is one
// CLIENT span (a tool run: one per step), the retry visible as `modelgate.attempts`, with the
// tokens, the cost and the time to the first chunk on it.
import "./offline.ts";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import ModelGate, { tool } from "modelgate";
import { instrumentModelGate } from "modelgate/otel";
import { z } from "zod";

// The usual OpenTelemetry set-up (an exporter to your backend in a real app; here, memory).
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const stopTracing = instrumentModelGate({ tracerProvider: provider });

// The first request is answered with a 429 (as a busy gateway would), so the stream is retried.
let first = true;
const client = new ModelGate({
  fetch: async (input, init) => {
    if (!first) return fetch(input, init);
    first = false;
    return Response.json({ error: { message: "Slow down.", type: "rate_limit_exceeded" } }, { status: 429, headers: { "retry-after-ms": "20" } });
  },
});
const getWeather = tool({
  name: "get_weather",
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => ({ city, celsius: 21, sky: "clear" }),
});

await provider.getTracer("example").startActiveSpan("plan a day out", async (span) => {
  const messages = [{ role: "user" as const, content: "What should I do in Lisbon today?" }];
  const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
  await stream.text();
  await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] });
  span.end();
});
stopTracing();

// The tree: each span under its parent, with what the call published.
const spans = exporter.getFinishedSpans();
const children = (parent: ReadableSpan | undefined) => spans.filter((span) => span.parentSpanContext?.spanId === parent?.spanContext().spanId);
const describe = ({ attributes: a, status }: ReadableSpan) =>
  a["gen_ai.operation.name"] === undefined
    ? ""
    : ` → ${a["gen_ai.response.model"]} via ${a["gen_ai.provider.name"]}, attempts ${a["modelgate.attempts"]}, ` +
      `tokens ${a["gen_ai.usage.input_tokens"]} in / ${a["gen_ai.usage.output_tokens"]} out, $${Number(a["modelgate.cost"]).toPrecision(2)}, ` +
      `finish ${a["gen_ai.response.finish_reasons"]}` +
      (a["modelgate.time_to_first_chunk_ms"] === undefined ? "" : `, first chunk after ${Math.round(Number(a["modelgate.time_to_first_chunk_ms"]))} ms`) +
      (status.code === 2 ? ` (failed: ${a["error.type"]})` : "");
const print = (span: ReadableSpan, indent: string) => {
  console.log(`${indent}${span.name}${describe(span)}`);
  for (const child of children(span)) print(child, `${indent}  `);
};
for (const root of children(undefined)) print(root, "");
