import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APIConnectionError, APIError, InternalServerError, ModelGate, RateLimitError, Stream, StructuredOutputError, type ChatCompletionChunk } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData, usageChunk } from "./fixtures/chunks.ts";
import { catalogueEntry, pricedGateway } from "./fixtures/priced-gateway.ts";

// What the gateway did, on completions, streams and errors: from the response headers, the
// body and the pipeline's own count of attempts.

const messages = [{ role: "user" as const, content: "hi" }];

function clientAnswering(...answers: (() => Response)[]) {
  let call = 0;
  return new ModelGate({
    apiKey: "sk-test-key-1234",
    baseURL: "https://gateway.test",
    maxRetries: 2,
    fetch: async () => (answers[Math.min(call++, answers.length - 1)] as () => Response)(),
  });
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": `req_${status}`, "retry-after-ms": "0", ...headers } });

const served = { ...completionBody("Hello"), id: "chatcmpl-body", model: "openai/gpt-4.1-mini", provider: "openai", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 0.000123 } };

describe("completion.gateway", () => {
  it("says what answered, the ids, the attempts and the cost, and stays out of JSON.stringify", async () => {
    const client = clientAnswering(json(served, 200, { "x-generation-id": "gen-header" }));
    const completion = await client.chat.completions.create({ model: "auto", messages });
    expect(completion.gateway).toEqual({
      requestedModel: "auto",
      model: "openai/gpt-4.1-mini",
      provider: "openai",
      generationID: "gen-header",
      requestID: "req_200",
      attempts: 1,
      cost: 0.000123,
      usage: served.usage,
    });
    expect(JSON.stringify(completion)).toBe(JSON.stringify(served));
    expect(Object.keys(completion)).not.toContain("gateway");
  });

  it("takes the generation id from the body without the header, the cost from x-modelgate-cost, and says null when nothing tells", async () => {
    const { cost: _cost, ...usageWithoutCost } = served.usage;
    const fromHeader = clientAnswering(json({ ...served, usage: usageWithoutCost }, 200, { "x-modelgate-cost": "0.5" }));
    const completion = await fromHeader.chat.completions.create({ model: "m", messages });
    expect(completion.gateway).toMatchObject({ requestedModel: "m", generationID: "chatcmpl-body", cost: 0.5 });
    const { usage: _usage, provider: _provider, ...bare } = served;
    const silent = await clientAnswering(json(bare)).chat.completions.create({ model: "m", messages });
    expect(silent.gateway).toMatchObject({ cost: null, usage: null, provider: null });
  });

  it("counts every attempt, retries included", async () => {
    const client = clientAnswering(json({ error: { message: "busy" } }, 503), json({ error: { message: "slow" } }, 429), json(served));
    const completion = await client.chat.completions.create({ model: "auto", messages });
    expect(completion.gateway?.attempts).toBe(3);
  });

  it("is on parse()'s completion too", async () => {
    const client = clientAnswering(json({ ...served, choices: [{ index: 0, message: { role: "assistant", content: '{"a":1}' }, finish_reason: "stop" }] }));
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: z.object({ a: z.number() }) });
    expect(completion.gateway).toMatchObject({ requestedModel: "auto", model: "openai/gpt-4.1-mini", cost: 0.000123 });
  });

  it("reads only a plain decimal x-modelgate-cost", async () => {
    for (const header of ["", "-1", "0x10", "abc"]) {
      const { client } = pricedGateway({ chat: () => new Response(JSON.stringify(completionBody("ok")), { headers: { "x-modelgate-cost": header, "content-type": "application/json" } }) });
      expect((await client.chat.completions.create({ model: "m", messages })).gateway?.cost).toBeNull();
    }
  });

  it("is always the SDK's own: a gateway field in the body is replaced, so it cannot tell a budget the call was free", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, cost: 5 };
    const theirs = { ...completionBody("ok"), model: "m", usage, gateway: { cost: 0, attempts: 1, model: "free-model" } };
    const { client } = pricedGateway({ chat: () => Response.json(theirs) });
    const completion = await client.chat.completions.create({ model: "m", messages });
    expect(completion.gateway).toMatchObject({ cost: 5, model: "m", attempts: 1 });
    expect(Object.getOwnPropertyDescriptor(completion, "gateway")?.enumerable).toBe(false);
    expect(JSON.parse(JSON.stringify(completion))).not.toHaveProperty("gateway");
  });

  it("keeps a runTools() budget when every answer's body claims a cost of 0", async () => {
    // Each step calls a tool again; without usage, a step counts at its worst case ($3 at these prices).
    const call = { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "noop", arguments: "{}" } }] };
    let step = 0;
    const { client } = pricedGateway({
      models: [catalogueEntry("m", { prompt: 0, completion: 3_000_000 })],
      chat: () => Response.json({ ...completionBody("ok"), model: "m", choices: [{ index: 0, message: { ...call, tool_calls: [{ ...call.tool_calls[0], id: `c${step}`, function: { name: "noop", arguments: `{"i":${step++}}` } }] }, finish_reason: "tool_calls" }], gateway: { cost: 0 } }),
    });
    const noop = { type: "function" as const, function: { name: "noop", parameters: { type: "object", properties: {} }, function: () => "done" } };
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [noop], max_tokens: 1 }, { maxCost: 10, maxSteps: 50 });
    expect(result.stopReason).toBe("max_cost");
    // $3 at worst per step: at most three fit in $10; the body's "cost: 0" bought none more.
    expect(step).toBeLessThanOrEqual(3);
  });

  it("keeps the gateway info on the completion a StructuredOutputError carries", async () => {
    const gateway = createMockGateway({ chunkDelayMs: 0 });
    gateway.inject({ type: "structured", as: "schema-violation" }, 1);
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
    const error = (await client.chat.completions.parse({ model: "auto", messages, response_format: z.object({ city: z.string() }) }).catch((caught: unknown) => caught)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.completion.gateway).toMatchObject({ requestedModel: "auto", attempts: 1 });
    expect(error.completion.gateway?.cost).toBeGreaterThan(0);
  });
});

describe("stream.gateway", () => {
  const first = chunk({ role: "assistant", content: "Hel" }, { id: "chatcmpl-s", model: "anthropic/claude-haiku-4.5", provider: "anthropic" });
  const usage = { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6, cost: 0.00002 };

  it("is there before the first chunk, learns the model from it and the cost from the usage chunk", async () => {
    const body = [sseData(first), sseData(chunk({ content: "lo" }, { finish: "stop" })), sseData(usageChunk(usage)), DONE];
    const client = clientAnswering(() => sseResponse(body, { headers: { "x-request-id": "req_s" } }));
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
    expect(stream.gateway).toEqual({ requestedModel: "auto", model: null, provider: null, generationID: null, requestID: "req_s", attempts: 1, cost: null, usage: null });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    expect(stream.gateway).toMatchObject({ model: "anthropic/claude-haiku-4.5", provider: "anthropic", generationID: "chatcmpl-s", cost: null });
    while (!(await iterator.next()).done);
    expect(stream.gateway).toMatchObject({ cost: 0.00002, usage });
  });

  it("keeps cost and usage null when the stream is cut before its usage chunk, and the error says so too", async () => {
    const body = [sseData(first), sseData(chunk({ content: "lo" }, { finish: "stop" }))];
    const client = clientAnswering(() => sseResponse(body, { breakOff: true }));
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
    const error = await (async () => {
      for await (const _ of stream as AsyncIterable<ChatCompletionChunk>);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(stream.gateway).toMatchObject({ model: "anthropic/claude-haiku-4.5", cost: null, usage: null });
    expect((error as APIError).gateway).toMatchObject({ requestedModel: "auto", model: "anthropic/claude-haiku-4.5", attempts: 1, cost: null, usage: null });
  });

  it("is on finalChatCompletion() of a streamed parse(), as on parse()'s completion, and stays out of JSON.stringify", async () => {
    const answer = chunk({ role: "assistant", content: '{"a":1}' }, { id: "chatcmpl-s", model: "anthropic/claude-haiku-4.5", provider: "anthropic", finish: "stop" });
    const client = clientAnswering(() => sseResponse([sseData(answer), sseData(usageChunk(usage)), DONE], { headers: { "x-request-id": "req_s" } }));
    const stream = await client.chat.completions.parse({ model: "auto", messages, response_format: z.object({ a: z.number() }), stream: true, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]!.message.parsed).toEqual({ a: 1 });
    expect(completion.gateway).toMatchObject({ requestedModel: "auto", model: "anthropic/claude-haiku-4.5", generationID: "chatcmpl-s", requestID: "req_s", cost: 0.00002 });
    expect(completion.gateway).toBe(stream.gateway);
    expect(Object.keys(completion)).not.toContain("gateway");
  });

  it("is on finalChatCompletion() of a plain stream: the stream's own, out of JSON.stringify", async () => {
    const body = [sseData(first), sseData(chunk({ content: "lo" }, { finish: "stop" })), sseData(usageChunk(usage)), DONE];
    const client = clientAnswering(() => sseResponse(body, { headers: { "x-request-id": "req_s" } }));
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    expect(completion.gateway).toBe(stream.gateway);
    expect(completion.gateway).toMatchObject({ requestedModel: "auto", model: "anthropic/claude-haiku-4.5", requestID: "req_s", attempts: 1, cost: 0.00002 });
    expect(Object.keys(completion)).not.toContain("gateway");
    expect(JSON.parse(JSON.stringify(completion))).not.toHaveProperty("gateway");
  });

  it("is on finalChatCompletion() of a stream read from a bridge body: what its chunks say, no request, no attempt", async () => {
    const lines = [first, chunk({ content: "lo" }, { finish: "stop" }), usageChunk(usage), { id: "chatcmpl-s", choices: [], modelgate_bridge: "end" }];
    const body = new Response(lines.map((line) => `${JSON.stringify(line)}\n`).join("")).body!;
    const completion = await Stream.fromReadableStream<ChatCompletionChunk>(body).finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("Hello");
    expect(completion.gateway).toEqual({ requestedModel: null, model: "anthropic/claude-haiku-4.5", provider: "anthropic", generationID: "chatcmpl-s", requestID: null, attempts: 0, cost: 0.00002, usage });
    expect(Object.keys(completion)).not.toContain("gateway");
  });

  it("gives an error sent inside the stream what the stream knew", async () => {
    const failing = { ...chunk({}, { finish: "error" as never }), error: { code: 502, message: "upstream failed" } };
    const client = clientAnswering(() => sseResponse([sseData(first), sseData(failing)]));
    const stream = await client.chat.completions.create({ model: "auto", messages, stream: true });
    const error = await (async () => {
      for await (const _ of stream as AsyncIterable<ChatCompletionChunk>);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).gateway).toMatchObject({ requestedModel: "auto", model: "anthropic/claude-haiku-4.5", generationID: "chatcmpl-s", attempts: 1 });
  });
});

describe("error.gateway", () => {
  it("counts the attempts of a call that failed after its retries", async () => {
    const client = clientAnswering(json({ error: { message: "slow down" } }, 429));
    const error = (await client.chat.completions.create({ model: "auto", messages }).catch((caught: unknown) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.gateway).toEqual({ requestedModel: "auto", model: null, provider: null, generationID: null, requestID: "req_429", attempts: 3, cost: null, usage: null });
  });

  it("is on connection errors and on errors of calls without a model", async () => {
    const offline = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://gateway.test", maxRetries: 1, fetch: async () => Promise.reject(new TypeError("fetch failed")) });
    const error = (await offline.chat.completions.create({ model: "m", messages }).catch((caught: unknown) => caught)) as APIError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.gateway).toMatchObject({ requestedModel: "m", attempts: 2, requestID: null });
    const models = clientAnswering(json({ error: { message: "down" } }, 500));
    const listError = (await models.models.list({ maxRetries: 0 }).catch((caught: unknown) => caught)) as APIError;
    expect(listError).toBeInstanceOf(InternalServerError);
    expect(listError.gateway).toMatchObject({ requestedModel: null, attempts: 1, requestID: "req_500" });
  });

  it("defaults to what a hand-made error knows", () => {
    const error = new RateLimitError(429, { message: "slow", headers: new Headers({ "x-request-id": "req_x" }) });
    expect(error.gateway).toMatchObject({ requestID: "req_x", attempts: 0, model: null });
  });
});
