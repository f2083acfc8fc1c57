import { describe, expect, it } from "vitest";
import { APIConnectionError, APIError, APIUserAbortError, ModelGate, ModelGateError, RateLimitError, type ChatCompletion } from "../src/index.ts";
import { chunk } from "./fixtures/chunks.ts";
import { fedBody } from "./fixtures/fed-body.ts";

// API.md (Stream): a `stream: true` answer is read by its first bytes, not its label.

const KEY = "mg-secret-key-0123456789abcdef";
const USER = [{ role: "user" as const, content: "Hi" }];
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const SSE = `${data(chunk({ role: "assistant", content: "Hel" }))}${data(chunk({ content: "lo" }, { finish: "stop" }))}data: [DONE]\n\n`;

/** A client whose fetch answers the requests with `answers` in order (the last one again after). */
function clientWith(answers: (() => Response)[], options: { maxRetries?: number } = {}) {
  const seen = { requests: 0 };
  const fetch = async () => answers[Math.min(seen.requests++, answers.length - 1)]!();
  return { client: new ModelGate({ apiKey: KEY, baseURL: "https://gateway.test", fetch, maxRetries: 0, ...options }), seen };
}
const answer = (body: BodyInit | null, headers: Record<string, string> = {}, status = 200) => () => new Response(body, { status, headers });
const streamOf = (client: ModelGate, signal?: AbortSignal) => client.chat.completions.create({ model: "auto", messages: USER, stream: true }, { signal });
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);

describe("Server-Sent Events with any label are a stream", () => {
  it.each([
    ["text/plain (msw's text(), a proxy)", { "content-type": "text/plain" }],
    ["application/json (a mislabelling proxy)", { "content-type": "application/json" }],
    ["text/html", { "content-type": "text/html" }],
  ])("reads an event stream labelled %s", async (_, headers) => {
    const { client } = clientWith([answer(SSE, headers)]);
    expect(await (await streamOf(client)).text()).toBe("Hello");
  });

  it("reads `new Response(sseText)` (labelled text/plain;charset=UTF-8 by the runtime) and a body with no content type", async () => {
    const unlabelled = () => {
      const response = new Response(SSE);
      response.headers.delete("content-type");
      return response;
    };
    for (const make of [() => new Response(SSE), unlabelled]) {
      const { client } = clientWith([make]);
      expect(await (await streamOf(client)).text()).toBe("Hello");
    }
  });

  it("reads a stream that starts with a BOM, blank lines, a keep-alive comment or a field split across reads", async () => {
    for (const reads of [["\uFEFF", SSE], ["\r\n\n", SSE], [": PROCESSING\n\n", SSE], ["da", "ta", SSE.slice(4)], ["\uFEFF\n", "ev", `ent: message\n${SSE}`]]) {
      const { client } = clientWith([() => new Response(new Blob(reads).stream(), { headers: { "content-type": "text/event-stream" } })]);
      expect(await (await streamOf(client)).text(), JSON.stringify(reads)).toBe("Hello");
    }
  });

  it("resolves create() at the first event, without reading the rest of the body", async () => {
    const body = fedBody();
    const { client } = clientWith([() => new Response(body.body, { headers: { "content-type": "text/plain" } })]);
    const created = streamOf(client);
    body.send(data(chunk({ role: "assistant", content: "Hel" })));
    // Nothing more is sent: create() resolving proves the rest was not awaited.
    const stream = await created;
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value.choices[0].delta.content).toBe("Hel");
    body.send(data(chunk({ content: "lo" }, { finish: "stop" })));
    body.close();
    expect((await iterator.next()).value.choices[0].delta.content).toBe("lo");
    expect((await iterator.next()).done).toBe(true);
  });

  it("hands the first bytes to asResponse() too", async () => {
    const { client } = clientWith([answer(SSE, { "content-type": "text/plain" })]);
    const response = await client.chat.completions.create({ model: "auto", messages: USER, stream: true }).asResponse();
    expect(await response.text()).toBe(SSE);
  });
});

describe("a JSON error document rejects create()", () => {
  it.each(["text/event-stream", "application/json", "text/plain"])("as the APIError its code names, labelled %s", async (contentType) => {
    const { client } = clientWith([answer(JSON.stringify({ error: { message: `slow down, ${KEY}`, code: 429 } }), { "content-type": contentType })]);
    const error = await rejection(streamOf(client));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, message: expect.stringContaining("slow down") });
    expect(error?.message).not.toContain(KEY);
  });

  it("is retried by its code's class, as that status would be", async () => {
    const limited = answer(JSON.stringify({ error: { message: "slow down", code: 429 } }), { "content-type": "text/event-stream", "retry-after-ms": "1" });
    const { client, seen } = clientWith([limited, answer(SSE, { "content-type": "text/event-stream" })], { maxRetries: 1 });
    expect(await (await streamOf(client)).text()).toBe("Hello");
    expect(seen.requests).toBe(2);
  });

  it("is not retried when its code is no retryable status", async () => {
    const { client, seen } = clientWith([answer(JSON.stringify({ error: { message: "bad model", code: 400 } }), { "content-type": "text/event-stream" })], { maxRetries: 2 });
    expect(await rejection(streamOf(client))).toMatchObject({ status: 400, message: "400 bad model" });
    expect(seen.requests).toBe(1);
  });
});

describe("a whole completion answered to stream: true", () => {
  const completion = {
    id: "chatcmpl-whole",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "mock/model",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: "Let me check.", tool_calls: [{ id: "call-1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }, { id: "call-2", type: "function", function: { name: "time", arguments: "{}" } }] },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
  };
  const whole = (headers: Record<string, string> = { "content-type": "application/json" }) => clientWith([answer(JSON.stringify(completion), headers)]).client;

  it("is a stream of one chat.completion.chunk carrying the text, the calls with their index, finish_reason and usage", async () => {
    const chunks = [];
    for await (const piece of await streamOf(whole())) chunks.push(piece);
    expect(chunks).toEqual([
      {
        id: "chatcmpl-whole",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: "mock/model",
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              content: "Let me check.",
              tool_calls: [
                { index: 0, id: "call-1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
                { index: 1, id: "call-2", type: "function", function: { name: "time", arguments: "{}" } },
              ],
            },
            logprobs: null,
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      },
    ]);
  });

  it("assembles into the completion it was, whatever its label, and fills stream.gateway", async () => {
    for (const headers of [{ "content-type": "application/json" }, { "content-type": "text/event-stream" }, {}] as Record<string, string>[]) {
      const stream = await streamOf(whole(headers));
      const assembled: ChatCompletion = await stream.finalChatCompletion();
      expect(assembled.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { content: "Let me check.", tool_calls: completion.choices[0]!.message.tool_calls } });
      expect(assembled.usage).toEqual(completion.usage);
      expect(stream.gateway.usage).toEqual(completion.usage);
    }
  });

  it("gives the body as it came to asResponse()", async () => {
    const response = await whole().chat.completions.create({ model: "auto", messages: USER, stream: true }).asResponse();
    expect(JSON.parse(await response.text())).toEqual(completion);
  });

  it("ends with APIUserAbortError, not its chunk, once the caller's signal fires", async () => {
    const controller = new AbortController();
    const stream = await streamOf(whole(), controller.signal);
    controller.abort();
    const error = await rejection(stream.text());
    expect(error).toBeInstanceOf(APIUserAbortError);
  });
});

describe("anything else is an error that names what came", () => {
  it.each([
    ["an HTML page", "\n<!DOCTYPE html><html><body><h1>Sign in to the office Wi-Fi</h1></body></html>", "text/event-stream", /but got HTML \(text\/event-stream\): .*Sign in to the office Wi-Fi.*baseURL/],
    ["plain text", "Service temporarily unavailable, try later", "text/event-stream", /but got plain text \(text\/event-stream\): Service temporarily unavailable/],
    ["JSON that is no answer", '{"hello":"world"}', "application/json", /but got JSON that is no answer \(application\/json\): \{"hello":"world"\}/],
    ["JSON cut short", '{"id":"chatcmpl-1","choices":[{"mess', "application/json", /but got JSON that does not parse \(cut short\?\)/],
  ])("%s", async (_, body, contentType, message) => {
    const { client, seen } = clientWith([answer(body, { "content-type": contentType })], { maxRetries: 2 });
    const error = await rejection(streamOf(client));
    expect(error).toBeInstanceOf(APIError);
    expect(error?.message).toMatch(/^200 Expected an event stream/);
    expect(error?.message).toMatch(message);
    expect(seen.requests).toBe(1);
  });

  it("an empty or blank body is a ModelGateError: the APIConnectionError of a cut (retried as one, see retries.test.ts)", async () => {
    for (const body of [null, "", "\n\n  \r\n"]) {
      const { client, seen } = clientWith([answer(body, { "content-type": "text/event-stream" }), answer(SSE)], { maxRetries: 0 });
      const error = await rejection(streamOf(client));
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error?.message).toMatch(/ended before its first event \(its body was empty/);
      expect(seen.requests).toBe(1);
    }
  });
});
