import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelGate, Stream, type ChatCompletionChunk, type ChatCompletionCreateParamsNonStreaming } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGateway } from "../src/testing/index.ts";
import { eventually } from "./fixtures/mock-stream.ts";

const params: ChatCompletionCreateParamsNonStreaming = { model: "auto", messages: [{ role: "user", content: "Tell me about rivers" }] };

// Every test gets its own gateway and, once it is done, checks that gateway has no stream
// still running: a helper that leaves its body unread or uncancelled fails the test that used
// it, whether the test runs alone or with the others.
let gateway: MockGateway;
let client: ModelGate;
beforeEach(() => {
  gateway = createMockGateway();
  client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway });
});
afterEach(async () => {
  // A cancelled body reaches the gateway a few ticks after the caller moved on.
  await eventually(() => gateway.activeStreams === 0);
  expect(gateway.activeStreams, "streams of the mock gateway still running after the test").toBe(0);
});

const stream = (extra: Partial<ChatCompletionCreateParamsNonStreaming> = {}) => client.chat.completions.create({ ...params, ...extra, stream: true });

describe("stream helpers against the mock gateway", () => {
  it("text() equals the content of the same request made without streaming", async () => {
    const whole = await client.chat.completions.create(params);
    expect(await (await stream()).text()).toBe(whole.choices[0]?.message.content);
  });

  it("finalChatCompletion() matches the non-streamed completion, usage included", async () => {
    const whole = await client.chat.completions.create(params);
    const assembled = await (await stream({ stream_options: { include_usage: true } })).finalChatCompletion();
    expect(assembled.model).toBe(whole.model);
    expect(assembled.choices).toEqual(whole.choices);
    expect(assembled.usage).toEqual(whole.usage);
  });

  it("finalChatCompletion() assembles a streamed tool call and n = 2 choices", async () => {
    const tools = [{ type: "function" as const, function: { name: "search", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } } }];
    const withTool = await (await stream({ tools })).finalChatCompletion();
    expect(withTool.choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: "search", arguments: '{"query":"sample query"}' });
    const two = await (await stream({ n: 2 })).finalChatCompletion();
    expect(two.choices.map((choice) => choice.index)).toEqual([0, 1]);
  });

  it("textStream yields the text in order", async () => {
    const pieces: string[] = [];
    for await (const piece of (await stream()).textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(await (await stream()).text());
  });

  it("tee() lets one side print text while the other assembles the completion", async () => {
    const [forText, forCompletion] = (await stream()).tee();
    const [text, completion] = await Promise.all([forText.text(), forCompletion.finalChatCompletion()]);
    expect(completion.choices[0]?.message.content).toBe(text);
  });

  it("passes a stream from a server route to a client via toReadableStream() and fromReadableStream()", async () => {
    const route = async () => new Response((await stream()).toReadableStream(), { headers: { "content-type": "application/x-ndjson" } });
    const response = await route();
    const rebuilt = Stream.fromReadableStream<ChatCompletionChunk>(response.body!);
    expect(await rebuilt.text()).toBe(await (await stream()).text());
  });

  it("stops the gateway's stream when the caller leaves textStream after the first piece", async () => {
    const opened = await stream();
    expect(gateway.activeStreams, "the stream is running while it is read").toBe(1);
    for await (const _ of opened.textStream) break;
    expect(await eventually(() => gateway.activeStreams === 0), "the gateway's stream stopped after the break").toBe(true);
  });
});
