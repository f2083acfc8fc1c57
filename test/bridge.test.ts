import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIUserAbortError, ModelGate, RateLimitError, Stream, type ChatCompletionChunk } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { standingAfterTurns } from "./fixtures/promises.ts";

// The server -> browser bridge (toReadableStream() -> Stream.fromReadableStream()) keeps every
// promise of an SSE stream: a cut body is never read as a whole one.

const gateway = createMockGateway({ reply: "Rivers run to the sea, and the sea is never full." });
const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
const open = () => client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Rivers?" }], stream: true });

async function bridgeBody(): Promise<Uint8Array> {
  return new Uint8Array(await new Response((await open()).toReadableStream()).arrayBuffer());
}

/** A body that hands out `bytes` in the given reads, then ends. */
function bodyOf(...reads: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = reads.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<{ text: string; error: Error | undefined }> {
  let text = "";
  try {
    for await (const text_ of Stream.fromReadableStream<ChatCompletionChunk>(body).textStream) text += text_;
    return { text, error: undefined };
  } catch (error) {
    return { text, error: error as Error };
  }
}

describe("the bridge framing", () => {
  it("carries the whole reply across, ending normally only on the end frame", async () => {
    const expected = await (await open()).text();
    expect(await readAll(bodyOf(await bridgeBody()))).toEqual({ text: expected, error: undefined });
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
    const expected = (await readAll(bodyOf(whole))).text;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), whole.length];
        const reads = points.slice(1).map((end, index) => whole.slice(points[index], end));
        expect(await readAll(bodyOf(...reads))).toEqual({ text: expected, error: undefined });
      }),
      { numRuns: 100 },
    );
  });

  it("carries a source failure across as the same error class and text, after the same chunks", async () => {
    const failingStream = () => {
      const failing = createMockGateway({ reply: "one two three four five six seven" });
      failing.inject({ type: "stream-error", afterChunks: 2 });
      return new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: failing, maxRetries: 0 }).chat.completions.create({
        model: "auto",
        messages: [{ role: "user", content: "count" }],
        stream: true,
      });
    };
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
          return { value: { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "hi" }, finish_reason: null }] }, done: false };
        },
      };
    }, new AbortController(), undefined);
    const { text, error } = await readAll(source.toReadableStream());
    expect(text).toBe("hi");
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", requestID: "req_9", message: "429 slow down" });
  });

  it("ends a pending read at once with APIUserAbortError when the controller aborts, and cancels the body", async () => {
    let cancelled = false;
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

  it("names a body that is not bridge frames (e.g. the old chunk-per-line format)", async () => {
    const oldFormat = new TextEncoder().encode(`${JSON.stringify({ id: "x", choices: [] })}\n`);
    const { error } = await readAll(bodyOf(oldFormat));
    expect(String(error)).toMatch(/not one of its frames.*toReadableStream/);
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
    expect(text.trimEnd().split("\n").at(-1)).toBe('{"done":true}');
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
