import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { APIConnectionTimeoutError, APIUserAbortError, BudgetExceededError, ModelGate, ModelGateError, type Middleware, type Model } from "../src/index.ts";
import { IMAGE_TOKENS, promptTokensAtMost } from "../src/features/budget/prompt-tokens.ts";
import { DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { inFakeTime, useFakeClock } from "./fixtures/clock.ts";
import { mockClient } from "./fixtures/mock.ts";
import { catalogueEntry, pricedGateway } from "./fixtures/priced-gateway.ts";
import { standingAfterTurns } from "./fixtures/promises.ts";
import { weatherTool } from "./fixtures/scripted-run.ts";

// maxCost: the worst case (an estimate of the prompt from above, plus the reply) at the
// catalogue's prices, kept within the budget before anything is sent.

const catalogue: Model[] = [
  { id: "cheap/model", object: "model", created: 0, owned_by: "cheap", pricing: { prompt: 1, completion: 2 }, max_output_tokens: 8_000 },
  { id: "dear/model", object: "model", created: 0, owned_by: "dear", pricing: { prompt: 10, completion: 40 }, max_output_tokens: 4_000 },
  { id: "free/model", object: "model", created: 0, owned_by: "free" },
];
const messages = [{ role: "user" as const, content: "Say hello." }];
const promptTokens = promptTokensAtMost({ messages });

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
    // Through middleware, fetch is given a Request.
    const body = JSON.parse(url instanceof Request ? await url.text() : String(init?.body)) as Record<string, unknown>;
    chatBodies.push(body);
    if (body.stream === true) return sseResponse([sseData(chunk({ content: "Hello" }, { finish: "stop" })), DONE]);
    return Response.json(completionBody("Hello"));
  });
  const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://gateway.test", maxRetries: 0, fetch });
  return { client, chatBodies, catalogueRequests };
}

/**
 * A client with retries whose gateway serves the catalogue and answers each chat send with
 * `chat()`: for the tests of sends that may have been billed.
 */
function retryingClient(chat: () => Response | Promise<Response>) {
  return new ModelGate({
    apiKey: "sk-test-key-1234",
    baseURL: "https://gateway.test",
    maxRetries: 2,
    fetch: async (url) => (String(url).endsWith("/v1/models") ? Response.json({ object: "list", data: catalogue }) : chat()),
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("maxCost", () => {
  it("refuses a middleware's second send through next when the two may cost more than the budget, counting both as attempts", async () => {
    const { client, chatBodies } = gateway();
    const budget = (promptTokens * 1) / 1e6 + (500 * 2) / 1e6;
    let refusal: unknown;
    const resend: Middleware = async (request, next) => {
      await (await next(request)).text();
      try {
        return await next(request);
      } catch (error) {
        refusal = error;
        throw error;
      }
    };
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: budget, middleware: [resend] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toBe(refusal);
    expect((error as Error).message).toMatch(/^maxCost: send 2 of this call comes after 1 that may have been billed.*That send was not made\.$/);
    expect(chatBodies).toHaveLength(1);
  });

  // Budget for one send of the request below (the prompt and 500 tokens of reply), not two.
  const oneSendBudget = (promptTokens * 1) / 1e6 + (500 * 2) / 1e6;

  it("does not retry a send whose 200 body was cut when another send may take the call past the budget", async () => {
    let chatSends = 0;
    const client = retryingClient(() => {
      chatSends++;
      // Served (and billed) by the gateway, then cut before the body came.
      return new Response(new ReadableStream({ start: (controller) => controller.error(new TypeError("terminated")) }), { headers: { "content-type": "application/json" } });
    });
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as Error).message).toMatch(/send 2 of this call comes after 1 that may have been billed.*That send was not made\.$/);
    expect(chatSends).toBe(1);
  });

  it("refuses the retry of a send a middleware turned into a 500 after the gateway answered it, when two may cost more than the budget", async () => {
    const { client, chatBodies } = gateway();
    const failing: Middleware = async (request, next) => {
      await (await next(request)).text();
      return new Response(JSON.stringify({ error: { message: "tenant quota" } }), { status: 500, headers: { "retry-after-ms": "0" } });
    };
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget, maxRetries: 2, middleware: [failing] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(chatBodies).toHaveLength(1);
  });

  it("sums what the sends already made may cost: a smaller second send after a full one is refused", async () => {
    const { client, chatBodies } = gateway();
    const smaller: Middleware = async (request, next) => {
      await (await next(request)).text();
      const body = (await request.clone().json()) as Record<string, unknown>;
      return next(new Request(request, { body: JSON.stringify({ ...body, max_tokens: 20 }) }));
    };
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget, middleware: [smaller] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as Error).message).toMatch(/send 2 of this call comes after 1 that may have been billed.*That send was not made\.$/);
    expect(chatBodies).toHaveLength(1);
  });

  it("refuses a send with model auto whose route.max_cost a middleware raised past the budget or removed", async () => {
    const rewrites = [(body: Record<string, unknown>) => ({ ...body, route: { max_cost: 1 } }), ({ route: _route, ...body }: Record<string, unknown>) => body];
    for (const rewrite of rewrites) {
      const { client, chatBodies } = gateway();
      const rewriting: Middleware = async (request, next) =>
        next(new Request(request, { body: JSON.stringify(rewrite((await request.clone().json()) as Record<string, unknown>)) }));
      const error = await client.chat.completions.create({ model: "auto", messages }, { maxCost: 0.002, middleware: [rewriting] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect((error as Error).message).toMatch(/That send was not made\.$/);
      expect(chatBodies).toHaveLength(0);
    }
  });

  it("bounds every send of a runTools() step too: a lost answer is not sent again past the budget, and the run ends with max_cost", async () => {
    let chatSends = 0;
    const tools = [weatherTool];
    // One step's worst case fits the budget; two do not.
    const body = { model: "cheap/model", messages, tools, max_tokens: 100 };
    const stepWorstCase = (promptTokensAtMost(JSON.parse(JSON.stringify(body)) as Record<string, unknown>) * 1 + 100 * 2) / 1e6;
    const client = retryingClient(() => {
      chatSends++;
      // Served and billed by the gateway, then the answer is lost on the way back.
      throw new TypeError("fetch failed");
    });
    const run = await client.chat.completions.runTools(body, { maxCost: stepWorstCase * 1.9 });
    expect(run.stopReason).toBe("max_cost");
    expect(chatSends).toBe(1);
  });

  it("counts sends a middleware makes in parallel against the budget", async () => {
    const { client, chatBodies } = gateway();
    const parallel: Middleware = async (request, next) => (await Promise.all([next(request), next(request)]))[0] as Response;
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget, middleware: [parallel] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(chatBodies).toHaveLength(1);
  });

  it("refuses a send whose max_tokens a middleware raised past what the budget fitted", async () => {
    const { client, chatBodies } = gateway();
    const raising: Middleware = async (request, next) => {
      const body = (await request.clone().json()) as Record<string, unknown>;
      return next(new Request(request, { body: JSON.stringify({ ...body, max_tokens: 8_000 }) }));
    };
    const error = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget, middleware: [raising] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as Error).message).toMatch(/That send was not made\.$/);
    expect(chatBodies).toHaveLength(0);
  });

  it("still retries a 503 the gateway answered itself (not served), within the budget of one send", async () => {
    let chatSends = 0;
    const client = retryingClient(() =>
      ++chatSends < 3 ? new Response("{}", { status: 503, headers: { "retry-after-ms": "0" } }) : Response.json(completionBody("Hello")),
    );
    const completion = await client.chat.completions.create({ model: "cheap/model", messages }, { maxCost: oneSendBudget });
    expect(completion.choices[0]?.message.content).toBe("Hello");
    expect(chatSends).toBe(3);
  });

  it("lets a middleware send twice when twice the worst case fits the budget", async () => {
    const { client, chatBodies } = gateway();
    const twice: Middleware = async (request, next) => {
      await (await next(request)).text();
      return next(request);
    };
    const completion = await client.chat.completions.create({ model: "cheap/model", messages, max_tokens: 100 }, { maxCost: 1, middleware: [twice] });
    expect(chatBodies).toHaveLength(2);
    expect(completion.gateway?.attempts).toBe(2);
  });

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

  it("refuses models fallbacks that are not an array of model ids in create() and runTools(), sending nothing, since only ids can be priced", async () => {
    const { client, chatBodies, catalogueRequests } = gateway();
    const named = /^`models` must be an array of model ids \(non-empty strings\); got /;
    for (const bad of ["dear/model", [{ id: "dear/model" }], [["dear/model"]], { 0: "dear/model", length: 1 }, [""], [7], 0, [, "cheap/model"], new Array(2)]) {
      for (const model of ["cheap/model", "auto"]) {
        const params = { model, models: bad as string[], messages, max_tokens: 10 };
        const error = await client.chat.completions.create(params, { maxCost: 1 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ModelGateError);
        expect(error).toMatchObject({ param: "models", message: expect.stringMatching(named) });
        await expect(client.chat.completions.runTools({ ...params, tools: [weatherTool] }, { maxCost: 1 })).rejects.toThrow(named);
      }
    }
    expect(chatBodies).toHaveLength(0);
    expect(catalogueRequests).toHaveLength(0);
    // Not set is not a mistake.
    await client.chat.completions.create({ model: "cheap/model", models: null as never, messages }, { maxCost: 1 });
    await client.chat.completions.create({ model: "cheap/model", models: [], messages }, { maxCost: 1 });
    expect(chatBodies).toHaveLength(2);
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

  it("counts every choice of n in the worst case", async () => {
    const { client, sent } = pricedGateway({ models: [catalogueEntry("m/x", { prompt: 0, completion: 1_000 }, { max_output_tokens: 10_000 })] });
    await client.chat.completions.create({ model: "m/x", messages, n: 4, max_tokens: 1_000 }, { maxCost: 0.4 });
    expect(sent[0]!.body.max_tokens).toBe(100); // 4 choices × 100 tokens × $0.001
  });

  it("still checks the prompt when the reply is free", async () => {
    const { client, sent } = pricedGateway({ models: [catalogueEntry("m/free-reply", { prompt: 1_000_000, completion: 0 })] });
    await expect(client.chat.completions.create({ model: "m/free-reply", messages }, { maxCost: 0.01 })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(sent).toHaveLength(0);
  });

  it("leaves a request that fits as it is when the model gives no max_output_tokens but a context length", async () => {
    const { client, sent } = pricedGateway({ models: [catalogueEntry("m/ctx", { prompt: 0.1, completion: 0.1 }, { context_length: 128_000 })] });
    await client.chat.completions.create({ model: "m/ctx", messages }, { maxCost: 1 });
    expect(sent[0]!.body).not.toHaveProperty("max_tokens");
  });

  it("is refused where no budget is kept (embeddings, images, the generic methods), before anything is sent", async () => {
    const { client, sent } = pricedGateway();
    const calls: [string, () => PromiseLike<unknown>][] = [
      ["embeddings.create", () => client.embeddings.create({ model: "m/x", input: "hi" }, { maxCost: 1 } as never)],
      ["images.generate", () => client.images.generate({ model: "m/x", prompt: "a cat" }, { maxCost: 1 } as never)],
      ["post", () => client.post("/v1/chat/completions", { body: { model: "auto", messages }, maxCost: 1 } as never)],
    ];
    for (const [name, call] of calls) {
      const error = await Promise.resolve().then(call).catch((caught: unknown) => caught);
      expect(error, name).toMatchObject({ name: "ModelGateError", param: "maxCost" });
      expect((error as Error).message, name).toMatch(/^`maxCost` is kept by chat calls only \(create\(\), parse\(\), stream\(\), runTools\(\)\); POST \/v1\/\S+ would be sent without it\.$/);
    }
    expect(sent).toHaveLength(0);
  });

  it("keeps a tighter route.max_cost the caller wrote", async () => {
    const { client, sent } = pricedGateway();
    await client.chat.completions.create({ model: "auto", messages, route: { max_cost: 0.0001 } }, { maxCost: 5 });
    expect(sent[0]!.body.route).toEqual({ max_cost: 0.0001 });
  });

  it("rejects a route.max_cost that is not a positive number in create(), parse() and runTools(), so it never takes the budget's place", async () => {
    const { client, sent } = pricedGateway({ models: [catalogueEntry("cheap/model", { prompt: 1, completion: 2 }, { max_output_tokens: 100 })] });
    const named = /^`route\.max_cost` must be a positive number of US dollars; got /;
    for (const bad of [Number.NaN, Infinity, -Infinity, -0.01, 0, "0.01", {}]) {
      for (const model of ["auto", "cheap/model"]) {
        const route = { max_cost: bad as number, sort: "quality" as const };
        await expect(client.chat.completions.create({ model, messages, route }, { maxCost: 0.01 })).rejects.toThrow(named);
        await expect(client.chat.completions.parse({ model, messages, route, response_format: z.object({ a: z.string() }) }, { maxCost: 0.01 })).rejects.toThrow(named);
        await expect(client.chat.completions.runTools({ model, messages, route, tools: [weatherTool] }, { maxCost: 0.01 })).rejects.toThrow(named);
      }
    }
    expect(sent).toHaveLength(0);
    // null counts as not set, as for the reply limits: the budget takes its place.
    await client.chat.completions.create({ model: "auto", messages, route: { max_cost: null as never, sort: "quality" } }, { maxCost: 0.01 });
    expect(sent[0]!.body.route).toEqual({ max_cost: 0.01, sort: "quality" });
  });

  it("names a bad signal or route given with maxCost, as without it", async () => {
    const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", fetch: async () => Response.json({ object: "list", data: [] }) });
    for (const call of [
      () => client.chat.completions.create({ model: "m", messages }, { maxCost: 1, signal: 5 as never }),
      () => client.chat.completions.runTools({ model: "m", messages, tools: [weatherTool] }, { maxCost: 1, signal: {} as never }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/`signal` must be an AbortSignal/);
    }
    await expect(client.chat.completions.create({ model: "auto", messages, route: "cheap" as never }, { maxCost: 1 })).rejects.toThrow(/^`route` must be an object/);
    await expect(client.chat.completions.runTools({ model: "auto", messages, tools: [weatherTool], route: [] as never }, { maxCost: 1 })).rejects.toThrow(/`route` must be an object/);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [weatherTool], response_format: z.object({}) as never })).rejects.toThrow(/runTools\(\) sends `response_format` as given/);
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

  it("prices an id it lists twice at the dearest of its entries, in either order", async () => {
    const cheap = catalogueEntry("m/x", { prompt: 0, completion: 0 }, { max_output_tokens: 1_000 });
    const dear = catalogueEntry("m/x", { prompt: 1, completion: 1_000 }, { max_output_tokens: 1_000 });
    const unpriced = catalogueEntry("m/x", undefined, { max_output_tokens: 1_000 });
    const budget = (promptTokens * 1 + 100 * 1_000) / 1e6; // 100 tokens of reply at the dear price
    for (const entries of [[cheap, dear], [dear, cheap], [dear, unpriced], [unpriced, cheap, dear]]) {
      const { client, sent } = pricedGateway({ models: entries });
      await client.chat.completions.create({ model: "m/x", messages }, { maxCost: budget });
      expect(sent[0]!.body.max_tokens).toBe(100);
    }
  });

  it("gives an id it lists twice the longer context of its entries, in either order, so a long prompt is not capped short", async () => {
    const long = catalogueEntry("m/x", { prompt: 1_000, completion: 0 }, { context_length: 1_000_000, max_output_tokens: 10 });
    const short = catalogueEntry("m/x", { prompt: 1_000, completion: 0 }, { context_length: 1_000, max_output_tokens: 10 });
    const prompt = [{ role: "user" as const, content: "x".repeat(20_000) }];
    for (const entries of [[long, short], [short, long]]) {
      const { client, sent } = pricedGateway({ models: entries });
      // 20,000 bytes of prompt at $1,000/M tokens (a token per byte at most) is over $20.
      const error = await client.chat.completions.create({ model: "m/x", messages: prompt }, { maxCost: 5 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(sent).toHaveLength(0);
    }
  });

  it("skips catalogue entries that are not models, and names bad params before fetching anything", async () => {
    const { client, sent } = pricedGateway({ models: [null as never, { id: 7 } as never, catalogueEntry("m/x", { prompt: 1, completion: 1 })] });
    await client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1 });
    expect(sent).toHaveLength(1);
    const bad = await client.chat.completions.create({ model: "m/x", messages: "hi" as never }, { maxCost: 1 }).catch((caught: unknown) => caught);
    expect((bad as Error).message).toMatch(/^`messages` must be an array/);
  });
});

describe("promptTokensAtMost", () => {
  it("bounds from above: a token per byte, 4 per message, and a fixed count per image without its data", () => {
    const text = "word ".repeat(400); // about 400 tokens in any tokenizer
    expect(promptTokensAtMost({ messages: [{ role: "user", content: text }] })).toBeGreaterThanOrEqual(400);
    const withImage = promptTokensAtMost({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(100_000)}` } }] }],
    });
    expect(withImage).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(withImage).toBeLessThan(IMAGE_TOKENS + 100);
    expect(promptTokensAtMost({ messages: [{ role: "user", content: "日本語のテキスト" }] })).toBeGreaterThanOrEqual(8);
  });

  it("never estimates a prompt below its UTF-8 size, which bounds byte-level tokenizers", () => {
    for (const text of ["1,2,3,4,5,6,7,8,9,10\n".repeat(50), "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=".repeat(20), "ሰላም ልዑል ".repeat(40), "👨‍👩‍👧‍👦".repeat(30), "𝓣𝓱𝓮 𝓼𝓮𝓪".repeat(30)]) {
      expect(promptTokensAtMost({ messages: [{ role: "user", content: text }] })).toBeGreaterThanOrEqual(new TextEncoder().encode(text).length);
    }
  });
});

describe("waiting for the catalogue behind maxCost", () => {
  // Timeouts run on a fake clock, and "at once" is counted in event-loop turns: exact, whatever the machine's load.
  useFakeClock();

  it("ends at once when the call is aborted", async () => {
    const { client } = pricedGateway({ models: [catalogueEntry("m/x", { prompt: 1, completion: 1 })], catalogueHangs: true });
    const controller = new AbortController();
    const call = client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1, signal: controller.signal });
    expect(await standingAfterTurns(call), "the call, waiting on the catalogue").toEqual({ settled: false });
    controller.abort();
    const ended = await standingAfterTurns(call);
    expect(ended.settled, "the call a few event-loop turns after the abort").toBe(true);
    expect(ended.error).toBeInstanceOf(APIUserAbortError);
  });

  it("is bounded by the call's timeout", async () => {
    const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", fetch: () => new Promise<Response>(() => {}) });
    const { error, elapsedMs } = await inFakeTime(client.chat.completions.create({ model: "m", messages }, { maxCost: 1, timeout: 100 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsedMs, "fake milliseconds until the timeout").toBe(100);
  });
});

describe("maxCost against the mock gateway", () => {
  const messages = [{ role: "user" as const, content: "Write two sentences about the sea." }];

  it("lowers max_tokens for a model id from the mock's catalogue, fetched once and revalidated by ETag", async () => {
    const { client, gateway } = mockClient();
    const model = DEFAULT_CATALOGUE.find((entry) => entry.id === "openai/gpt-4.1-mini")!;
    const budget = (200 * model.pricing!.completion) / 1e6 + 0.0001;
    await client.chat.completions.create({ model: model.id, messages, max_tokens: 4_000 }, { maxCost: budget });
    const sent = gateway.requests.at(-1)!.body as { max_tokens: number };
    expect(sent.max_tokens).toBeLessThan(4_000);
    expect(sent.max_tokens).toBeGreaterThan(0);
    const completion = await client.chat.completions.create({ model: model.id, messages, max_tokens: 4_000 }, { maxCost: budget });
    expect(completion.gateway!.cost!).toBeLessThanOrEqual(budget);
    expect(gateway.requests.filter((request) => request.url.endsWith("/v1/models"))).toHaveLength(1);
  });

  it("throws BudgetExceededError for a budget the prompt alone passes, sending nothing", async () => {
    const { client, gateway } = mockClient();
    await expect(client.chat.completions.create({ model: "openai/gpt-4.1", messages }, { maxCost: 1e-12 })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(gateway.requests.filter((request) => request.url.endsWith("/chat/completions"))).toHaveLength(0);
  });

  it("is charged no more than maxCost for tool calls, automatic or forced, on a model whose prompt is free", async () => {
    const gpt41 = DEFAULT_CATALOGUE.find((entry) => entry.id === "openai/gpt-4.1")!;
    const free = { ...gpt41, id: "openai/free-prompt", pricing: { prompt: 0, completion: 8 } };
    const longString = { type: "object", properties: { s: { type: "string", minLength: 40_000 } }, required: ["s"] };
    const manyProps = { type: "object", properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "integer" }])) };
    const fn = (name: string, parameters: Record<string, unknown>) => ({ type: "function" as const, function: { name, parameters } });
    const budget = 0.000112; // 14 tokens at $8/M
    for (const extra of [
      { tools: [fn("f", longString)], tool_choice: "required" as const },
      { tools: [fn("f", longString)] },
      { tools: ["a", "b", "c"].map((name) => fn(name, manyProps)), parallel_tool_calls: true },
    ]) {
      const { client } = mockClient({ models: [free] });
      const completion = await client.chat.completions.create({ model: free.id, messages, ...extra }, { maxCost: budget });
      expect(completion.gateway!.cost!).toBeLessThanOrEqual(budget);
      expect(completion.choices[0]!.finish_reason).toBe("length");
    }
  });

  it('lets the mock route "auto" within route.max_cost', async () => {
    const { client } = mockClient();
    const cheap = await client.chat.completions.create({ model: "auto", messages, max_tokens: 100, route: { sort: "quality" } }, { maxCost: 0.0001 });
    const best = await client.chat.completions.create({ model: "auto", messages, max_tokens: 100, route: { sort: "quality" } });
    expect(cheap.model).not.toBe(best.model);
    expect(cheap.gateway!.cost!).toBeLessThanOrEqual(0.0001);
  });
});
