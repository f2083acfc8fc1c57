import { describe, expect, it, vi } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, ChatCompletionStream, ModelGate } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Every module src/pipeline/loader.ts loads on demand takes forever to load here, as over a network that
// stalls. A call waiting on such a load is bounded as its attempts are: by its own signal and
// its own timeout, and it sends nothing.
// (vi.mock is hoisted above every declaration, so each factory is written out.)
vi.mock("../src/features/structured/parse.ts", () => new Promise<never>(() => {}));
vi.mock("../src/features/tools/runner.ts", () => new Promise<never>(() => {}));
vi.mock("../src/features/budget/index.ts", () => new Promise<never>(() => {}));
vi.mock("../src/features/endpoints/index.ts", () => new Promise<never>(() => {}));
vi.mock("../src/features/chat-stream/index.ts", () => new Promise<never>(() => {}));

const messages = [{ role: "user" as const, content: "Hello" }];
const schema = { type: "json_schema" as const, json_schema: { name: "x", schema: { type: "object" } } };

/** A client whose gateway counts what reaches it. */
function countingClient() {
  const mock = createMockGateway();
  const counter = { sent: 0 };
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", fetch: (input, init) => (counter.sent++, mock(new Request(input, init))) });
  return { client, counter };
}

/** Each call that loads a feature, given its options. */
const calls: [name: string, call: (client: ModelGate, options: { signal?: AbortSignal; timeout?: number }) => PromiseLike<unknown>][] = [
  ["parse()", (client, options) => client.chat.completions.parse({ model: "auto", messages, response_format: schema }, options)],
  ["create() with maxCost", (client, options) => client.chat.completions.create({ model: "mock-fast", messages }, { ...options, maxCost: 0.01 })],
  ["embeddings.create()", (client, options) => client.embeddings.create({ model: "mock-embed", input: "x" }, options)],
  ["runTools()", (client, options) => client.chat.completions.runTools({ model: "auto", messages, tools: [] }, options)],
  ["stream().done()", (client, options) => client.chat.completions.stream({ model: "auto", messages }, options).done()],
];

describe("a call whose code never finishes loading", () => {
  it.each(calls)("%s settles at its timeout with APIConnectionTimeoutError, having sent nothing", async (_name, call) => {
    const { client, counter } = countingClient();
    const error = await Promise.resolve(call(client, { timeout: 20 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/^The code of .+ did not load within 20 ms \(timeout\), so nothing was sent\.$/);
    expect(counter.sent).toBe(0);
  });

  it.each(calls)("%s settles at its abort with APIUserAbortError, having sent nothing", async (_name, call) => {
    const { client, counter } = countingClient();
    const controller = new AbortController();
    const settled = Promise.resolve(call(client, { signal: controller.signal })).catch((caught: unknown) => caught);
    // The abort comes while the load is pending: the call has started waiting for it.
    await Promise.resolve();
    controller.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
    expect(counter.sent).toBe(0);
  });

  it("rejects at once with APIUserAbortError when the signal was aborted before the call", async () => {
    const { client, counter } = countingClient();
    await expect(client.chat.completions.parse({ model: "auto", messages, response_format: schema }, { signal: AbortSignal.abort() })).rejects.toThrow(APIUserAbortError);
    expect(counter.sent).toBe(0);
  });
});

describe("a helper object aborted while its code is loading", () => {
  /** Each object returned at once whose code loads on demand, with what it settles. */
  const objects: [name: string, make: (client: ModelGate) => { abort(): void; controller: AbortController; done(): Promise<void> }][] = [
    ["runTools()", (client) => client.chat.completions.runTools({ model: "auto", messages, tools: [] })],
    ["chat.completions.stream()", (client) => client.chat.completions.stream({ model: "auto", messages })],
    ["ChatCompletionStream.fromReadableStream()", () => ChatCompletionStream.fromReadableStream(new ReadableStream())],
  ];

  it.each(objects)("%s settles at its abort() with APIUserAbortError and the abort event, having sent nothing", async (_name, make) => {
    const { client, counter } = countingClient();
    const helper = make(client) as ReturnType<(typeof objects)[number][1]> & { on(event: "abort", listener: (error: unknown) => void): unknown };
    const heard: unknown[] = [];
    helper.on("abort", (error) => heard.push(error));
    const settled = helper.done().catch((caught: unknown) => caught);
    await Promise.resolve();
    helper.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
    expect(heard).toHaveLength(1);
    expect(counter.sent).toBe(0);
  });

  it.each(objects)("%s settles when its controller aborts", async (_name, make) => {
    const { client } = countingClient();
    const helper = make(client);
    const settled = helper.done().catch((caught: unknown) => caught);
    await Promise.resolve();
    helper.controller.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
  });
});
