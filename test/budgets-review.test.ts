import { describe, expect, it } from "vitest";
import { APIError, APIUserAbortError, BudgetExceededError, ModelGate, ModelGateError, type Model } from "../src/index.ts";
import { promptTokensAtMost } from "../src/budget/prompt-tokens.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, sseData } from "./fixtures/chunks.ts";

// The defects a hostile review of gateway info, 402s and budgets reproduced, one test each.

const KEY = "sk-budget-review-key-0123456789";
const messages = [{ role: "user" as const, content: "Hello there." }];
const model = (id: string, pricing: Model["pricing"], extra: Partial<Model> = {}): Model => ({ id, object: "model", created: 0, owned_by: "x", pricing, ...extra });

function gateway(options: { models?: Model[]; catalogueDelayMs?: number; chat?: (body: Record<string, unknown>, headers: Headers) => Response } = {}) {
  const sent: { body: Record<string, unknown>; headers: Headers }[] = [];
  const client = new ModelGate({
    apiKey: KEY,
    baseURL: "https://gateway.test",
    maxRetries: 0,
    fetch: async (url, init) => {
      if (String(url).endsWith("/v1/models")) {
        if (options.catalogueDelayMs) await new Promise((resolve) => setTimeout(resolve, options.catalogueDelayMs));
        return Response.json({ object: "list", data: options.models ?? [] });
      }
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      const headers = new Headers(init?.headers);
      sent.push({ body, headers });
      return options.chat ? options.chat(body, headers) : Response.json(completionBody("ok"));
    },
  });
  return { client, sent };
}

describe("budgets and 402s: edges found by review", () => {
  it("counts every choice of n in the worst case", async () => {
    const { client, sent } = gateway({ models: [model("m/x", { prompt: 0, completion: 1_000 }, { max_output_tokens: 10_000 })] });
    await client.chat.completions.create({ model: "m/x", messages, n: 4, max_tokens: 1_000 }, { maxCost: 0.4 });
    expect(sent[0]!.body.max_tokens).toBe(100); // 4 choices × 100 tokens × $0.001
  });

  it("ends the wait for the catalogue at once when the call is aborted", async () => {
    const { client } = gateway({ models: [model("m/x", { prompt: 1, completion: 1 })], catalogueDelayMs: 2_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const error = await client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1, signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("still checks the prompt when the reply is free", async () => {
    const { client, sent } = gateway({ models: [model("m/free-reply", { prompt: 1_000_000, completion: 0 })] });
    await expect(client.chat.completions.create({ model: "m/free-reply", messages }, { maxCost: 0.01 })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(sent).toHaveLength(0);
  });

  it("never estimates a prompt below its UTF-8 size, which bounds byte-level tokenizers", () => {
    for (const text of ["1,2,3,4,5,6,7,8,9,10\n".repeat(50), "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=".repeat(20), "ሰላም ልዑል ".repeat(40), "👨‍👩‍👧‍👦".repeat(30), "𝓣𝓱𝓮 𝓼𝓮𝓪".repeat(30)]) {
      expect(promptTokensAtMost({ messages: [{ role: "user", content: text }] })).toBeGreaterThanOrEqual(new TextEncoder().encode(text).length);
    }
  });

  it("leaves a request that fits as it is when the model gives no max_output_tokens but a context length", async () => {
    const { client, sent } = gateway({ models: [model("m/ctx", { prompt: 0.1, completion: 0.1 }, { context_length: 128_000 })] });
    await client.chat.completions.create({ model: "m/ctx", messages }, { maxCost: 1 });
    expect(sent[0]!.body).not.toHaveProperty("max_tokens");
  });

  it("keeps a tighter route.max_cost the caller wrote", async () => {
    const { client, sent } = gateway();
    await client.chat.completions.create({ model: "auto", messages, route: { max_cost: 0.0001 } }, { maxCost: 5 });
    expect(sent[0]!.body.route).toEqual({ max_cost: 0.0001 });
  });

  it("skips catalogue entries that are not models, and names bad params before fetching anything", async () => {
    const { client, sent } = gateway({ models: [null as never, { id: 7 } as never, model("m/x", { prompt: 1, completion: 1 })] });
    await client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1 });
    expect(sent).toHaveLength(1);
    const bad = await client.chat.completions.create({ model: "m/x", messages: "hi" as never }, { maxCost: 1 }).catch((caught: unknown) => caught);
    expect((bad as Error).message).toMatch(/^`messages` must be an array/);
  });

  const unaffordable = (tokens: number) => () =>
    Response.json({ error: { code: 402, message: `can only afford ${tokens} tokens`, metadata: { affordable_tokens: tokens } } }, { status: 402 });

  it("gives the shrunk retry its own idempotency key", async () => {
    let calls = 0;
    const { client, sent } = gateway({ chat: () => (calls++ === 0 ? unaffordable(50)() : Response.json(completionBody("ok"))) });
    await client.chat.completions.create({ model: "m", messages, max_tokens: 500 }, { shrinkToAffordable: true });
    const [first, second] = sent.map(({ headers }) => headers.get("idempotency-key"));
    expect(second).not.toBe(first);
    expect(second).toBe(`${first}-shrunk`);
  });

  it("never raises a limit the caller set, and shrinks chat requests only", async () => {
    let calls = 0;
    const both = gateway({ chat: () => (calls++ === 0 ? unaffordable(300)() : Response.json(completionBody("ok"))) });
    await both.client.chat.completions.create({ model: "m", messages, max_tokens: 100, max_completion_tokens: 4_000 }, { shrinkToAffordable: true });
    expect(both.sent[1]!.body).toMatchObject({ max_tokens: 100, max_completion_tokens: 300 });
    const generous = gateway({ chat: unaffordable(500) });
    await expect(generous.client.chat.completions.create({ model: "m", messages, max_tokens: 100 }, { shrinkToAffordable: true })).rejects.toBeInstanceOf(APIError);
    expect(generous.sent).toHaveLength(1);
    const images = gateway({ chat: unaffordable(5) });
    await expect(images.client.post("/v1/images/generations", { body: { model: "m", prompt: "a cat" }, shrinkToAffordable: true })).rejects.toBeInstanceOf(APIError);
    expect(images.sent).toHaveLength(1);
  });

  it("reads only a plain decimal x-modelgate-cost, and leaves a server's own gateway field alone", async () => {
    for (const header of ["", "-1", "0x10", "abc"]) {
      const { client } = gateway({ chat: () => new Response(JSON.stringify(completionBody("ok")), { headers: { "x-modelgate-cost": header, "content-type": "application/json" } }) });
      expect((await client.chat.completions.create({ model: "m", messages })).gateway?.cost).toBeNull();
    }
    const own = { ...completionBody("ok"), gateway: "theirs" };
    const { client } = gateway({ chat: () => Response.json(own) });
    const completion = await client.chat.completions.create({ model: "m", messages });
    expect(JSON.stringify(completion)).toBe(JSON.stringify(own));
  });

  it("redacts a key echoed in a header from the gateway info of a stream's error", async () => {
    const { client } = gateway({ chat: () => sseResponse([sseData(chunk({ content: "Hi" }))], { headers: { "x-request-id": `req ${KEY}` }, breakOff: true }) });
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    const error = (await stream.text().catch((caught: unknown) => caught)) as APIError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(stream.gateway.requestID).toBe("req [redacted]");
  });
});
