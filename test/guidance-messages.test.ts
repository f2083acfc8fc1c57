// Misuse and failure messages say what to do next, not only what went wrong. Each of these was
// once shortened to save first-load bytes and has its guidance back (issue 27, item 7): the
// test drives the mistake or the failure and reads the whole message the caller gets.
import { afterEach, describe, expect, it, vi } from "vitest";
import { APIConnectionError, ModelGate, ModelGateError, Stream, type ChatCompletionChunk } from "../src/index.ts";
import { respondWith, streamedBody } from "./fixtures/body.ts";
import { chunk, DONE, sseData } from "./fixtures/chunks.ts";
import { API_KEY, BASE, USER_HELLO, testClient } from "./fixtures/server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** What `run` threw, synchronously or as its rejection. */
async function failureOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

/** A client whose every answer is an event stream of `parts` (ended as `end` says). */
function streamingClient(parts: string[], end: "close" | "break-off" = "close") {
  return testClient({
    maxRetries: 0,
    fetch: respondWith(() => new Response(streamedBody(parts, { end }).body, { headers: { "content-type": "text/event-stream" } })),
  });
}

describe("constructing a client", () => {
  it("in a browser, says the default protects the key and names both ways out", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE })).toThrow(
      new ModelGateError(
        "ModelGate does not run in a browser by default: any visitor could read the API key. Call the gateway from a server, or pass `dangerouslyAllowBrowser: true` if the key is the visitor's own.",
      ),
    );
  });

  it("without a global fetch, says to pass one as the `fetch` option", () => {
    vi.stubGlobal("fetch", undefined);
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE })).toThrow("No global `fetch` in this runtime; pass one as the `fetch` option.");
    // And following the advice works.
    expect(() => new ModelGate({ apiKey: API_KEY, baseURL: BASE, fetch: async () => new Response("{}") })).not.toThrow();
  });

  it("without an API key, names the option, the environment variable and Deno's permission", () => {
    vi.stubEnv("MODELGATE_API_KEY", "");
    expect(() => new ModelGate({ baseURL: BASE })).toThrow(
      expect.objectContaining({
        param: "apiKey",
        message:
          "`apiKey` is missing: pass `new ModelGate({ apiKey })` or set the MODELGATE_API_KEY environment variable (on Deno, also allow reading it: --allow-env=MODELGATE_API_KEY).",
      }),
    );
  });

  it("with a key holding a line break, points at the stray newline a copy leaves", () => {
    const error = (() => {
      try {
        new ModelGate({ apiKey: "mg-test-key\n", baseURL: BASE });
      } catch (caught) {
        return caught as ModelGateError & { param?: string };
      }
    })();
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error?.param).toBe("apiKey");
    expect(error?.message).toMatch(/contains whitespace, a line break or a non-ASCII character; check for a stray newline when it was copied/);
    expect(error?.message).not.toContain("mg-test-key");
  });
});

describe("a chat call", () => {
  it("with an empty model, says what a model may be, and sends nothing", async () => {
    let sent = 0;
    const client = testClient({ fetch: async () => (sent++, new Response("{}")) });
    const error = await failureOf(() => client.chat.completions.create({ model: "", messages: USER_HELLO }));
    expect(error).toMatchObject({ name: "ModelGateError", param: "model" });
    expect((error as Error).message).toBe('`model` must be a non-empty string (a model id, or "auto" to let the gateway choose); got "".');
    expect(sent).toBe(0);
  });

  it("answered with JSON that has no choices, says it was cut or is no chat completion", async () => {
    const client = testClient({ maxRetries: 0, fetch: respondWith(() => Response.json({ id: "x" })) });
    const error = await failureOf(() => client.chat.completions.create({ model: "auto", messages: USER_HELLO }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe("The answer has no `choices`: it was cut, or is no chat completion.");
  });
});

describe("reading a stream", () => {
  it("whose connection breaks off, says so in words and names the runtime's reason", async () => {
    const stream = await streamingClient([sseData(chunk({ content: "a" }))], "break-off").chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    const seen: string[] = [];
    const error = await failureOf(async () => {
      for await (const each of stream) seen.push(each.choices[0]?.delta.content ?? "");
    });
    expect(seen).toEqual(["a"]);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^The connection broke off in the middle of the stream \(.+\)\.$/);
  });

  it("that held no chunk, says there is no completion to assemble", async () => {
    const stream = await streamingClient([DONE]).chat.completions.create({ model: "auto", messages: USER_HELLO, stream: true });
    await expect(stream.finalChatCompletion()).rejects.toThrow(new ModelGateError("The stream ended without any chunk, so there is no completion to assemble."));
  });

  it.each([
    ["client.chat.completions.create", (client: ModelGate) => { const { create } = client.chat.completions; return create({ model: "auto", messages: USER_HELLO }); }],
    ["client.chat.completions.parse", (client: ModelGate) => { const { parse } = client.chat.completions; return parse({ model: "auto", messages: USER_HELLO }); }],
    ["client.chat.completions.stream", (client: ModelGate) => { const { stream } = client.chat.completions; return stream({ model: "auto", messages: USER_HELLO }).done(); }],
    ["client.chat.completions.runTools", (client: ModelGate) => { const { runTools } = client.chat.completions; return runTools({ model: "auto", messages: USER_HELLO, tools: [] }).done(); }],
    ["client.models.list", (client: ModelGate) => { const { list } = client.models; return list(); }],
    ["client.models.retrieve", (client: ModelGate) => { const { retrieve } = client.models; return retrieve("m"); }],
    ["client.get", (client: ModelGate) => ["/v1/models"].map(client.get as (path: string) => PromiseLike<unknown>)[0]!],
    ["client.post", (client: ModelGate) => { const { post } = client; return post("/v1/x", { body: {} }); }],
    ["client.put", (client: ModelGate) => { const { put } = client; return put("/v1/x"); }],
    ["client.patch", (client: ModelGate) => { const { patch } = client; return patch("/v1/x"); }],
    ["client.delete", (client: ModelGate) => { const { delete: remove } = client; return remove("/v1/x"); }],
    ["client.request", (client: ModelGate) => { const { request } = client; return request({ method: "GET", path: "/v1/models" }); }],
  ])("from %s called without its object, says how to call it, as a rejection", async (method, call) => {
    let settled: Promise<unknown> | undefined;
    expect(() => (settled = Promise.resolve(call(testClient())))).not.toThrow();
    const error = await settled!.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    const object = method.slice(0, method.lastIndexOf("."));
    expect((error as Error).message).toBe(`\`${method}\` was called without its object (\`this\` is not ${object}): call it as \`${method}(…)\`, or pass it on bound, as \`${method}.bind(${object})\`.`);
  });

  it("from the generic methods given options that throw when read, or no request at all, rejects instead of throwing", async () => {
    const client = testClient();
    const throwing = new Proxy({}, { ownKeys: () => { throw new Error("no keys"); }, get: () => { throw new Error("no fields"); } });
    for (const call of [() => client.post("/v1/x", throwing as never), () => client.put("/v1/x", throwing as never), () => client.patch("/v1/x", throwing as never)]) {
      let settled: Promise<unknown> | undefined;
      expect(() => (settled = Promise.resolve(call()))).not.toThrow();
      expect(await settled!.catch((caught: unknown) => caught)).toBeInstanceOf(Error);
    }
    const error = await client.request(null as never).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelGateError", param: "spec", message: "`spec` must be a request: { method, path, body?, options? }; got null." });
    expect(() => ModelGate.prototype.withOptions.call(undefined, {})).toThrow(/`client.withOptions` was called without its object/);
    // A stand-in for a client (a Proxy of one, an object made from one) passes instanceof but holds none of its state.
    for (const standIn of [new Proxy(client, {}), Object.create(client) as ModelGate]) {
      let settled: Promise<unknown> | undefined;
      expect(() => (settled = Promise.resolve(standIn.get("/v1/models")))).not.toThrow();
      expect(await settled!.catch((caught: unknown) => caught)).toMatchObject({ name: "ModelGateError", message: expect.stringContaining("`client.get` was called without its object") });
    }
  });

  it("from a body of strings, says it must yield bytes, for the bridge reader and for a response", async () => {
    const strings = () => new ReadableStream<string>({ start: (controller) => (controller.enqueue(`${JSON.stringify(chunk({ content: "a" }))}\n`), controller.close()) });
    const expected = "The response body yielded a string where it must yield bytes (Uint8Array), as a Response's body does. For a stream of text, encode it first: `readable.pipeThrough(new TextEncoderStream())`.";
    const bridged = await failureOf(() => Stream.fromReadableStream<ChatCompletionChunk>(strings() as unknown as ReadableStream<Uint8Array>).text());
    expect(bridged).toBeInstanceOf(ModelGateError);
    expect((bridged as Error).message).toBe(expected);
    const client = new ModelGate({ apiKey: "k-12345678", baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => new Response(strings() as unknown as ReadableStream<Uint8Array>, { headers: { "content-type": "text/event-stream" } }) });
    const fetched = await failureOf(async () => (await client.chat.completions.create({ model: "m", messages: USER_HELLO, stream: true })).text());
    expect(fetched).toBeInstanceOf(ModelGateError);
    expect((fetched as Error).message).toBe(expected);
  });

  it("from a body something else is already reading, names asResponse() as the likely reader", async () => {
    const { body } = streamedBody([sseData(chunk({ content: "a" }))]);
    body.getReader();
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(body);
    const error = await failureOf(async () => {
      for await (const _ of stream) void _;
    });
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toBe("The response body is already being read elsewhere (e.g. by asResponse()).");
  });
});
