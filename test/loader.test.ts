import { describe, expect, it, vi } from "vitest";
import { APIConnectionError, ModelGate, ModelGateError, PaymentRequiredError, RateLimitError, Stream, jsonSchema, tool, type ChatCompletionChunk, type ClientOptions, type Middleware } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Every module src/pipeline/loader.ts loads on demand fails to load here, as in a browser that went
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
vi.mock("../src/features/tracing/index.ts", () => {
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

  it("runs middleware and asks an apiKey function, as static parts of the request path", async () => {
    const seen: string[] = [];
    const middleware: Middleware = async (request, next) => {
      seen.push(request.headers.get("authorization") ?? "");
      return next(request);
    };
    const gateway = new ModelGate({ apiKey: async () => MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 0, fetch: createMockGateway(), middleware: [middleware] });
    const completion = await gateway.chat.completions.create({ model: "auto", messages });
    expect(completion.choices[0]?.message.content).not.toBe("");
    expect(seen).toEqual([`Bearer ${MOCK_API_KEY}`]);
    expect((await gateway.models.list()).data.length).toBeGreaterThan(0);
  });

  it("reports a failed fetch as itself: a connection error quoting the runtime's reason", async () => {
    const offline = client(async () => {
      throw new TypeError("Failed to fetch", { cause: new Error("getaddrinfo ENOTFOUND gateway.test") });
    });
    const error = await offline.chat.completions.create({ model: "auto", messages, stream: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe("Connection error: Failed to fetch (getaddrinfo ENOTFOUND gateway.test)");
  });

  it("gives the 402 a shrinkToAffordable call was answered with when the code to shrink it cannot load: one request sent, the loader's error its cause", async () => {
    let sent = 0;
    const answer = { error: { code: 402, message: "You requested up to 4000 tokens, but can only afford 1000.", metadata: { affordable_tokens: 1000 } } };
    const gateway = client(async () => (sent++, Response.json(answer, { status: 402 })));
    const error = await gateway.chat.completions.create({ model: "auto", messages, max_tokens: 4000 }, { shrinkToAffordable: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as Error).message).toBe("402 You requested up to 4000 tokens, but can only afford 1000. (`shrinkToAffordable` sent no smaller request: its code could not be loaded; see `cause`.)");
    expect((error as Error).cause).toBeInstanceOf(ModelGateError);
    expect(((error as Error).cause as Error).message).toMatch(/^Could not load the code of budgets/);
    expect(sent).toBe(1);
  });

  it("rejects a call whose feature cannot load with a ModelGateError naming the feature, its cause the loader's error, nothing sent, not retried", async () => {
    let sent = 0;
    const mock = createMockGateway();
    const gateway = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 2, fetch: (input, init) => (sent++, mock(new Request(input, init))) });
    const failures = async (call: () => PromiseLike<unknown>) => {
      const error = await Promise.resolve().then(call).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error).not.toBeInstanceOf(APIConnectionError);
      // vitest wraps what the mocked module threw ("There was an error when mocking a module",
      // the module's error as its cause); the loader keeps whatever import() rejected with.
      const cause = (error as Error).cause as Error;
      expect(cause).toBeInstanceOf(Error);
      expect(`${cause.message} ${(cause.cause as Error | undefined)?.message}`).toContain("Failed to fetch dynamically imported module");
      return (error as Error).message;
    };
    for (let call = 0; call < 2; call++) {
      expect(await failures(() => gateway.chat.completions.parse({ model: "auto", messages, response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } } }))).toMatch(/^Could not load the code of structured outputs \(the schema reading of parse\(\), of stream\(\) and of tool\(\) tools\), so nothing was sent/);
    }
    // A create() given tool() tools reads their schemas with that code: its caller, who never called parse(), is told why.
    const weather = tool({ name: "weather", parameters: jsonSchema({ type: "object", properties: {} }), run: () => "sunny" });
    expect(await failures(() => gateway.chat.completions.create({ model: "auto", messages, tools: [weather] }))).toMatch(/structured outputs .*of tool\(\) tools/);
    expect(await failures(() => gateway.embeddings.create({ model: "mock-embed", input: "x" }))).toMatch(/embeddings, images and audio endpoints/);
    expect(await failures(() => gateway.chat.completions.create({ model: "mock-fast", messages }, { maxCost: 0.01 }))).toMatch(/budgets \(maxCost, shrinkToAffordable\)/);
    expect(await failures(() => gateway.chat.completions.runTools({ model: "auto", messages, tools: [] }))).toMatch(/runTools\(\)/);
    // openai's helpers: returned at once, their promises reject with the same error.
    const stream = gateway.chat.completions.stream({ model: "auto", messages });
    expect(await failures(() => stream.done())).toMatch(/chat\.completions\.stream\(\)/);
    await expect(stream.finalContent()).rejects.toThrow(ModelGateError);
    expect(await failures(() => gateway.chat.completions.runTools({ model: "auto", messages, tools: [] }).done())).toMatch(/runTools\(\)/);
    expect(sent).toBe(0);
  });

  it("names a bad option of a call that needs a feature before it asks for the code, not behind the load's failure", async () => {
    const gateway = client();
    const named = (call: () => PromiseLike<unknown>) => Promise.resolve().then(call).then(() => undefined, (error: unknown) => (error as Error).message);
    expect(await named(() => gateway.chat.completions.create({ model: "mock-fast", messages }, { maxCost: -1 }))).toBe("`maxCost` must be a positive number of US dollars; got number -1.");
    expect(await named(() => gateway.chat.completions.create({ model: "mock-fast", messages }, { maxCost: null as never }))).toBe("`maxCost` must be a positive number of US dollars; got null.");
    expect(await named(() => gateway.chat.completions.parse({ model: "auto", messages }, { timeout: "10s" as never }))).toMatch(/^`timeout` must be a non-negative number of milliseconds; got "10s"/);
    expect(await named(() => gateway.chat.completions.runTools({ model: "auto", messages, tools: [] }, { maxCost: 0 }))).toBe("`maxCost` must be a positive number of US dollars; got number 0.");
    expect(await named(() => gateway.embeddings.create({ model: "mock-embed", input: "x" }, { signal: "stop" as never }))).toMatch(/^`signal` must be an AbortSignal/);
    // Returned at once, as ever: the mistake is the call's rejection, not a throw.
    expect(() => gateway.chat.completions.parse({ model: "auto", messages }, { timeout: -5 })).not.toThrow();
  });
});
