import { describe, expect, it } from "vitest";
import { BadRequestError, BudgetExceededError, ModelGate, type Model } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { FILE_TOKENS, IMAGE_TOKENS, MESSAGE_TOKENS, promptTokensAtMost } from "../src/features/budget/prompt-tokens.ts";
import { completionBody } from "./fixtures/chunks.ts";
import { recordingClient, requestRecordingClient } from "./fixtures/client.ts";

// `maxCost` keeps an upper bound, for every request the gateway may serve: the reply limit
// the gateway applies, the model's whole reply room, every image and file, every choice and
// every fallback (API.md "What the gateway did").

const messages = [{ role: "user" as const, content: "Tell me about the sea." }];
const model = (id: string, pricing: Model["pricing"], extra: Partial<Model> = {}): Model => ({ id, object: "model", created: 0, owned_by: "x", pricing, ...extra });

/** A gateway with `models` in its catalogue that records each chat body and answers "ok". */
function gateway(models: Model[]) {
  return recordingClient(() => Response.json(completionBody("ok")), { apiKey: "sk-test-key-1234", models });
}

/** What a body may cost on `pricing`, n choices of the prompt bound plus the limit the gateway applies. */
function worstCase(body: Record<string, unknown>, pricing: { prompt: number; completion: number }): number {
  const limit = (body.max_completion_tokens ?? body.max_tokens) as number;
  const choices = (body.n as number | undefined) ?? 1;
  return (choices * (promptTokensAtMost(body) * pricing.prompt + limit * pricing.completion)) / 1e6;
}

describe("maxCost relies on the reply limit the gateway applies", () => {
  it("lowers max_completion_tokens, which wins over a smaller max_tokens, so the reply costs no more than the budget", async () => {
    const mock = createMockGateway({ reply: Array.from({ length: 40_000 }, () => "wave").join(" ") });
    const sent: Record<string, unknown>[] = [];
    const client = new ModelGate({
      apiKey: MOCK_API_KEY,
      baseURL: "https://mock.test",
      maxRetries: 0,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === "POST") sent.push((await request.clone().json()) as Record<string, unknown>);
        return mock(request);
      },
    });
    const completion = await client.chat.completions.create({ model: "openai/gpt-4.1-mini", messages, max_tokens: 10, max_completion_tokens: 100_000 }, { maxCost: 0.001 });
    expect(completion.gateway?.cost).toBeLessThanOrEqual(0.001);
    const body = sent[0]!;
    expect(body.max_completion_tokens).toBeLessThan(100_000);
    expect(body.max_tokens).toBe(10);
    expect(worstCase(body, { prompt: 0.4, completion: 1.6 })).toBeLessThanOrEqual(0.001);
  });

  it("never leaves a limit larger than the one it relies on, and sends the lowered limit when the request set none", async () => {
    const { client, sent } = gateway([model("m/x", { prompt: 1, completion: 2 }, { max_output_tokens: 8_000 })]);
    const budget = (promptTokensAtMost({ model: "m/x", messages, max_tokens: 900, max_completion_tokens: 300 }) * 1 + 500 * 2) / 1e6;
    await client.chat.completions.create({ model: "m/x", messages, max_tokens: 900, max_completion_tokens: 300 }, { maxCost: budget });
    expect(sent[0]).toMatchObject({ max_completion_tokens: 300, max_tokens: 300 });
    await client.chat.completions.create({ model: "m/x", messages, max_tokens: 2_000, max_completion_tokens: 9_000 }, { maxCost: budget });
    expect(sent[1]).toMatchObject({ max_completion_tokens: 500, max_tokens: 500 });
    await client.chat.completions.create({ model: "m/x", messages }, { maxCost: budget });
    expect(sent[2]).toMatchObject({ max_tokens: 500 });
    expect(sent[2]).not.toHaveProperty("max_completion_tokens");
  });

  it("names a limit or n that is not a whole number before fetching the catalogue, since the gateway might read it otherwise", async () => {
    const { client, sent } = gateway([model("m/x", { prompt: 1, completion: 2 })]);
    for (const [field, value] of [["max_completion_tokens", "100000"], ["max_tokens", 1e400], ["max_tokens", 0], ["n", 2.5]] as const) {
      const error = await client.chat.completions.create({ model: "m/x", messages, [field]: value } as never, { maxCost: 1 }).catch((caught: unknown) => caught);
      expect((error as Error).message).toMatch(new RegExp(`^\`${field}\` must be a whole number`));
    }
    expect(sent).toHaveLength(0);
  });
});

describe("maxCost: the reply room of a model without max_output_tokens", () => {
  it("is the model's whole context, so a prompt near the context still gets its reply limited", async () => {
    const pricing = { prompt: 1, completion: 100 };
    const { client, sent } = gateway([model("m/small", pricing, { context_length: 4_096 })]);
    const long = [{ role: "user" as const, content: "x".repeat(5_000) }];
    // The prompt bound is capped at the 4,096-token context; the rest pays for 1,000 reply tokens.
    const budget = (4_096 * pricing.prompt + 1_000 * pricing.completion) / 1e6;
    await client.chat.completions.create({ model: "m/small", messages: long }, { maxCost: budget });
    expect(sent[0]!.max_tokens).toBe(1_000);
  });
});

describe("maxCost: the prompt bound counts what the model reads besides text", () => {
  it("counts a file referenced by id at FILE_TOKENS, so a budget for its text alone is refused", async () => {
    const { client, sent } = gateway([model("m/x", { prompt: 1, completion: 1 }, { context_length: 1_000_000, max_output_tokens: 1_000 })]);
    const withFile = [{ role: "user" as const, content: [{ type: "text" as const, text: "Summarise this." }, { type: "file" as const, file: { file_id: "file-abc123" } }] }];
    expect(promptTokensAtMost({ messages: withFile })).toBeGreaterThanOrEqual(FILE_TOKENS);
    const error = await client.chat.completions.create({ model: "m/x", messages: withFile, max_tokens: 100 }, { maxCost: 0.01 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(sent).toHaveLength(0);
  });

  it("counts each image at least as high as the largest count providers publish for one (3,779 tokens)", async () => {
    const { client, sent } = gateway([model("m/vision", { prompt: 1, completion: 1 }, { max_output_tokens: 100 })]);
    const withImage = [{ role: "user" as const, content: [{ type: "image_url" as const, image_url: { url: "https://example.com/chart.png", detail: "high" as const } }] }];
    expect(promptTokensAtMost({ messages: withImage })).toBeGreaterThanOrEqual(3_779 + MESSAGE_TOKENS);
    const error = await client.chat.completions.create({ model: "m/vision", messages: withImage, max_tokens: 100 }, { maxCost: 3_000 / 1e6 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(sent).toHaveLength(0);
  });

  it("counts audio and inline file data as bytes, an image's data not at all, and the tools' own instructions", () => {
    const audio = "UklGR".repeat(2_000);
    const withAudio = promptTokensAtMost({ messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: audio, format: "wav" } }] }] });
    expect(withAudio).toBeGreaterThanOrEqual(audio.length);
    const data = `data:application/pdf;base64,${"JVBER".repeat(2_000)}`;
    const inline = promptTokensAtMost({ messages: [{ role: "user", content: [{ type: "file", file: { filename: "a.pdf", file_data: data } }] }] });
    expect(inline).toBeGreaterThanOrEqual(FILE_TOKENS + data.length);
    const image = promptTokensAtMost({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(100_000)}` } }] }] });
    expect(image).toBeGreaterThanOrEqual(IMAGE_TOKENS);
    expect(image).toBeLessThan(IMAGE_TOKENS + 100);
    const tool = { type: "function", function: { name: "f", parameters: { type: "object" } } };
    expect(promptTokensAtMost({ messages, tools: [tool] })).toBeGreaterThan(promptTokensAtMost({ messages }) + 1_000);
  });
});

describe("maxCost: the prompt bound counts every field the model reads", () => {
  const fn = { name: "lookup", description: "d".repeat(20_000), parameters: { type: "object", properties: {} } };
  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
  const bare = promptTokensAtMost({ messages });

  it("counts the legacy functions and function_call, tool_choice and response_format as bytes, with the tools' instructions", () => {
    expect(promptTokensAtMost({ messages, functions: [fn] })).toBeGreaterThanOrEqual(bare + bytes([fn]) + 1_000);
    expect(promptTokensAtMost({ messages, functions: [fn], function_call: { name: "lookup" } })).toBeGreaterThanOrEqual(bare + bytes([fn]) + bytes({ name: "lookup" }) + 1_000);
    const forced = { type: "function", function: { name: "x".repeat(500) } };
    expect(promptTokensAtMost({ messages, tool_choice: forced })).toBeGreaterThanOrEqual(bare + bytes(forced));
    const format = { type: "json_schema", json_schema: { name: "a", schema: { description: "s".repeat(5_000) } } };
    expect(promptTokensAtMost({ messages, response_format: format })).toBeGreaterThanOrEqual(bare + bytes(format));
  });

  it("refuses a budget that 200 KB of legacy functions pass, as it does for the same tools", async () => {
    const { client, sent } = gateway([model("m/x", { prompt: 10, completion: 10 }, { context_length: 1_000_000, max_output_tokens: 100_000 })]);
    const big = { ...fn, description: "d".repeat(200_000) };
    for (const extra of [{ functions: [big] }, { tools: [{ type: "function" as const, function: big }] }]) {
      const error = await client.chat.completions.create({ model: "m/x", messages, ...extra }, { maxCost: 0.5 }).catch((caught: unknown) => caught);
      expect(error, Object.keys(extra)[0]).toBeInstanceOf(BudgetExceededError);
    }
    expect(sent).toHaveLength(0);
  });

  it("counts a prediction with the prompt and again at completion prices (the tokens the reply does not repeat are billed as completion)", async () => {
    const prediction = { type: "content" as const, content: "const x = 1;\n".repeat(500) };
    const predicted = bytes(prediction);
    expect(promptTokensAtMost({ messages, prediction })).toBeGreaterThanOrEqual(bare + predicted);
    const pricing = { prompt: 0, completion: 1 };
    const { client, sent } = gateway([model("m/x", pricing, { max_output_tokens: 100_000 })]);
    const budget = 20_000 / 1e6; // 20,000 completion tokens
    await client.chat.completions.create({ model: "m/x", messages, max_tokens: 50_000 }, { maxCost: budget });
    await client.chat.completions.create({ model: "m/x", messages, max_tokens: 50_000, prediction }, { maxCost: budget });
    expect(sent[0]!.max_tokens).toBe(20_000);
    expect((sent[1]!.max_tokens as number) + predicted).toBeLessThanOrEqual(20_000);
    const error = await client.chat.completions.create({ model: "m/x", messages, prediction }, { maxCost: predicted / 1e6 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as Error).message).toMatch(/beside a prediction of up to \d+ tokens/);
  });
});

describe("maxCost: n choices and models fallbacks", () => {
  it("keeps n times the dearest model the request may reach within the budget, prompt included", async () => {
    const cheap = model("m/cheap", { prompt: 1, completion: 2 }, { max_output_tokens: 10_000 });
    const dear = model("m/dear", { prompt: 30, completion: 10 }, { max_output_tokens: 10_000 });
    const { client, sent } = gateway([cheap, dear]);
    const params = { model: "m/cheap", models: ["m/dear"], messages, n: 3, max_tokens: 5_000 };
    const budget = 0.05;
    await client.chat.completions.create(params, { maxCost: budget });
    const body = sent[0]!;
    const limit = body.max_tokens as number;
    expect(limit).toBeLessThan(5_000);
    for (const pricing of [cheap.pricing!, dear.pricing!]) expect(worstCase(body, pricing)).toBeLessThanOrEqual(budget);
    // And it is the largest such limit: one more token would not fit on the dear model.
    expect(worstCase({ ...body, max_tokens: limit + 1 }, dear.pricing!)).toBeGreaterThan(budget);
  });
});

describe("maxCost as plain JavaScript may hold it", () => {
  it("reaches parse(), its stream and the stream() helper from a prototype, a getter or a Proxy, as it reaches create()", async () => {
    const dear = model("m/dear", { prompt: 3, completion: 15 }, { max_output_tokens: 64_000 });
    const holders: [string, () => object][] = [
      ["a prototype", () => Object.create({ maxCost: 0.01 })],
      ["a getter", () => new (class { get maxCost() { return 0.01; } })()],
      ["a Proxy", () => new Proxy({}, { get: (_target, name) => (name === "maxCost" ? 0.01 : undefined) })],
    ];
    const schema = { type: "json_schema" as const, json_schema: { name: "answer", schema: { type: "object", properties: {}, additionalProperties: false } } };
    for (const [how, holder] of holders) {
      const { client, sent } = recordingClient(() => Response.json(completionBody("{}")), { apiKey: "sk-test-key-1234", models: [dear] });
      const params = { model: "m/dear", messages, max_tokens: 64_000, response_format: schema };
      await client.chat.completions.parse(params, holder() as never);
      // Only what is sent matters here (the recorder answers every request with a whole completion).
      await client.chat.completions.parse({ ...params, stream: true }, holder() as never).then(
        (stream) => stream.finalChatCompletion(),
        () => undefined,
      );
      await client.chat.completions.stream(params, holder() as never).done().catch(() => undefined);
      expect(sent.length, how).toBe(3);
      for (const body of sent) expect(body.max_tokens as number, how).toBeLessThan(64_000);
    }
  });
});

describe("maxCost beside the other call options", () => {
  it("leaves every other option in force, in create(), parse() and the stream() helper, however the options object holds them", async () => {
    class TenantOptions {
      maxCost = 1;
      get headers() {
        return { authorization: "Bearer tenant-key", "x-tenant": "acme" };
      }
    }
    const holders: [string, () => object][] = [
      ["own fields", () => ({ maxCost: 1, headers: { authorization: "Bearer tenant-key", "x-tenant": "acme" }, query: { region: "eu" }, idempotencyKey: "call-1" })],
      ["a getter beside an own maxCost", () => new TenantOptions()],
    ];
    for (const [how, holder] of holders) {
      const { client, sent } = requestRecordingClient(() => Response.json(completionBody("{}")));
      const params = { model: "auto", messages };
      await client.chat.completions.create(params, holder() as never);
      await client.chat.completions.parse({ ...params, response_format: { type: "json_object" } }, holder() as never).catch(() => undefined);
      await client.chat.completions.stream(params, holder() as never).done().catch(() => undefined);
      expect(sent.length, how).toBe(3);
      for (const request of sent) {
        expect(request.headers.get("authorization"), how).toBe("Bearer tenant-key");
        expect(request.headers.get("x-tenant"), how).toBe("acme");
        expect(JSON.parse(String(request.body)).route, how).toMatchObject({ max_cost: 1 });
      }
      if (how === "own fields") {
        for (const request of sent) expect(new URL(request.url).searchParams.get("region")).toBe("eu");
        expect(sent.map((request) => request.headers.get("idempotency-key"))).toEqual(["call-1", "call-1", "call-1"]);
      }
    }
  });
});

describe('maxCost with model "auto"', () => {
  it("throws the gateway's 400 for no model that fits route.max_cost as BudgetExceededError, the 400 as its cause", async () => {
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: createMockGateway(), maxRetries: 0 });
    for (const call of [
      () => client.chat.completions.create({ model: "auto", messages }, { maxCost: 1e-9 }),
      () => client.chat.completions.create({ model: "auto", messages, stream: true }, { maxCost: 1e-9 }),
      () => client.chat.completions.parse({ model: "auto", messages }, { maxCost: 1e-9 }),
    ]) {
      const error = (await call().catch((caught: unknown) => caught)) as BudgetExceededError;
      expect(error).toBeInstanceOf(BudgetExceededError);
      expect(error).toMatchObject({ maxCost: 1e-9, model: "auto", worstCase: null });
      expect(error.cause).toBeInstanceOf(BadRequestError);
      expect(error.message).toContain("max_cost");
    }
  });

  it("recognises the 400 by its code, param or message, and leaves other 400s alone", async () => {
    const answers: [Record<string, unknown>, boolean][] = [
      [{ code: "no_route_available", param: "route", message: "No model satisfies the route filters (excluded by: max_cost 0.01)." }, true],
      [{ code: "max_cost_exceeded", message: "Every candidate costs more." }, true],
      [{ param: "route.max_cost", message: "No model fits this budget." }, true],
      [{ message: "No models available within max_cost." }, true],
      [{ code: "invalid_request", param: "route.max_cost", message: "Unknown field route.max_cost." }, false],
      [{ code: "no_route_available", param: "route", message: "No model satisfies the route filters (excluded by: capability vision)." }, false],
    ];
    for (const [error, budget] of answers) {
      const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", maxRetries: 0, fetch: async () => Response.json({ error }, { status: 400 }) });
      const caught = await client.chat.completions.create({ model: "auto", messages }, { maxCost: 0.01 }).catch((thrown: unknown) => thrown);
      expect(caught, JSON.stringify(error)).toBeInstanceOf(budget ? BudgetExceededError : BadRequestError);
    }
  });
});
