import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ChatCompletionStream,
  ModelGate,
  ModelGateError,
  RateLimitError,
  Stream,
  StructuredOutputError,
  tool,
  type ChatCompletionChunk,
} from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGateway } from "../src/testing/index.ts";
import { hearAll, names, printed } from "./fixtures/helper-events.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";
import { eventually } from "./fixtures/mock-stream.ts";
import { follow, turns, unhandledDuring } from "./fixtures/promises.ts";
import { neverChecked } from "./fixtures/schemas.ts";

// chat.completions.stream(): openai's ChatCompletionStream helper. Where the mock gateway can
// answer both, the events are compared with those of the real `openai` package (a dev
// dependency) on a twin gateway: same requests, same answers.

const messages = [{ role: "user" as const, content: "Tell me about rivers" }];
const model = "openai/gpt-4.1-mini";
const weatherParameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
const Weather = z.object({ city: z.string(), celsius: z.number() });

let gateway: MockGateway;
let client: ModelGate;
beforeEach(() => {
  gateway = createMockGateway();
  client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 1 });
});
afterEach(async () => {
  await eventually(() => gateway.activeStreams === 0);
  expect(gateway.activeStreams, "streams of the mock gateway still running after the test").toBe(0);
});

/** openai's client on a gateway of its own that answers as `gateway` does. */
function openaiTwin(): OpenAI {
  return new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: createMockGateway() as never, maxRetries: 0 });
}

describe("chat.completions.stream(): what it returns", () => {
  it("returns a ChatCompletionStream at once, before anything is sent, whose on, off and once return it", () => {
    const stream = client.chat.completions.stream({ model, messages });
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    expect(gateway.requests).toHaveLength(0);
    const listener = () => {};
    expect(stream.on("content", listener).once("end", listener).off("content", listener)).toBe(stream);
    stream.abort();
  });

  it("queues on, once and off made before its code has loaded and makes them in order, so no listener misses an event", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const heard: string[] = [];
    const removed = () => heard.push("removed listener");
    stream.on("content", removed).on("connect", () => heard.push("connect")).once("chunk", () => heard.push("first chunk")).off("content", removed);
    await stream.done();
    expect(heard).toEqual(["connect", "first chunk"]);
  });

  it("is a ChatCompletionStream as what fromReadableStream() returns is; a runTools() run is not", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const copy = ChatCompletionStream.fromReadableStream(stream.toReadableStream());
    expect(copy).toBeInstanceOf(ChatCompletionStream);
    const run = client.chat.completions.runTools({ model, messages, tools: [] });
    expect(run).not.toBeInstanceOf(ChatCompletionStream);
    expect((null as unknown) instanceof ChatCompletionStream).toBe(false);
    await expect(run).rejects.toThrow(/tools/);
    await copy.done();
  });

  it("has messages and allChatCompletions() at once, empty, then the request's messages, the reply and its completion, as openai's", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const theirs = openaiTwin().chat.completions.stream({ model, messages });
    expect([stream.messages, stream.allChatCompletions()]).toEqual([[], []]);
    expect([theirs.messages, theirs.allChatCompletions()]).toEqual([[], []]);
    const completion = await stream.finalChatCompletion();
    await theirs.done();
    expect(stream.allChatCompletions()).toEqual([completion]);
    expect(stream.messages).toEqual([...messages, completion.choices[0]?.message]);
    expect(stream.messages.map((message) => [message.role, message.content])).toEqual(theirs.messages.map((message) => [message.role, message.content]));
  });

  it("cuts the API key out of requestID when a proxy echoes it in x-request-id, as gateway.requestID does", async () => {
    const key = "sk-live-0123456789abcdefSECRET";
    const body = sseData(chunk({ role: "assistant", content: "A" }, { finish: "stop" })) + DONE;
    const echoing = async () => new Response(body, { headers: { "content-type": "text/event-stream", "x-request-id": `req_${key}` } });
    const stream = new ModelGate({ apiKey: key, baseURL: "https://proxy.test", fetch: echoing, maxRetries: 0 }).chat.completions.stream({ model, messages });
    await stream.done();
    expect(stream.requestID).toBe("req_[redacted]");
    expect(stream.requestID).toBe(stream.gateway?.requestID);
  });

  it("has no response, requestID or gateway until connect, then those of the stream", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    expect([stream.response, stream.requestID, stream.gateway]).toEqual([undefined, undefined, undefined]);
    await stream.emitted("connect");
    expect(stream.response).toBeInstanceOf(Response);
    expect(stream.requestID).toBe(stream.response?.headers.get("x-request-id"));
    expect(stream.gateway?.requestedModel).toBe(model);
    await stream.done();
    expect(stream.gateway?.model).toBe(model);
  });

  it("sends the request as create({ stream: true }) does", async () => {
    await client.chat.completions.stream({ model, messages, temperature: 0.5 }).done();
    expect(gateway.requests[0]?.body).toEqual({ model, messages, temperature: 0.5, stream: true });
  });
});

describe("chat.completions.stream(): openai's events, compared with openai's own helper", () => {
  const cases = {
    "a text reply with usage": [{ model, messages, stream_options: { include_usage: true } }, "totalUsage"],
    "a reply calling a tool": [
      { model, messages: [{ role: "user" as const, content: "What is the weather in Paris?" }], tools: [{ type: "function" as const, function: { name: "get_weather", parameters: weatherParameters } }] },
      "tool_calls.function.arguments.done",
    ],
    "two choices": [{ model, messages, n: 2 }, "content.done"],
  } as const;
  for (const [label, [params, shown]] of Object.entries(cases)) {
    it(`emits the same events with the same payloads as openai's for ${label}`, async () => {
      const ours = hearAll(client.chat.completions.stream(params as never));
      const theirs = hearAll(openaiTwin().chat.completions.stream(params as never));
      const [mine, openai] = await Promise.all([ours.ended, theirs.ended]);
      expect(names(mine)).toEqual(names(openai));
      expect(printed(mine)).toEqual(printed(openai));
      expect(names(mine)).toContain(shown);
    });
  }

  it("emits the same log probability and refusal events as openai's for the same body", async () => {
    const token = (text: string) => ({ token: text, logprob: -0.5, bytes: null, top_logprobs: [] });
    const body = [
      chunk({ role: "assistant", content: "Hel" }, { logprobs: { content: [token("Hel")], refusal: null } }),
      chunk({ content: "lo" }, { logprobs: { content: [token("lo")], refusal: null } }),
      chunk({ refusal: "I can" }, { logprobs: { content: null, refusal: [token("I can")] } }),
      chunk({ refusal: "not." }, { logprobs: { content: null, refusal: [token("not.")] } }),
      chunk({}, { finish: "stop" }),
    ]
      .map(sseData)
      .join("");
    const answer = async () => new Response(body + DONE, { headers: { "content-type": "text/event-stream" } });
    const ours = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: answer });
    const theirs = new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: answer as never });
    const [mine, openai] = await Promise.all([hearAll(ours.chat.completions.stream({ model, messages })).ended, hearAll(theirs.chat.completions.stream({ model, messages })).ended]);
    expect(names(mine)).toEqual(names(openai));
    // openai's first logprobs event shows its first tokens twice (its snapshot shares the chunk's array); the rest agree.
    const logprobsEvents = ["logprobs.content.delta", "logprobs.content.done"];
    expect(printed(mine, logprobsEvents)).toEqual(printed(openai, logprobsEvents));
    for (const event of ["logprobs.refusal.delta", "logprobs.refusal.done", "refusal.delta", "refusal.done"]) expect(names(mine)).toContain(event);
    const contentEvents = mine.filter(({ event }) => event.startsWith("logprobs.content")).map(({ event, args }) => [event, args[0]]);
    expect(contentEvents).toEqual([
      ["logprobs.content.delta", { content: [token("Hel")], snapshot: [token("Hel"), token("lo")] }],
      ["logprobs.content.delta", { content: [token("lo")], snapshot: [token("Hel"), token("lo")] }],
      ["logprobs.content.done", { content: [token("Hel"), token("lo")] }],
    ]);
  });

  it("parses the answer of a schema as it grows, as openai's does with zodResponseFormat()", async () => {
    const question = [{ role: "user" as const, content: "Weather in Hanoi?" }];
    const ours = hearAll(client.chat.completions.stream({ model, messages: question, response_format: Weather }));
    const theirs = hearAll(openaiTwin().chat.completions.stream({ model, messages: question, response_format: zodResponseFormat(Weather, "response") }));
    const [mine, openai] = await Promise.all([ours.ended, theirs.ended]);
    expect(printed(mine)).toEqual(printed(openai));
    const deltas = mine.filter(({ event }) => event === "content.delta").map(({ args }) => (args[0] as { parsed: unknown }).parsed);
    expect(deltas[0]).toEqual({});
    const done = mine.find(({ event }) => event === "content.done")?.args[0] as { parsed: { city: string; celsius: number } };
    expect(Weather.parse(done.parsed)).toEqual(done.parsed);
  });
});

describe("chat.completions.stream(): parsing as parse() does", () => {
  it("resolves finalChatCompletion() to the checked answer, and content.done carries it", async () => {
    const stream = client.chat.completions.stream({ model, messages, response_format: Weather });
    const done = stream.emitted("content.done");
    const completion = await stream.finalChatCompletion();
    const parsed = completion.choices[0]!.message.parsed!;
    expect(typeof parsed.city).toBe("string");
    expect((await done).parsed).toEqual(parsed);
    expect(gateway.requests[0]?.body).toMatchObject({ stream: true, response_format: { type: "json_schema", json_schema: { name: "response" } } });
  });

  it("emits error with a StructuredOutputError, and no content.done, for a reply the token limit cut", async () => {
    gateway.inject({ type: "structured", as: "length" });
    const stream = client.chat.completions.stream({ model, messages, response_format: Weather });
    const { ended } = hearAll(stream);
    const heard = await ended;
    expect(names(heard)).not.toContain("content.done");
    expect(names(heard).slice(-2)).toEqual(["error", "end"]);
    const error = heard.at(-2)!.args[0];
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).message).toMatch(/cut by the token limit/);
    await expect(stream.done()).rejects.toBe(error);
    await expect(stream.finalChatCompletion()).rejects.toBe(error);
  });

  it("reports a refusal with refusal.delta and refusal.done, and parsed null", async () => {
    gateway.inject({ type: "structured", as: "refusal" });
    const stream = client.chat.completions.stream({ model, messages, response_format: Weather });
    const { ended } = hearAll(stream);
    const heard = await ended;
    expect(names(heard)).toContain("refusal.delta");
    expect(names(heard)).not.toContain("content.done");
    const refusal = heard.find(({ event }) => event === "refusal.done")?.args[0] as { refusal: string };
    const message = await stream.finalMessage();
    expect(message.refusal).toBe(refusal.refusal);
    expect(message.parsed).toBeNull();
  });

  it("gives a tool() tool's calls their arguments parsed so far on each delta, and checked on done", async () => {
    const getWeather = tool({ name: "get_weather", parameters: z.object({ city: z.string() }) });
    const stream = client.chat.completions.stream({ model, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [getWeather] });
    const { ended } = hearAll(stream);
    const heard = await ended;
    const deltas = heard.filter(({ event }) => event === "tool_calls.function.arguments.delta").map(({ args }) => args[0] as { arguments: string; parsed_arguments: unknown });
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.at(-1)?.parsed_arguments).toEqual(JSON.parse(deltas.at(-1)!.arguments));
    const done = heard.find(({ event }) => event === "tool_calls.function.arguments.done")?.args[0] as { name: string; parsed_arguments: { city: string } };
    expect(done.name).toBe("get_weather");
    expect(typeof done.parsed_arguments.city).toBe("string");
    const call = (await stream.finalChatCompletion()).choices[0]?.message.tool_calls?.[0];
    expect(call?.function.parsed_arguments).toEqual(done.parsed_arguments);
  });

  it("tells each call's arguments done exactly once, whole, when the deltas of parallel calls interleave (index 0, 1, 0) or a call's header comes before its arguments", async () => {
    const getWeather = tool({ name: "get_weather", parameters: z.object({ city: z.string() }) });
    const fragment = (index: number, args: string, id?: string) => sseData(chunk(toolFragment({ index, arguments: args, ...(id ? { id, name: "get_weather" } : {}) })));
    const bodies = {
      interleaved: [fragment(0, '{"ci', "a"), fragment(1, '{"city":"B"}', "b"), fragment(0, 'ty":"A"}')],
      headersFirst: [fragment(0, "", "a"), fragment(1, "", "b"), fragment(0, '{"city":"A"}'), fragment(1, '{"city":"B"}')],
      sequential: [fragment(0, '{"city":"A"}', "a"), fragment(1, '{"city":"B"}', "b")],
    };
    for (const [label, parts] of Object.entries(bodies)) {
      const scripted = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", maxRetries: 0, fetch: async () => sseResponse([...parts, sseData(chunk({}, { finish: "tool_calls" })), DONE]) });
      const stream = scripted.chat.completions.stream({ model, messages, tools: [getWeather] });
      const done: string[] = [];
      stream.on("tool_calls.function.arguments.done", ({ index, arguments: text, parsed_arguments }) => done.push(`${index} ${text} ${JSON.stringify(parsed_arguments)}`));
      await stream.done();
      expect(done.sort(), label).toEqual(['0 {"city":"A"} {"city":"A"}', '1 {"city":"B"} {"city":"B"}']);
    }
  });

  it("gives parsed null, and no parsed-so-far, without a schema", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const delta = await stream.emitted("content.delta");
    expect(delta.parsed).toBeUndefined();
    expect((await stream.emitted("content.done")).parsed).toBeNull();
    expect((await stream.finalMessage()).parsed).toBeNull();
  });

  it("reads a call's blank arguments as runTools() does, as no arguments: parsed_arguments {}", async () => {
    const now = tool({ name: "now", parameters: z.object({}), run: () => "12:00" });
    const events = [sseData(chunk(toolFragment({ index: 0, id: "c1", name: "now", arguments: "" }))), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    const { client: streaming } = recordingClient(() => sseResponse(events));
    const stream = streaming.chat.completions.stream({ model, messages, tools: [now] });
    const done = stream.emitted("tool_calls.function.arguments.done");
    const final = await stream.finalChatCompletion();
    expect((final.choices[0]!.message.tool_calls![0]!.function as { parsed_arguments?: unknown }).parsed_arguments).toEqual({});
    expect((await done).parsed_arguments).toEqual({});
  });
});

describe("chat.completions.stream(): final values and iteration", () => {
  it("resolves the final values from the whole reply: the completion a stream assembles, with gateway info", async () => {
    const stream = client.chat.completions.stream({ model, messages, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const assembled = await (await client.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } })).finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe(assembled.choices[0]?.message.content);
    expect(completion.gateway?.model).toBe(model);
    expect(completion.gateway?.attempts).toBe(1);
    expect(Object.keys(completion)).not.toContain("gateway");
    expect(await stream.finalContent()).toBe(assembled.choices[0]?.message.content);
    expect(await stream.finalMessage()).toMatchObject({ role: "assistant", content: assembled.choices[0]?.message.content, refusal: null });
    expect(await stream.totalUsage()).toEqual({ prompt_tokens: assembled.usage?.prompt_tokens, completion_tokens: assembled.usage?.completion_tokens, total_tokens: assembled.usage?.total_tokens });
    expect(await stream.finalFunctionToolCall()).toBeUndefined();
  });

  it("yields every chunk to a for await loop, the same chunks the chunk event gets", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const heard: ChatCompletionChunk[] = [];
    stream.on("chunk", (chunk) => heard.push(chunk));
    const iterated: ChatCompletionChunk[] = [];
    for await (const chunk of stream) iterated.push(chunk);
    expect(iterated.length).toBeGreaterThan(3);
    expect(iterated).toEqual(heard);
  });

  it("aborts the request when the loop is left early: abort, then end", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const { ended } = hearAll(stream);
    let read = 0;
    for await (const _chunk of stream) if (++read === 2) break;
    expect(names(await ended).slice(-2)).toEqual(["abort", "end"]);
    await expect(stream.done()).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(stream.finalContent()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("passes a stream through toReadableStream() to ChatCompletionStream.fromReadableStream() and Stream.fromReadableStream()", async () => {
    const source = client.chat.completions.stream({ model, messages });
    const [forHelper, forStream] = source.toReadableStream().tee();
    const copy = ChatCompletionStream.fromReadableStream(forHelper);
    const { ended } = hearAll(copy);
    const heard = await ended;
    expect(names(heard)[0]).toBe("connect");
    expect(await copy.finalContent()).toBe(await source.finalContent());
    expect(await Stream.fromReadableStream<ChatCompletionChunk>(forStream).text()).toBe(await source.finalContent());
    expect((await copy.finalMessage()).parsed).toBeNull();
  });

  it("a body made after chunks have gone by (after an await, or after the end) ends with the error frame, never a shortened answer", async () => {
    for (const lateBy of ["first chunk", "end"] as const) {
      const source = client.chat.completions.stream({ model, messages });
      if (lateBy === "end") await source.done();
      else await source.emitted("chunk");
      const copy = Stream.fromReadableStream<ChatCompletionChunk>(source.toReadableStream());
      const read: string[] = [];
      const error = await (async () => {
        for await (const each of copy) read.push(each.choices[0]?.delta.content ?? "");
      })().catch((thrown: unknown) => thrown);
      expect(error, lateBy).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/after \d+ chunk\(s\) had gone by/);
      expect(read).toEqual([]);
      expect(await source.finalContent()).toBeTruthy();
    }
  });

  it("reads a body openai's toReadableStream() wrote: its chunks as events, then the APIConnectionError of a body without an end frame", async () => {
    const theirs = openaiTwin().chat.completions.stream({ model, messages });
    const copy = ChatCompletionStream.fromReadableStream(theirs.toReadableStream());
    const heard = await hearAll(copy).ended;
    expect(names(heard)).toContain("content.delta");
    expect(names(heard).slice(-2)).toEqual(["error", "end"]);
    const error = heard.at(-2)!.args[0] as Error;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe("The stream bridge ended without its end frame: the connection was cut, or openai's toReadableStream() wrote the body (it marks no end).");
  });

  it("hands a body to openai's ChatCompletionStream.fromReadableStream(), which reads the same text", async () => {
    const { ChatCompletionStream: OpenAIChatCompletionStream } = await import("openai/lib/ChatCompletionStream");
    const source = client.chat.completions.stream({ model, messages });
    const theirs = OpenAIChatCompletionStream.fromReadableStream(source.toReadableStream());
    expect(await theirs.finalContent()).toBe(await source.finalContent());
  });
});

describe("chat.completions.stream(): failures become the error or abort event", () => {
  it("turns a mistake in the arguments into the error event, throwing nothing", async () => {
    for (const [params, options, message] of [
      [null, undefined, /`params` must be an object/],
      [{ model: "", messages }, undefined, /`model` must be a non-empty string/],
      [{ model, messages }, { structuredOutput: "yaml" }, /`structuredOutput` must be one of/],
      [{ model, messages }, { signal: "soon" }, /`signal` must be an AbortSignal/],
    ] as const) {
      const stream = client.chat.completions.stream(params as never, options as never);
      const error = await stream.emitted("error");
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(message);
      await expect(stream.done()).rejects.toBe(error);
      await expect(stream.finalChatCompletion()).rejects.toBe(error);
    }
    expect(gateway.requests).toHaveLength(0);
  });

  it("lets an error nobody listens to wait in done() instead of becoming an unhandled rejection", async () => {
    let stream: ReturnType<typeof client.chat.completions.stream> | undefined;
    const unhandled = await unhandledDuring(async () => {
      stream = client.chat.completions.stream({ model: "", messages });
    });
    expect(unhandled).toEqual([]);
    await expect(stream!.done()).rejects.toThrow(/`model`/);
  });

  it("emits abort, then end, for abort() before and after connect, for controller.abort(), and for the caller's signal", async () => {
    const early = client.chat.completions.stream({ model, messages });
    early.abort();
    expect(names(await hearAll(early).ended)).toEqual(["abort", "end"]);
    expect(gateway.requests).toHaveLength(0);

    const connected = client.chat.completions.stream({ model, messages });
    connected.once("content", () => connected.abort());
    const heard = await hearAll(connected).ended;
    expect(names(heard).slice(-2)).toEqual(["abort", "end"]);
    expect(names(heard)).not.toContain("finalChatCompletion");
    expect(connected.controller.signal.aborted).toBe(true);

    const byController = client.chat.completions.stream({ model, messages });
    byController.once("connect", () => byController.controller.abort());
    expect(names(await hearAll(byController).ended).slice(-2)).toEqual(["abort", "end"]);

    const caller = new AbortController();
    const bySignal = client.chat.completions.stream({ model, messages }, { signal: caller.signal });
    bySignal.once("connect", () => caller.abort());
    await expect(bySignal.done()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("ends with APIUserAbortError on abort() or the caller's signal while the schema's async check of the answer is pending", async () => {
    for (const how of ["abort()", "signal"] as const) {
      const { schema, checking } = neverChecked();
      const caller = new AbortController();
      const stream = client.chat.completions.stream({ model, messages, response_format: schema }, { signal: caller.signal });
      const final = follow(stream.finalChatCompletion());
      await checking;
      if (how === "abort()") stream.abort();
      else caller.abort();
      await turns();
      expect(final.standing().error, how).toBeInstanceOf(APIUserAbortError);
    }
  });

  it("keeps every promise of a Stream: a cut body is an APIConnectionError, an error inside the stream its APIError", async () => {
    gateway.inject({ type: "cut", afterChunks: 3 });
    const cut = client.chat.completions.stream({ model, messages });
    const cutError = await cut.emitted("error");
    expect(cutError).toBeInstanceOf(APIConnectionError);
    await expect(cut.finalChatCompletion()).rejects.toBe(cutError);

    gateway.inject({ type: "stream-error", afterChunks: 2, status: 429 });
    await expect(client.chat.completions.stream({ model, messages }).finalContent()).rejects.toBeInstanceOf(RateLimitError);
  });

  it("times a silent stream out with streamIdleTimeout, and retries a 429 before connecting", async () => {
    const impatient = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, streamIdleTimeout: 50 });
    gateway.inject({ type: "stall", afterChunks: 2, keepAliveMs: 10 });
    await expect(impatient.chat.completions.stream({ model, messages }).done()).rejects.toBeInstanceOf(APIConnectionTimeoutError);

    gateway.inject({ type: "status", status: 429, retryAfterMs: 1 });
    const retried = client.chat.completions.stream({ model, messages });
    await retried.done();
    expect(retried.gateway?.attempts).toBe(2);
  });

  it("turns a listener's throw into the error event, with the thrown value as its cause, and stops reading", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const bug = new TypeError("listener bug");
    stream.once("content", () => {
      throw bug;
    });
    const error = await stream.emitted("error");
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toBe("listener bug");
    expect(error.cause).toBe(bug);
  });

  it("rejects done() with the throw of an end listener after a success, instead of crashing the process", async () => {
    const crashes: unknown[] = [];
    const record = (reason: unknown) => crashes.push(reason);
    process.on("unhandledRejection", record).on("uncaughtException", record);
    try {
      const bug = new TypeError("end listener bug");
      const stream = client.chat.completions.stream({ model, messages }).on("end", () => {
        throw bug;
      });
      const error = (await stream.done().catch((failure: unknown) => failure)) as ModelGateError;
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.cause).toBe(bug);
      await expect(stream.finalContent()).rejects.toBe(error);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(crashes).toEqual([]);
    } finally {
      process.off("unhandledRejection", record).off("uncaughtException", record);
    }
  });

  it("turns a listener that is not a function into the error event before anything is sent, naming the event", async () => {
    for (const add of ["on", "once"] as const) {
      const stream = client.chat.completions.stream({ model, messages });
      stream[add]("content", "nope" as never);
      const error = await stream.emitted("error");
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(/^(on|once)\("content"\): `listener` must be a function; got "nope"/);
      await expect(stream.finalContent()).rejects.toBe(error);
    }
    expect(gateway.requests).toHaveLength(0);
  });

  it("resolves emitted() with the event's first argument, and emitted('error') with the error", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const [content, chunk] = await Promise.all([stream.emitted("content"), stream.emitted("chunk")]);
    expect(typeof content).toBe("string");
    expect(chunk.object).toBe("chat.completion.chunk");
    await stream.done();
    const failing = client.chat.completions.stream({ model: "", messages });
    await expect(failing.emitted("content")).rejects.toThrow(/`model`/);
  });

  it("lets a listener added inside a listener hear the very next event", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const order: string[] = [];
    stream.once("chunk", () => {
      order.push("chunk");
      stream.once("content", () => order.push("content"));
    });
    await stream.done();
    expect(order).toEqual(["chunk", "content"]);
  });
});
