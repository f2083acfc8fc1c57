import { afterEach, describe, expect, it, vi } from "vitest";
import { BudgetExceededError, ModelGate, ModelGateError, type Model } from "../src/index.ts";
import { estimatePromptTokens, IMAGE_TOKENS } from "../src/budget/estimate.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";

// maxCost: the worst case (an estimate of the prompt from above, plus the reply) at the
// catalogue's prices, kept within the budget before anything is sent.

const catalogue: Model[] = [
  { id: "cheap/model", object: "model", created: 0, owned_by: "cheap", pricing: { prompt: 1, completion: 2 }, max_output_tokens: 8_000 },
  { id: "dear/model", object: "model", created: 0, owned_by: "dear", pricing: { prompt: 10, completion: 40 }, max_output_tokens: 4_000 },
  { id: "free/model", object: "model", created: 0, owned_by: "free" },
];
const messages = [{ role: "user" as const, content: "Say hello." }];
const promptTokens = estimatePromptTokens({ messages });

function gateway(options: { etag?: string } = {}) {
  const chatBodies: Record<string, unknown>[] = [];
  const catalogueRequests: Headers[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url).endsWith("/v1/models")) {
      const headers = new Headers(init?.headers);
      catalogueRequests.push(headers);
      if (options.etag && headers.get("if-none-match") === options.etag) return new Response(null, { status: 304, headers: { etag: options.etag } });
      return Response.json({ object: "list", data: catalogue }, { headers: options.etag ? { etag: options.etag } : {} });
    }
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    chatBodies.push(body);
    if (body.stream === true) return sseResponse([sseData(chunk({ content: "Hello" }, { finish: "stop" })), DONE]);
    return Response.json(completionBody("Hello"));
  });
  const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://gateway.test", maxRetries: 0, fetch });
  return { client, chatBodies, catalogueRequests };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("maxCost", () => {
  it("lowers max_tokens so that the worst case fits, exactly at the limit", async () => {
    const { client, chatBodies } = gateway();
    const promptCost = (promptTokens * 1) / 1e6;
    const budget = promptCost + (500 * 2) / 1e6; // room for exactly 500 tokens of reply
    await client.chat.completions.create({ model: "cheap/model", messages, max_tokens: 4_000 }, { maxCost: budget });
    expect(chatBodies[0]!.max_tokens).toBe(500);
  });

  it("leaves a request that fits as it is, and fills in max_tokens when the model's own limit would not fit", async () => {
    const { client, chatBodies } = gateway();
    await client.chat.completions.create({ model: "cheap/model", messages, max_tokens: 100 }, { maxCost: 1 });
    expect(chatBodies[0]!.max_tokens).toBe(100);
    const budget = (promptTokens * 1 + 1_000 * 2) / 1e6;
    await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: budget });
    expect(chatBodies[1]!.max_tokens).toBe(1_000);
    await client.chat.completions.create({ model: "cheap/model", messages, max_completion_tokens: 9_000 }, { maxCost: budget });
    expect(chatBodies[2]).toMatchObject({ max_completion_tokens: 1_000 });
    expect(chatBodies[2]).not.toHaveProperty("max_tokens");
  });

  it("keeps every fallback model in the budget", async () => {
    const { client, chatBodies } = gateway();
    const budget = (promptTokens * 10 + 100 * 40) / 1e6; // 100 tokens on the dear fallback
    await client.chat.completions.create({ model: "cheap/model", models: ["dear/model"], messages, max_tokens: 4_000 }, { maxCost: budget });
    expect(chatBodies[0]!.max_tokens).toBe(100);
  });

  it("throws BudgetExceededError, sending nothing, when the prompt does not fit or the model has no price", async () => {
    const { client, chatBodies } = gateway();
    const tooSmall = (await client.chat.completions.create({ model: "dear/model", messages }, { maxCost: 1e-9 }).catch((error: unknown) => error)) as BudgetExceededError;
    expect(tooSmall).toBeInstanceOf(BudgetExceededError);
    expect(tooSmall).toBeInstanceOf(ModelGateError);
    expect(tooSmall.message).toMatch(/the prompt \(at most \d+ tokens\) and one token of reply may cost \$[\d.e-]+ on "dear\/model", more than the budget/);
    expect(tooSmall).toMatchObject({ maxCost: 1e-9, model: "dear/model" });
    for (const model of ["free/model", "unknown/model"]) {
      const unpriced = (await client.chat.completions.create({ model, messages }, { maxCost: 1 }).catch((error: unknown) => error)) as BudgetExceededError;
      expect(unpriced).toBeInstanceOf(BudgetExceededError);
      expect(unpriced.message).toContain(`no price for "${model}"`);
      expect(unpriced.worstCase).toBeNull();
    }
    expect(chatBodies).toHaveLength(0);
  });

  it('sends route.max_cost for model "auto" and reads no catalogue', async () => {
    const { client, chatBodies, catalogueRequests } = gateway();
    await client.chat.completions.create({ model: "auto", messages, route: { sort: "quality" } }, { maxCost: 0.01 });
    expect(chatBodies[0]!.route).toEqual({ sort: "quality", max_cost: 0.01 });
    expect(catalogueRequests).toHaveLength(0);
  });

  it("rejects a budget that is not a positive number", async () => {
    const { client } = gateway();
    for (const maxCost of [0, -1, Number.NaN, "0.1"]) {
      const call = client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: maxCost as number });
      await expect(call).rejects.toMatchObject({ param: "maxCost", message: expect.stringMatching(/`maxCost` must be a positive number of US dollars/) });
    }
  });

  it("works for streams and for parse() too", async () => {
    const { client, chatBodies } = gateway();
    const stream = await client.chat.completions.create({ model: "cheap/model", messages, stream: true, max_tokens: 9_999 }, { maxCost: (promptTokens + 2 * 10) / 1e6 });
    expect(await stream.text()).toBe("Hello");
    expect(stream.gateway.requestedModel).toBe("cheap/model");
    await client.chat.completions.parse({ model: "auto", messages }, { maxCost: 0.25 });
    expect(chatBodies.map((body) => body.max_tokens ?? (body.route as { max_cost: number }).max_cost)).toEqual([10, 0.25]);
  });
});

describe("the catalogue behind maxCost", () => {
  it("is fetched once per client, and calls at the same time share the fetch", async () => {
    const { client, catalogueRequests } = gateway();
    await Promise.all([1, 2, 3].map(() => client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 })));
    await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 });
    expect(catalogueRequests).toHaveLength(1);
    const other = gateway();
    await other.client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 });
    expect(other.catalogueRequests).toHaveLength(1);
  });

  it("is revalidated with If-None-Match more than 5 minutes after the last fetch, and kept on 304", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { client, catalogueRequests, chatBodies } = gateway({ etag: '"v1"' });
    await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 });
    vi.setSystemTime(Date.now() + 4 * 60_000);
    await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 });
    expect(catalogueRequests).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: 1 });
    expect(catalogueRequests).toHaveLength(2);
    expect(catalogueRequests[1]!.get("if-none-match")).toBe('"v1"');
    expect(chatBodies).toHaveLength(3);
  });
});

describe("estimatePromptTokens", () => {
  it("estimates from above: 2 bytes a token, 4 per message, and a fixed count per image without its data", () => {
    const text = "word ".repeat(400); // about 400 tokens in any tokenizer
    expect(estimatePromptTokens({ messages: [{ role: "user", content: text }] })).toBeGreaterThanOrEqual(400);
    const withImage = estimatePromptTokens({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(100_000)}` } }] }],
    });
    expect(withImage).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(withImage).toBeLessThan(IMAGE_TOKENS + 100);
    expect(estimatePromptTokens({ messages: [{ role: "user", content: "日本語のテキスト" }] })).toBeGreaterThanOrEqual(8);
  });
});
