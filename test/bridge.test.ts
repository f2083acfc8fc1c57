import fc from "fast-check";
import OpenAI from "openai";
import { ChatCompletionStream } from "openai/lib/ChatCompletionStream";
import { Stream as OpenAIStream } from "openai/streaming";
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  ModelGate,
  ModelGateError,
  RateLimitError,
  Stream,
  ChatCompletionStream as ModelGateChatCompletionStream,
  type ChatCompletionChunk,
} from "../src/index.ts";
import { DEFAULT_MAX_LINE_LENGTH } from "../src/streaming/line-limit.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { respondWith, sseResponse } from "./fixtures/body.ts";
import { chunk } from "./fixtures/chunks.ts";
import { readAborting } from "./fixtures/mock-stream.ts";
import { standingAfterTurns } from "./fixtures/promises.ts";

// The server -> browser bridge (toReadableStream() -> Stream.fromReadableStream()) keeps every
// promise of an SSE stream: a cut body is never read as a whole one. Its framing is a superset
// of openai's: each chunk is the line openai's toReadableStream() writes, then an end frame (or
// an error frame, after which the body errors), so pages still on openai read it too.

const REPLY = "Rivers run to the sea, and the sea is never full.";
const gateway = createMockGateway({ reply: REPLY });
const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
const open = () => client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Rivers?" }], stream: true });

/** A modelgate stream whose source throws after `afterChunks` chunks (an error event from the gateway). */
function failingStream(options: { afterChunks?: number; status?: number } = {}) {
  const failing = createMockGateway({ reply: "one two three four five six seven" });
  failing.inject({ type: "stream-error", afterChunks: options.afterChunks ?? 2, ...(options.status === undefined ? {} : { status: options.status }) });
  return new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: failing, maxRetries: 0 }).chat.completions.create({
    model: "auto",
    messages: [{ role: "user", content: "count" }],
    stream: true,
  });
}

async function bridgeBody(): Promise<Uint8Array> {
  return new Uint8Array(await new Response((await open()).toReadableStream()).arrayBuffer());
}

/** A body that hands out `bytes` in the given reads, then ends. */
function bodyOf(...reads: (Uint8Array | string)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = reads.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(typeof next === "string" ? encoder.encode(next) : next);
    },
  });
}

/** Every read of `body` until it ends, and the error it ends with, if any. */
async function readsOf(body: ReadableStream<Uint8Array>): Promise<{ lines: string[]; error: unknown }> {
  const reader = body.getReader();
  let text = "";
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { lines: text.split("\n"), error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { lines: text.split("\n"), error };
  }
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number; error: Error | undefined }> {
  let text = "";
  let chunks = 0;
  try {
    for await (const each of Stream.fromReadableStream<ChatCompletionChunk>(body)) {
      chunks++;
      text += each.choices[0]?.delta.content ?? "";
    }
    return { text, chunks, error: undefined };
  } catch (error) {
    return { text, chunks, error: error as Error };
  }
}

describe("the bridge framing", () => {
  it("carries the whole reply across, ending normally only on the end frame", async () => {
    const expected = await (await open()).text();
    expect(await readAll(bodyOf(await bridgeBody()))).toMatchObject({ text: expected, error: undefined });
  });

  it("writes each chunk as the line openai's toReadableStream() writes, then one end frame with the stream's id", async () => {
    const [ours, forOpenAI] = (await open()).tee();
    const openaiBody = new OpenAIStream(() => forOpenAI[Symbol.asyncIterator](), new AbortController()).toReadableStream();
    const [{ lines, error }, { lines: openaiLines }] = await Promise.all([readsOf(ours.toReadableStream()), readsOf(openaiBody)]);
    expect(error).toBeUndefined();
    expect(lines.at(-1), "the body ends with a newline").toBe("");
    expect(lines.slice(0, -2)).toEqual(openaiLines.slice(0, -1));
    expect(JSON.parse(lines.at(-2)!)).toEqual({ id: JSON.parse(lines[0]!).id, choices: [], modelgate_bridge: "end" });
  });

  it("throws APIConnectionError for every proper prefix of a real bridge body", async () => {
    const whole = await bridgeBody();
    for (let length = 0; length < whole.length; length++) {
      const { error } = await readAll(bodyOf(whole.subarray(0, length)));
      expect(error, `a prefix of ${length} of ${whole.length} bytes ended normally`).toBeInstanceOf(APIConnectionError);
    }
  });

  it("reads any split of the whole body into reads the same way (property)", async () => {
    const whole = await bridgeBody();
    const expected = await readAll(bodyOf(whole));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), whole.length];
        const reads = points.slice(1).map((end, index) => whole.slice(points[index], end));
        expect(await readAll(bodyOf(...reads))).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it("ends a failed stream with an error frame, then errors the body itself", async () => {
    const { lines, error } = await readsOf((await failingStream({ status: 429 })).toReadableStream());
    expect(error, "the body did not error after the error frame").toBeInstanceOf(RateLimitError);
    const frame = JSON.parse(lines.at(-2)!) as Record<string, unknown>;
    expect(frame).toMatchObject({ id: expect.any(String), choices: [], modelgate_bridge: "error", error: { name: "RateLimitError", status: 429 } });
    expect(frame.id).toBe(JSON.parse(lines[0]!).id);
  });

  it("carries a source failure across as the same error class and text, after the same chunks", async () => {
    let directText = "";
    const directError = await (async () => {
      for await (const piece of (await failingStream()).textStream) directText += piece;
    })().catch((error: unknown) => error as Error);
    const bridged = await readAll((await failingStream()).toReadableStream());
    expect(directError).toBeInstanceOf(Error);
    expect(bridged.text).toBe(directText);
    expect(bridged.error?.constructor).toBe(directError?.constructor);
    expect((bridged.error as Error).message).toBe(directError?.message);
  });

  it("rebuilds a rate limit error thrown by the source with its class, status and code", async () => {
    const source = new Stream<ChatCompletionChunk, undefined>(() => {
      let sent = false;
      return {
        async next() {
          if (sent) throw new RateLimitError(429, { message: "slow down", code: "rate_limited", requestID: "req_9" });
          sent = true;
          return { value: chunk({ content: "hi" }), done: false };
        },
      };
    }, new AbortController(), undefined);
    const { text, error } = await readAll(source.toReadableStream());
    expect(text).toBe("hi");
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", requestID: "req_9", message: "429 slow down" });
  });

  it("reads an error frame whose status a hand-written route wrote as a string of three digits", async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const frame = (status: unknown) => line({ id: "x", choices: [], modelgate_bridge: "error", error: { name: "RateLimitError", status, message: "429 slow down" } });
    const asString = await readAll(bodyOf(line(chunk({ content: "ok" })), frame("429")));
    expect(asString.text).toBe("ok");
    expect(asString.error).toBeInstanceOf(RateLimitError);
    expect(asString.error).toMatchObject({ status: 429, message: "429 slow down" });
    // Anything but an error status is no status: the frame's name decides, as for a frame without one.
    for (const status of ["4290", 4290, 429.5, 0, -1, 200, 1e400]) {
      const notAStatus = await readAll(bodyOf(frame(status)));
      expect(notAStatus.error, String(status)).not.toBeInstanceOf(APIError);
      expect(notAStatus.error, String(status)).toBeInstanceOf(ModelGateError);
    }
  });

  it("reads a provider's chunk from openai's writer as an SSE stream reads it: a lone choice object, an index that cannot be placed", async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const end = line({ id: "x", choices: [], modelgate_bridge: "end" });
    const lone = await readAll(bodyOf(line({ id: "x", choices: { index: 0, delta: { content: "hi" } } }), end));
    expect(lone).toMatchObject({ text: "hi", chunks: 1 });
    expect(lone.error).toBeUndefined();
    const misplaced = await readAll(bodyOf(line(chunk({ content: "a" })), line({ id: "x", choices: [{ index: "first", delta: { content: "b" } }] }), end));
    expect(misplaced.text).toBe("a");
    expect(misplaced.error).toBeInstanceOf(ModelGateError);
    expect(misplaced.error?.message).toBe('The stream sent a choice whose index is "first", not a whole number, so it cannot be told which choice it continues.');
  });

  it("throws a chunk line that carries an error as that error, by its code, after the chunks before it", async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const body = bodyOf(line(chunk({ content: "par" })), line({ id: "chatcmpl-test", choices: [], error: { code: 429, message: "Slow down." } }));
    const { text, error } = await readAll(body);
    expect(text).toBe("par");
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toMatch(/Slow down\./);
  });

  it.each([
    ["a line that is not JSON", "not json"],
    ["a number", "42"],
    ["null", "null"],
    ["an array", "[1,2]"],
    ["a string", '"text"'],
    ["an unknown frame", '{"id":"x","choices":[],"modelgate_bridge":"later"}'],
    ["an error frame without its error", '{"id":"x","choices":[],"modelgate_bridge":"error"}'],
  ])("rejects %s with a ModelGateError naming the line, not as a cut", async (_, line) => {
    const { text, error } = await readAll(bodyOf(`${JSON.stringify(chunk({ content: "ok" }))}\n`, `${line}\n`, `${JSON.stringify({ id: "x", choices: [], modelgate_bridge: "end" })}\n`));
    expect(text).toBe("ok");
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error?.message).toContain("stream bridge sent");
  });

  it("rejects a JSON object line without a choices array (a run's event, {\"foo\":1}) instead of taking it for a chunk", async () => {
    const end = JSON.stringify({ id: "x", choices: [], modelgate_bridge: "end" });
    for (const line of ['{"foo":1}', '{"type":"step.start","step":1}']) {
      const { text, chunks, error } = await readAll(bodyOf(`${JSON.stringify(chunk({ content: "ok" }))}\n${line}\n${end}\n`));
      expect({ text, chunks }).toEqual({ text: "ok", chunks: 1 });
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error?.message).toBe(`The stream bridge sent a line that is neither a chunk object nor one of its frames: ${JSON.stringify(line)}`);
    }
  });

  it("skips blank lines, as openai's reader does", async () => {
    const end = JSON.stringify({ id: "x", choices: [], modelgate_bridge: "end" });
    expect(await readAll(bodyOf(`\n${JSON.stringify(chunk({ content: "ok" }))}\n\r\n  \n${end}\n`))).toEqual({ text: "ok", chunks: 1, error: undefined });
  });

  it(`fails a line longer than the SSE decoder's limit (${DEFAULT_MAX_LINE_LENGTH} characters) as soon as it passes it, and cancels the body`, async () => {
    const MiB = 1024 * 1024;
    const piece = new TextEncoder().encode("a".repeat(MiB));
    let reads = 0;
    let cancelled = false;
    // A 40 MiB line, read 1 MiB at a time (a reader without the limit keeps it all, and a
    // 256 MiB one runs the process out of memory).
    const long = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++reads > 40) controller.close();
        else controller.enqueue(piece);
      },
      cancel: () => void (cancelled = true),
    });
    const { error } = await readAll(long);
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/exceeded 16777216 characters/);
    expect(reads, "read far past the limit").toBeLessThanOrEqual(DEFAULT_MAX_LINE_LENGTH / MiB + 2);
    expect(cancelled).toBe(true);
  });

  it("fails a whole line over the limit that arrives in one read", async () => {
    const { error } = await readAll(bodyOf(`"${"a".repeat(DEFAULT_MAX_LINE_LENGTH)}"\n`));
    expect(error?.message).toMatch(/exceeded 16777216 characters/);
  });

  it("reads a provider's reasoning_content as reasoning on the far side, and writes the chunk as it came", async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const thinking = chunk({ reasoning_content: "Short waves." } as ChatCompletionChunk["choices"][number]["delta"]);
    const body = bodyOf(line(thinking), line(chunk({ content: "Blue." }, { finish: "stop" })), line({ id: "chatcmpl-test", choices: [], modelgate_bridge: "end" }));
    const [forReasoning, forText] = Stream.fromReadableStream<ChatCompletionChunk>(body).tee();
    let reasoning = "";
    for await (const text of forReasoning.reasoningStream) reasoning += text;
    expect(reasoning).toBe("Short waves.");
    const first = (await forText[Symbol.asyncIterator]().next()).value as ChatCompletionChunk;
    expect(JSON.stringify(first)).toBe(JSON.stringify(thinking));
  });

  it("ends a pending read with APIUserAbortError when the controller aborts, and cancels the body", async () => {
    let cancelled = false;
    // A body that never sends anything: only the abort can end the read.
    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}), cancel: () => void (cancelled = true) });
    const controller = new AbortController();
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(silent, controller);
    const text = stream.text();
    expect(await standingAfterTurns(text), "the read before the abort").toEqual({ settled: false });
    controller.abort();
    const ended = await standingAfterTurns(text);
    expect(ended.settled, "the read a few event-loop turns after the abort").toBe(true);
    expect(ended.error).toBeInstanceOf(APIUserAbortError);
    expect(cancelled).toBe(true);
  });

  it("hands out no chunk that had already arrived after the controller aborts, whole body and end frame included", async () => {
    const lines = [chunk({ content: "one " }), chunk({ content: "two " }), chunk({ content: "three" }, { finish: "stop" })].map((each) => `${JSON.stringify(each)}\n`);
    // One string, so the whole body is one read.
    const body = new Blob([lines.join("") + `{"id":"chatcmpl-test","choices":[],"modelgate_bridge":"end"}\n`]).stream();
    const controller = new AbortController();
    const { seen, error } = await readAborting(Stream.fromReadableStream<ChatCompletionChunk>(body, controller), () => controller.abort());
    expect(seen).toEqual(["one "]);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it("carries an abort of the source stream across as APIUserAbortError, though the rest of the source had arrived", async () => {
    // The whole reply in one read of the source's body.
    const sse = [chunk({ content: "one " }), chunk({ content: "two " }), chunk({ content: "three" }, { finish: "stop" })].map((each) => `data: ${JSON.stringify(each)}\n\n`).join("") + "data: [DONE]\n\n";
    const whole = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", maxRetries: 0, fetch: async () => new Response(sse, { headers: { "content-type": "text/event-stream" } }) });
    const source = await whole.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Count" }], stream: true });
    const { seen, error } = await readAborting(Stream.fromReadableStream<ChatCompletionChunk>(source.toReadableStream()), () => source.controller.abort());
    // The bridge's body may pull one line ahead of its reader: that one was written before the abort.
    expect(["one ", "one two "], "the text across the bridge").toContain(seen.join(""));
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it("a slow reader of toReadableStream() never trips the server stream's idle timeout", async () => {
    const slowClient = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, streamIdleTimeout: 30 });
    const stream = await slowClient.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Rivers?" }], stream: true });
    const reader = stream.toReadableStream().getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(JSON.parse(text.trimEnd().split("\n").at(-1)!)).toMatchObject({ choices: [], modelgate_bridge: "end" });
  });
});

describe("a provider's own modelgate_bridge field", () => {
  /** A stream whose server sent `chunks` as SSE events, then cut the connection (or ended with [DONE]). */
  const streamOf = (chunks: object[], end: "cut" | "done") =>
    new ModelGate({
      apiKey: "k-12345678",
      baseURL: "https://gateway.test",
      maxRetries: 0,
      fetch: respondWith(() => sseResponse([...chunks.map((each) => `data: ${JSON.stringify(each)}\n\n`), ...(end === "done" ? ["data: [DONE]\n\n"] : [])], { breakOff: end === "cut" })),
    }).chat.completions.create({ model: "m", messages: [], stream: true });

  it("never passes for the end frame: a source cut after a chunk carrying it still throws on the far side", async () => {
    const source = await streamOf([chunk({ content: "Do NOT " }, { id: "c1" }), { id: "c1", choices: [], modelgate_bridge: "end" }], "cut");
    const far = await readAll(source.toReadableStream());
    expect(far.text).toBe("Do NOT ");
    expect(far.error, "the far side of a cut source").toBeInstanceOf(APIConnectionError);
  });

  it("never passes for an error frame, and reaches the far side as the chunk's data", async () => {
    const spoofs = ["end", "error", 5, { nested: true }];
    const source = await streamOf([...spoofs.map((value) => ({ ...chunk({ content: "a" }, { id: "c1" }), modelgate_bridge: value })), chunk({}, { id: "c1", finish: "stop" })], "done");
    const far: unknown[] = [];
    for await (const each of Stream.fromReadableStream<ChatCompletionChunk>(source.toReadableStream())) far.push((each as unknown as Record<string, unknown>).modelgate_bridge);
    expect(far).toEqual([...spoofs, undefined]);
  });
});

describe("the bridge and openai's readers", () => {
  it("openai's Stream.fromReadableStream() yields every chunk in order, and the frames add no text", async () => {
    const [direct, bridged] = (await open()).tee();
    const body = bridged.toReadableStream();
    const expected: ChatCompletionChunk[] = [];
    for await (const each of direct) expected.push(each);
    const seen: { id: string; choices: unknown[] }[] = [];
    let text = "";
    for await (const each of OpenAIStream.fromReadableStream<OpenAI.ChatCompletionChunk>(body, new AbortController())) {
      seen.push(each);
      text += each.choices[0]?.delta?.content ?? "";
    }
    expect(text).toBe(REPLY);
    expect(seen.slice(0, -1)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(seen.at(-1)).toMatchObject({ id: expected[0]!.id, choices: [] });
  });

  it("openai's ChatCompletionStream.fromReadableStream() keeps one completion with the whole reply", async () => {
    const [forDirect, bridged] = (await open()).tee();
    const runner = ChatCompletionStream.fromReadableStream(bridged.toReadableStream());
    const direct = await forDirect.finalChatCompletion();
    let deltas = "";
    runner.on("content", (delta) => (deltas += delta));
    const completion = await runner.finalChatCompletion();
    expect(deltas).toBe(REPLY);
    expect(runner.allChatCompletions()).toHaveLength(1);
    expect(completion.id).toBe(direct.id);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]!.message.content).toBe(REPLY);
    expect(completion.choices[0]!.finish_reason).toBe(direct.choices[0]!.finish_reason);
  });

  it("openai's readers surface a failed source as an error, after the chunks before it", async () => {
    let text = "";
    const error = await (async () => {
      for await (const each of OpenAIStream.fromReadableStream<OpenAI.ChatCompletionChunk>((await failingStream()).toReadableStream(), new AbortController())) {
        text += each.choices[0]?.delta?.content ?? "";
      }
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(text).toBe("one two ");

    const runner = ChatCompletionStream.fromReadableStream((await failingStream()).toReadableStream());
    const events: unknown[] = [];
    runner.on("error", (thrown) => events.push(thrown));
    await expect(runner.finalChatCompletion()).rejects.toBeInstanceOf(Error);
    expect(events).toHaveLength(1);
  });

  it("modelgate's reader of openai's toReadableStream() body yields its chunks, then throws APIConnectionError naming openai's framing", async () => {
    const openai = new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: gateway, maxRetries: 0 });
    const server = await openai.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Rivers?" }], stream: true });
    const { text, error } = await readAll(server.toReadableStream());
    expect(text).toBe(REPLY);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error?.message).toMatch(/cut.*openai's toReadableStream\(\)/);
  });
});

describe("Stream.fromReadableStream() misuse from plain JavaScript", () => {
  const body = () => new Response("").body!;
  it.each([
    ["a Response", () => new Response(""), "readable"],
    ["a string", () => "data: {}", "readable"],
    ["null", () => null, "readable"],
  ])("names the readable when given %s", (_name, readable, param) => {
    expect(() => Stream.fromReadableStream(readable() as never)).toThrow(expect.objectContaining({ name: "ModelGateError", param, message: expect.stringContaining("`readable` must be a ReadableStream (a Response's body); got") }));
  });
  it.each([
    ["a number", () => 5],
    ["an object", () => ({})],
    ["a signal", () => new AbortController().signal],
  ])("names the controller when given %s", (_name, controller) => {
    expect(() => Stream.fromReadableStream(body(), controller() as never)).toThrow(expect.objectContaining({ name: "ModelGateError", param: "controller" }));
  });
});

describe("the low-level constructors, called from plain JavaScript", () => {
  it.each([
    ["nothing", [], "makeIterator"],
    ["an iterator instead of a function that returns one", [[][Symbol.iterator](), new AbortController()], "makeIterator"],
    ["no controller", [() => [][Symbol.iterator](), undefined], "controller"],
  ])("new Stream() with %s names the argument, where most code gets a Stream", (_name, args, param) => {
    expect(() => new (Stream as unknown as new (...args: unknown[]) => unknown)(...args)).toThrow(
      expect.objectContaining({ name: "ModelGateError", param, message: expect.stringContaining("most code gets a Stream from create({ stream: true }) or Stream.fromReadableStream()") }),
    );
  });

  it("a makeIterator that returns no iterator is named when the stream is read, not met as a TypeError of for await", async () => {
    const stream = new Stream<ChatCompletionChunk, undefined>(() => 42 as never, new AbortController(), undefined);
    await expect(stream.text()).rejects.toThrow(expect.objectContaining({ name: "ModelGateError", param: "makeIterator", message: expect.stringContaining("got number 42") }));
  });

  it("new ChatCompletionStream() with nothing names the argument, where the helper comes from", () => {
    expect(() => new (ModelGateChatCompletionStream as unknown as new () => unknown)()).toThrow(
      expect.objectContaining({ name: "ModelGateError", param: "startHelper", message: expect.stringContaining("chat.completions.stream()") }),
    );
  });

  it("a startHelper that resolves to no helper is named in the object's error, not met as a TypeError", async () => {
    const helper = new (ModelGateChatCompletionStream as unknown as new (client: undefined, start: () => Promise<unknown>) => InstanceType<typeof ModelGateChatCompletionStream>)(undefined, async () => undefined);
    await expect(helper.finalContent()).rejects.toThrow(expect.objectContaining({ name: "ModelGateError", param: "startHelper", message: "`startHelper` must be a function whose promise resolves to the helper; got nothing." }));
  });
});

describe("the bridge's far side before anyone reads", () => {
  it("cancels the body when the controller aborts before the stream is iterated", async () => {
    let cancelled = false;
    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}), cancel: () => void (cancelled = true) });
    const controller = new AbortController();
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(silent, controller);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toBe(true);
    await expect(stream.text()).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
