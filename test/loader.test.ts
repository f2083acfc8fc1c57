import { describe, expect, it, vi } from "vitest";
import { APIConnectionError, ModelGate, RateLimitError, Stream, type ChatCompletionChunk, type ClientOptions } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Every module src/loader.ts loads on demand fails to load here, as in a browser that went
// offline after the page loaded. A chat app's calls must not notice: everything they reach,
// errors included, is in the first load.
vi.mock("../src/features/structured/parse.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});
vi.mock("../src/features/tools/runner.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});
vi.mock("../src/features/budget/index.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});
vi.mock("../src/features/endpoints/index.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});
vi.mock("../src/features/chat-stream/index.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});
vi.mock("../src/pipeline/middleware.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});

const client = (fetch: ClientOptions["fetch"] = createMockGateway()) => new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 0, fetch });
const messages = [{ role: "user" as const, content: "Hello" }];

describe("the one loader, with every on-demand module unreachable", () => {
  it("streams a chat reply through text(), textStream, tee(), finalChatCompletion() and the bridge", async () => {
    const gateway = client();
    expect(await (await gateway.chat.completions.create({ model: "auto", messages, stream: true })).text()).not.toBe("");
    let streamed = "";
    for await (const text of (await gateway.chat.completions.create({ model: "auto", messages, stream: true })).textStream) streamed += text;
    expect(streamed).not.toBe("");
    const [left, right] = (await gateway.chat.completions.create({ model: "auto", messages, stream: true })).tee();
    expect((await left.finalChatCompletion()).choices[0]?.message.content).toBe(await right.text());
    const bridged = (await gateway.chat.completions.create({ model: "auto", messages, stream: true })).toReadableStream();
    expect(await Stream.fromReadableStream<ChatCompletionChunk>(bridged).text()).not.toBe("");
  });

  it("reads an error body into its class with the server's message", async () => {
    const failing = client(async () => new Response(JSON.stringify({ error: { message: "slow down", code: 429 } }), { status: 429 }));
    const error = await failing.chat.completions.create({ model: "auto", messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toBe("429 slow down");
  });

  it("reports a failed fetch as a connection error saying the network is down when the code that words it cannot load either", async () => {
    const offline = client(async () => {
      throw new TypeError("Failed to fetch");
    });
    const error = await offline.chat.completions.create({ model: "auto", messages, stream: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe("Could not load part of the SDK (is the network down?)");
  });

  it("rejects a feature that cannot load with APIConnectionError naming the cause, and tries again on the next call", async () => {
    const gateway = client();
    for (let call = 0; call < 2; call++) {
      const error = await gateway.chat.completions.parse({ model: "auto", messages, response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(/Could not load part of the SDK/);
      expect((error as Error).cause).toBeInstanceOf(Error);
    }
    await expect(gateway.embeddings.create({ model: "mock-embed", input: "x" })).rejects.toThrow(APIConnectionError);
    await expect(gateway.chat.completions.create({ model: "mock-fast", messages }, { maxCost: 0.01 })).rejects.toThrow(APIConnectionError);
    await expect(gateway.chat.completions.runTools({ model: "auto", messages, tools: [] })).rejects.toThrow(APIConnectionError);
    // openai's helpers: returned at once, their promises reject with the same error.
    const stream = gateway.chat.completions.stream({ model: "auto", messages });
    await expect(stream.done()).rejects.toThrow(APIConnectionError);
    await expect(stream.finalContent()).rejects.toThrow(APIConnectionError);
    await expect(gateway.chat.completions.runTools({ model: "auto", messages, tools: [] }).done()).rejects.toThrow(APIConnectionError);
  });
});
