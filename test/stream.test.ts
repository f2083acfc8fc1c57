import { http, HttpResponse } from "msw";
import { ChatCompletionStream as OpenAIChatCompletionStream } from "openai/lib/ChatCompletionStream";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  ModelGateError,
  RateLimitError,
  Stream,
  type ChatCompletionChunk,
} from "../src/index.ts";
import { respondWith, sseResponse, streamedBody } from "./fixtures/body.ts";
import { chunk, contentEvent, DONE, sseData } from "./fixtures/chunks.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { readAborting } from "./fixtures/mock-stream.ts";
import { API_KEY, BASE, USER_HELLO, testClient, useMockServer } from "./fixtures/server.ts";

const server = useMockServer();

/** Serves `parts` as the streamed body through msw. */
function serve(parts: string[], options: { breakOff?: boolean; headers?: Record<string, string> } = {}) {
  server.use(http.post(`${BASE}/v1/chat/completions`, () => sseResponse(parts, options)));
}

/**
 * A client whose fetch hands back a body we control directly (msw's own piping would hide
 * whether the SDK cancelled it), and the state of that body.
 */
function clientWithObservedBody(parts: string[]) {
  const { body, state } = streamedBody(parts);
  const client = testClient({ fetch: respondWith(() => new Response(body, { headers: { "content-type": "text/event-stream" } })) });
  return { client, state };
}

const openStream = (client = testClient()) =>
  client.chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });

/** Collects the contents that arrived before the stream ended or threw. */
async function drain(stream: Stream<ChatCompletionChunk>) {
  const contents: string[] = [];
  try {
    for await (const chunk of stream) contents.push(chunk.choices[0]?.delta.content ?? "");
    return { contents, error: undefined };
  } catch (error) {
    return { contents, error: error as Error };
  }
}

describe("how a stream ends", () => {
  it("ends normally at [DONE] and ignores anything after it", async () => {
    serve([contentEvent("a"), contentEvent("b"), DONE, contentEvent("after")]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a", "b"]);
  });

  it("ends normally at a [DONE] with whitespace around it, as openai's reader does", async () => {
    serve([contentEvent("a"), "data: [DONE] \n\n", contentEvent("after")]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a"]);
  });

  it("ends normally without [DONE] when a chunk carried a finish_reason", async () => {
    serve([contentEvent("a"), contentEvent(null, "stop")]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a", ""]);
  });

  it("throws APIConnectionError when the body closes without [DONE] or a finish_reason", async () => {
    serve([contentEvent("Hello, "), contentEvent("wor")]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["Hello, ", "wor"]);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/ended before it finished/);
  });

  it("throws APIConnectionError after the chunks that arrived when the connection breaks off", async () => {
    serve([contentEvent("a"), contentEvent("b")], { breakOff: true });
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a", "b"]);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it("throws APIConnectionError when the connection breaks off after every choice finished, without [DONE]", async () => {
    // Only a clean close is read by the finish_reason rule: a cut the transport reveals is a cut.
    serve([contentEvent("a"), contentEvent(null, "stop")], { breakOff: true });
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a", ""]);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/broke off/);
  });

  it("treats a final event cut off mid-way as truncation, not a JSON error", async () => {
    serve([contentEvent("a"), 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"tr']);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toBe('The stream ended in the middle of an event (its data is incomplete: "{\\"id\\":\\"x\\",\\"choices\\":[{\\"index\\":0,\\"delta\\":{\\"content\\":\\"tr").');
  });

  it("throws APIConnectionError for a choice at index -1 cut mid-answer, though another finished", async () => {
    serve([sseData(chunk({ content: "cut mid-sen" }, { index: -1 })), sseData(chunk({ content: "b" }, { finish: "stop" }))]);
    const { error } = await drain(await openStream());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/choice -1 had no finish_reason/);
  });

  it("dispatches a complete final event that lacks the trailing blank line", async () => {
    serve([contentEvent("a"), contentEvent("b", "stop").trimEnd()]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a", "b"]);
  });
});

describe("errors inside a stream", () => {
  it("throws the APIError subclass of the code of a chunk that carries error", async () => {
    const errorChunk = { ...chunk({}, { finish: "error" }), error: { code: 429, message: "Provider rate limited" } };
    serve([contentEvent("a"), sseData(errorChunk), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toContain("Provider rate limited");
  });

  it.each([false, 0, ""])("reads a chunk whose error field is %j as a chunk, as openai does, not as an error", async (falsy) => {
    serve([sseData({ ...chunk({ content: "a" }), error: falsy }), sseData(chunk({ content: "b" }, { finish: "stop" })), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a", "b"]);
  });

  it("throws an APIError from an `event: error` with JSON data", async () => {
    serve([contentEvent("a"), 'event: error\ndata: {"error":{"message":"upstream died","code":502}}\n\n']);
    const { error } = await drain(await openStream());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error?.message).toContain("upstream died");
  });

  it("throws an APIError carrying the text of an `event: error` with plain-text data", async () => {
    serve(["event: error\ndata: overloaded, try later\n\n"]);
    const { error } = await drain(await openStream());
    expect(error).toBeInstanceOf(APIError);
    expect(error?.message).toBe("overloaded, try later");
  });

  // llama.cpp's server (tools/server/server.cpp) reports a failure mid-stream with
  // `server_sent_event(sink, "error", error_data)`, then writes `data: [DONE]`; the body is the
  // one its format_error_response builds.
  it("throws the APIError of an `error:` field (llama.cpp) by its code, though [DONE] follows and the event has no data", async () => {
    const failure = '{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}';
    serve([contentEvent("a"), `error: ${failure}\n\n`, DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toContain("the request exceeds the available context size");
    expect((error as APIError).type).toBe("exceed_context_size_error");
  });

  it("throws an APIError carrying the text of an `error:` field that is not JSON, and yields none of the event's data", async () => {
    serve([`error: model crashed\n${sseData(chunk({ content: "never shown" }))}`, contentEvent("b", "stop"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual([]);
    expect(error).toBeInstanceOf(APIError);
    expect(error?.message).toBe("model crashed");
  });

  it("throws a ModelGateError showing an excerpt for malformed JSON in the middle of a stream", async () => {
    serve([contentEvent("a"), "data: {not json}\n\n", contentEvent("b"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/not valid JSON.*\{not json\}/);
  });
});

describe("limits", () => {
  it("fails with a ModelGateError naming maxSSELineLength when a line exceeds it, instead of buffering on", async () => {
    serve([contentEvent("a"), `data: ${"x".repeat(300)}`, "\n\n", DONE]);
    const { contents, error } = await drain(await openStream(testClient({ maxSSELineLength: 200 })));
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error?.message).toBe("A stream line exceeded 200 characters; raise the client's `maxSSELineLength` option if this is expected.");
  });
});

describe("lenient decoding", () => {
  it("skips keep-alive comments, events without data, empty data and named non-message events", async () => {
    serve([": PROCESSING\n\n", "event: ping\n\n", "data:\n\n", 'event: ping\ndata: {"t":1}\n\n', contentEvent("a"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a"]);
  });

  // Review finding F4: `event: completion` framing lost the whole answer, text() resolving "".
  it("reads a named event that holds a chunk, and skips a named ping's text", async () => {
    serve([`event: completion\n${contentEvent("a")}`, "event: ping\ndata: still here\n\n", `event: completion\n${contentEvent("b", "stop")}`, DONE]);
    const { contents, error } = await drain(await openStream());
    expect(error).toBeUndefined();
    expect(contents).toEqual(["a", "b"]);
  });

  it("throws the error a named event carries instead of passing it over", async () => {
    serve([contentEvent("a"), 'event: status\ndata: {"error":{"message":"upstream died","code":502}}\n\n', contentEvent("b"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(APIError);
    expect(error?.message).toContain("upstream died");
  });

  // Azure OpenAI's content-filter chunks carry a choice without `delta` (MicrosoftDocs
  // azure-ai-docs, articles/ai-foundry/openai/concepts/content-streaming.md, "asynchronous filter").
  it("yields a choice without delta with an enumerable empty delta, so the README loop reads on", async () => {
    const annotation = {
      id: "",
      object: "",
      created: 0,
      model: "",
      choices: [{ index: 0, finish_reason: null, content_filter_results: { hate: { filtered: false, severity: "safe" } }, content_filter_offsets: { check_offset: 44, start_offset: 44, end_offset: 198 } }],
      usage: null,
    };
    serve([contentEvent("Hello"), sseData(annotation), contentEvent(" there", "stop"), DONE]);
    const chunks: ChatCompletionChunk[] = [];
    let text = "";
    for await (const piece of await openStream()) {
      chunks.push(piece);
      text += piece.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe("Hello there");
    expect(chunks[1]!.choices[0]!.delta).toEqual({});
    expect(Object.keys(chunks[1]!.choices[0]!)).toContain("delta");
  });

  it("reads a choice index sent as a numeric string as that number, keeping two choices apart", async () => {
    const at = (index: unknown, delta: object, finish: string | null = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index, delta, finish_reason: finish }] });
    serve([sseData(at("0", { content: "A" })), sseData(at("1", { content: "B" })), sseData(at("0", {}, "stop")), sseData(at("1", {}, "stop")), DONE]);
    const completion = await (await openStream()).finalChatCompletion();
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, "A"],
      [1, "B"],
    ]);
  });

  it("reads a lone choice object instead of a list as a list of one", async () => {
    serve([sseData({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: { index: 0, delta: { content: "x" }, finish_reason: "stop" } }), DONE]);
    const completion = await (await openStream()).finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("x");
  });

  it.each([0.5, "first", { n: 1 }])("throws a ModelGateError for a choice index it cannot place (%j), never merging it into choice 0", async (index) => {
    serve([contentEvent("a"), sseData({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index, delta: { content: "b" }, finish_reason: null }] }), contentEvent(null, "stop"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error?.message).toBe(`The stream sent a choice whose index is ${JSON.stringify(index)}, not a whole number, so it cannot be told which choice it continues.`);
  });

  it.each([42, { text: "x" }, true])("throws a ModelGateError for a delta content it cannot read (%j), instead of dropping it", async (content) => {
    serve([contentEvent("a"), sseData({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] }), contentEvent(null, "stop"), DONE]);
    const { contents, error } = await drain(await openStream());
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error?.message).toBe(`The stream sent a delta whose content is ${JSON.stringify(content)}, neither text nor a list of parts, so the answer cannot be read.`);
  });

  it.each([0, "lots", true])("takes a usage that is no object (%j) for no usage: not the completion's, and not the usage chunk include_usage waits for", async (usage) => {
    const body = [contentEvent("a", "stop"), sseData({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage })];
    serve([...body, DONE]);
    const whole = await openStream();
    expect((await whole.finalChatCompletion()).usage).toBeUndefined();
    expect(whole.gateway.usage).toBeNull();
    serve(body);
    const { error } = await drain(await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true, stream_options: { include_usage: true } }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/no usage chunk/);
  });

  it("reads a numeric tool call id as its text, as a tool result must quote it back", async () => {
    const call = { index: 0, id: 5, type: "function", function: { name: "f", arguments: "{}" } };
    serve([sseData({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: "tool_calls" }] }), DONE]);
    const completion = await (await openStream()).finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls?.[0]?.id).toBe("5");
  });

  it("decodes CRLF framing split at odd places", async () => {
    const text = (contentEvent("x") + contentEvent("y", "stop") + DONE).replaceAll("\n", "\r\n");
    serve([text.slice(0, 7), text.slice(7, 50), text.slice(50)]);
    const { contents } = await drain(await openStream());
    expect(contents).toEqual(["x", "y"]);
  });
});

describe("what every reader of the chunks sees", () => {
  // LiteLLM's ollama_chat adapter sends every parallel call at index 0, each with its own id
  // (BerriAI/litellm#33678; the same from Ollama itself, vercel/ai#14277); then fragments with
  // the call's id or none continue it.
  const parallelAtZero = [
    sseData(chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path": ' } }] })),
    sseData(chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.rs"}' } }] })),
    sseData(chunk({ tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path": ' } }] })),
    sseData(chunk({ tool_calls: [{ index: 0, id: "call_b", function: { arguments: '"b.rs"}' } }] })),
    sseData(chunk({}, { finish: "tool_calls" })),
    DONE,
  ];
  const twoCalls = [
    { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path": "a.rs"}' } },
    { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path": "b.rs"}' } },
  ];

  it("sees two calls where parallel calls with their own ids share index 0: finalChatCompletion(), the bridge, openai's reader, stream()", async () => {
    serve(parallelAtZero);
    const [direct, rest] = (await openStream()).tee();
    const [bridged, forOpenAI] = rest.tee();
    const openaiReader = OpenAIChatCompletionStream.fromReadableStream(forOpenAI.toReadableStream());
    const readers = await Promise.all([
      direct.finalChatCompletion(),
      Stream.fromReadableStream<ChatCompletionChunk>(bridged.toReadableStream()).finalChatCompletion(),
      openaiReader.finalChatCompletion(),
    ]);
    for (const completion of readers) expect(completion.choices[0]!.message.tool_calls).toMatchObject(twoCalls);
    serve(parallelAtZero);
    const helper = testClient().chat.completions.stream({ model: "auto", messages: USER_HELLO });
    expect((await helper.finalChatCompletion()).choices[0]!.message.tool_calls).toMatchObject(twoCalls);
  });

  it("gives the chunks the indexes of the calls: a moved call's later fragments too", async () => {
    serve(parallelAtZero);
    const indexes: number[] = [];
    for await (const piece of await openStream()) for (const fragment of piece.choices[0]?.delta.tool_calls ?? []) indexes.push(fragment.index);
    expect(indexes).toEqual([0, 0, 1, 1]);
  });

  // Groq's legacy usage, on the last chunk under x_groq (vercel/ai,
  // packages/groq/src/groq-chat-language-model.test.ts, its recorded tool-call stream).
  it("reads x_groq.usage as the usage of a chunk without one: finalChatCompletion().usage, stream.gateway and the include_usage end", async () => {
    const usage = { queue_time: 0.061348671, prompt_tokens: 18, prompt_time: 0.000211569, completion_tokens: 439, completion_time: 0.798181818, total_tokens: 457, total_time: 0.798393387 };
    const last = { ...chunk({}, { finish: "stop" }), system_fingerprint: "fp_10c08bf97d", x_groq: { id: "req_01jadadp0femyae9kav1gpkhe8", usage } };
    // No [DONE]: the close is whole only because the usage chunk came.
    serve([contentEvent("Hi"), sseData(last)]);
    const stream = await testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    expect(completion.usage).toEqual(usage);
    expect(stream.gateway.usage).toEqual(usage);
  });
});

describe("cancellation", () => {
  it("cancels the HTTP body when the loop breaks", async () => {
    const { client, state } = clientWithObservedBody([contentEvent("a"), contentEvent("b"), contentEvent("c"), DONE]);
    const stream = await openStream(client);
    for await (const _ of stream) break;
    expect(state.cancelled, "the SDK cancelled the HTTP body").toBe(true);
    expect(state.pulls, "reads of the HTTP body").toBe(1);
  });

  it("throws APIUserAbortError when stream.controller aborts mid-stream", async () => {
    const { client, state } = clientWithObservedBody([contentEvent("a"), contentEvent("b"), contentEvent("c"), DONE]);
    const stream = await openStream(client);
    const contents: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) {
        contents.push(chunk.choices[0]?.delta.content ?? "");
        stream.controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(contents).toEqual(["a"]);
    expect(state.cancelled, "the SDK cancelled the HTTP body").toBe(true);
  });

  it("throws APIUserAbortError when the caller's signal aborts mid-stream", async () => {
    serve([contentEvent("a"), contentEvent("b"), DONE]);
    const controller = new AbortController();
    const stream = await testClient().chat.completions.create(
      { model: "auto", messages: USER_HELLO, stream: true },
      { signal: controller.signal },
    );
    controller.abort();
    const { error } = await drain(stream);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  // Twenty chunks in one network read: all of them have arrived when the loop aborts after the first.
  const wholeReply = () => [Array.from({ length: 19 }, (_, n) => contentEvent(`w${n} `)).join("") + contentEvent("end", "stop") + DONE];

  it("hands out no chunk that had already arrived after stream.controller.abort(), and throws APIUserAbortError", async () => {
    serve(wholeReply());
    const stream = await openStream();
    const { seen, error } = await readAborting(stream, () => stream.controller.abort());
    expect(seen).toEqual(["w0 "]);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it("hands out nothing more after an abort through textStream, text() and each side of tee()", async () => {
    const open = async (signal?: AbortSignal) => {
      serve(wholeReply());
      return testClient().chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true }, { signal });
    };
    const controller = new AbortController();
    const pieces: string[] = [];
    const byCaller = await (async () => {
      for await (const piece of (await open(controller.signal)).textStream) {
        pieces.push(piece);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(pieces).toEqual(["w0 "]);
    expect(byCaller).toBeInstanceOf(APIUserAbortError);

    // The whole reply, [DONE] included, is in the first read: text() must not resolve to it.
    const whole = await open();
    whole.controller.abort();
    await expect(whole.text()).rejects.toBeInstanceOf(APIUserAbortError);

    const [first, second] = (await open()).tee();
    const firstSide = await readAborting(first, () => first.controller.abort());
    expect(firstSide.seen).toEqual(["w0 "]);
    expect(firstSide.error).toBeInstanceOf(APIUserAbortError);
    const { contents, error } = await drain(second);
    expect(contents).toEqual([]);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it("tells no content after the stream() helper's abort(), though the rest had arrived, and rejects with APIUserAbortError", async () => {
    serve(wholeReply());
    const helper = testClient().chat.completions.stream({ model: "auto", messages: USER_HELLO });
    const deltas: string[] = [];
    helper.on("content", (delta) => {
      deltas.push(delta);
      helper.abort();
    });
    await expect(helper.finalChatCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(deltas).toEqual(["w0 "]);
  });

  it("refuses to be iterated twice with a clear error", async () => {
    serve([contentEvent("a", "stop"), DONE]);
    const stream = await openStream();
    await drain(stream);
    expect(() => stream[Symbol.asyncIterator]()).toThrow("This stream has already been consumed; a stream can be read once (use stream.tee() for two readers).");
  });
});

describe("idle timeout", () => {
  // The keep-alives, the pauses between events and the idle timer run on a fake clock: exact, whatever the machine's load.
  useFakeClock();

  it("throws APIConnectionTimeoutError when only keep-alive comments arrive for streamIdleTimeout", async () => {
    const keepingAlive = respondWith(() => sseResponse([contentEvent("a")], { end: { keepAliveEveryMs: 10 } }));
    const stream = await openStream(testClient({ streamIdleTimeout: 150, fetch: keepingAlive }));
    const { value, elapsedMs } = await inFakeTime(drain(stream));
    const { contents, error } = value!;
    expect(contents).toEqual(["a"]);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error?.message).toMatch(/no event for 150 ms/);
    expect(elapsedMs, "fake milliseconds until the idle timeout").toBe(150);
  });

  it("does not fire while events keep arriving", async () => {
    const parts = [...Array.from({ length: 6 }, (_, i) => contentEvent(String(i))), DONE];
    const slow = respondWith(() => sseResponse(parts, { delayMs: 40 }));
    const { contents, error } = (await inFakeTime(openStream(testClient({ streamIdleTimeout: 100, fetch: slow })).then(drain))).value!;
    expect(error).toBeUndefined();
    expect(contents).toEqual(["0", "1", "2", "3", "4", "5"]);
  });
});

describe("what a stream exposes", () => {
  it("gives response and requestID before the first chunk", async () => {
    serve([contentEvent("a", "stop"), DONE], { headers: { "x-request-id": "req_early" } });
    const stream = await openStream();
    expect(stream.requestID).toBe("req_early");
    expect(stream.response?.status).toBe(200);
    expect(stream.controller).toBeInstanceOf(AbortController);
    await drain(stream);
  });

  it("cuts the API key out of requestID when a proxy echoes it in x-request-id, as gateway.requestID does", async () => {
    serve([contentEvent("a", "stop"), DONE], { headers: { "x-request-id": `req_${API_KEY}` } });
    const stream = await openStream();
    expect(stream.requestID).toBe("req_[redacted]");
    expect(stream.requestID).toBe(stream.gateway.requestID);
    await drain(stream);
  });

  it("resolves withResponse() to the stream with its response and requestID", async () => {
    serve([contentEvent("a", "stop"), DONE], { headers: { "x-request-id": "req_w" } });
    const { data, response, requestID } = await testClient()
      .chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true })
      .withResponse();
    expect(requestID).toBe("req_w");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await data.text()).toBe("a");
  });

  it("reports an error status on a stream request as an APIError before returning a stream", async () => {
    server.use(
      http.post(`${BASE}/v1/chat/completions`, () =>
        HttpResponse.json({ error: { message: "bad model" } }, { status: 404 }),
      ),
    );
    await expect(openStream()).rejects.toThrow("404 bad model");
  });
});

describe("tee and readable streams", () => {
  it("tee() gives two streams that each see every chunk", async () => {
    serve([contentEvent("a"), contentEvent("b"), contentEvent("c", "stop"), DONE]);
    const [left, right] = (await openStream()).tee();
    const [l, r] = await Promise.all([drain(left), drain(right)]);
    expect(l.contents).toEqual(["a", "b", "c"]);
    expect(r.contents).toEqual(["a", "b", "c"]);
  });

  it("tee() buffers a side that lags by the whole stream at a cost linear in its length (counted: values moved by array methods)", async () => {
    const count = 20_000;
    let sent = 0;
    const numbers = new Stream<number, undefined>(
      () => ({ next: async () => (sent < count ? { value: sent++, done: false } : { value: undefined, done: true }) }),
      new AbortController(),
      undefined,
    );
    const [left, right] = numbers.tee();
    // Each of these moves (up to) every value of the array it is called on: the sum of those
    // lengths is the work a buffer does. `Array.prototype.shift` on a growing buffer makes it
    // quadratic (count² / 2 = 200,000,000 here).
    const moving = ["shift", "unshift", "splice", "copyWithin"] as const;
    const originals = moving.map((name) => Array.prototype[name]);
    let moved = 0;
    const seen: number[][] = [[], []];
    for (const [index, name] of moving.entries()) {
      const original = originals[index] as (...args: unknown[]) => unknown;
      Object.defineProperty(Array.prototype, name, {
        configurable: true,
        writable: true,
        value(this: unknown[], ...args: unknown[]) {
          moved += this.length;
          return original.apply(this, args);
        },
      });
    }
    try {
      for await (const value of left) seen[0]!.push(value);
      for await (const value of right) seen[1]!.push(value);
    } finally {
      for (const [index, name] of moving.entries()) Object.defineProperty(Array.prototype, name, { configurable: true, writable: true, value: originals[index] });
    }
    const expected = Array.from({ length: count }, (_, index) => index);
    expect(seen[0]).toEqual(expected);
    expect(seen[1], "the lagging side lost or reordered values").toEqual(expected);
    expect(moved, `the buffers moved ${moved} values for ${count} chunks`).toBeLessThanOrEqual(4 * count);
  });

  it("tee() keeps order when each side in turn runs ahead of the other", async () => {
    let sent = 0;
    const numbers = new Stream<number, undefined>(
      () => ({ next: async () => (sent < 5000 ? { value: sent++, done: false } : { value: undefined, done: true }) }),
      new AbortController(),
      undefined,
    );
    const sides = numbers.tee().map((side) => side[Symbol.asyncIterator]());
    const seen: number[][] = [[], []];
    // Bursts longer than the queue's compaction threshold, alternating sides.
    for (let burst = 0; burst < 8; burst++) {
      for (let step = 0; step < 1500; step++) {
        const result = await sides[burst % 2]!.next();
        if (!result.done) seen[burst % 2]!.push(result.value);
      }
    }
    const expected = Array.from({ length: 5000 }, (_, index) => index);
    expect(seen).toEqual([expected, expected]);
  });

  it("tee() passes an error to both sides", async () => {
    serve([contentEvent("a")], { breakOff: true });
    const [left, right] = (await openStream()).tee();
    const [l, r] = await Promise.all([drain(left), drain(right)]);
    expect(l.error).toBeInstanceOf(APIConnectionError);
    expect(r.error).toBeInstanceOf(APIConnectionError);
    expect(l.contents).toEqual(["a"]);
  });

  it("round-trips through toReadableStream() and Stream.fromReadableStream()", async () => {
    serve([contentEvent("Hel"), contentEvent("lo"), contentEvent(null, "stop"), DONE]);
    const readable = (await openStream()).toReadableStream();
    const rebuilt = Stream.fromReadableStream<ChatCompletionChunk>(readable);
    expect(await rebuilt.text()).toBe("Hello");
  });

  it("writes newline-delimited JSON from toReadableStream(): each chunk as it is, then the end frame", async () => {
    serve([contentEvent("x", "stop"), DONE]);
    const text = await new Response((await openStream()).toReadableStream()).text();
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0].choices[0].delta.content).toBe("x");
    expect(lines[1]).toEqual({ id: lines[0].id, choices: [], modelgate_bridge: "end" });
  });
});

describe("stream helpers", () => {
  it("text() joins delta.content, treating absent and null content as empty", async () => {
    serve([contentEvent("Hello"), sseData(chunk({ content: null })), contentEvent(null), contentEvent(", world", "stop"), DONE]);
    expect(await (await openStream()).text()).toBe("Hello, world");
  });

  it("textStream yields the non-empty text deltas", async () => {
    serve([contentEvent(""), contentEvent("a"), contentEvent("b", "stop"), DONE]);
    const pieces: string[] = [];
    for await (const piece of (await openStream()).textStream) pieces.push(piece);
    expect(pieces).toEqual(["a", "b"]);
  });
});
