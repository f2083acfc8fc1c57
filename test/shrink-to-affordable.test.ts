import { describe, expect, it } from "vitest";
import { APIError, ModelGate, ModelGateError, PaymentRequiredError } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { paymentRequired, pricedGateway } from "./fixtures/priced-gateway.ts";

// A 402 that says how many tokens the account can afford, and the one retry that
// `shrinkToAffordable` makes with that many.

const messages = [{ role: "user" as const, content: "Write a long story." }];
const unaffordable = (tokens?: number) => () =>
  new Response(
    JSON.stringify({
      error: {
        code: 402,
        message: `This request requires more credits, or fewer max_tokens. You requested up to 4000 tokens${tokens === undefined ? "." : `, but can only afford ${tokens}.`}`,
        ...(tokens === undefined ? {} : { metadata: { affordable_tokens: tokens } }),
      },
    }),
    { status: 402, headers: { "content-type": "application/json" } },
  );
const ok = () => Response.json(completionBody("Once upon a time"));

function recording(answers: (() => Response)[], options: { shrinkToAffordable?: boolean } = {}) {
  const sent: Record<string, unknown>[] = [];
  const client = new ModelGate({
    apiKey: "sk-test-key-1234",
    baseURL: "https://gateway.test",
    maxRetries: 2,
    ...options,
    fetch: async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return answers[Math.min(sent.length - 1, answers.length - 1)]!();
    },
  });
  return { client, sent };
}

describe("PaymentRequiredError.affordableTokens", () => {
  it("reads error.metadata.affordable_tokens, and is null when the gateway does not say", async () => {
    const { client } = recording([unaffordable(212)]);
    const error = (await client.chat.completions.create({ model: "m", messages }).catch((caught: unknown) => caught)) as PaymentRequiredError;
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.affordableTokens).toBe(212);
    expect(error.message).toContain("can only afford 212");
    const silent = recording([unaffordable()]);
    const other = (await silent.client.chat.completions.create({ model: "m", messages }).catch((caught: unknown) => caught)) as PaymentRequiredError;
    expect(other.affordableTokens).toBeNull();
    expect(new PaymentRequiredError(402, { message: "x", error: { metadata: { affordable_tokens: "12" } } }).affordableTokens).toBeNull();
  });

  it("falls back to the number in the message when a proxy dropped error.metadata, and is null when neither says", () => {
    const fromMessage = (message: string, error: unknown = { message }) => new PaymentRequiredError(402, { message, error }).affordableTokens;
    expect(fromMessage("This request requires more credits, or fewer max_tokens. You requested up to 4000 tokens, but can only afford 212 tokens.")).toBe(212);
    expect(fromMessage("This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 1000.")).toBe(1000);
    expect(fromMessage("Insufficient credits: can only afford 37", null)).toBe(37);
    expect(fromMessage("This request requires more credits.")).toBeNull();
    expect(fromMessage("The account can only afford 5.50 dollars of usage.")).toBeNull();
    expect(new PaymentRequiredError(402, { message: "can only afford 9 tokens", error: { metadata: { affordable_tokens: 12 } } }).affordableTokens).toBe(12);
  });
});

describe("shrinkToAffordable", () => {
  it("retries a 402 once with max_tokens lowered to what the account can afford", async () => {
    const { client, sent } = recording([unaffordable(212), ok], { shrinkToAffordable: true });
    const completion = await client.chat.completions.create({ model: "m", messages, max_tokens: 4000 });
    expect(completion.choices[0]!.message.content).toBe("Once upon a time");
    expect(sent.map((body) => body.max_tokens)).toEqual([4000, 212]);
    expect(completion.gateway?.attempts).toBe(2);
  });

  it("lowers max_completion_tokens when that was sent, and sets max_tokens when neither was", async () => {
    const completionTokens = recording([unaffordable(99), ok]);
    await completionTokens.client.chat.completions.create({ model: "m", messages, max_completion_tokens: 500 }, { shrinkToAffordable: true });
    expect(completionTokens.sent[1]).toMatchObject({ max_completion_tokens: 99 });
    expect(completionTokens.sent[1]).not.toHaveProperty("max_tokens");
    const neither = recording([unaffordable(7), ok]);
    await neither.client.chat.completions.create({ model: "m", messages }, { shrinkToAffordable: true });
    expect(neither.sent[1]).toMatchObject({ max_tokens: 7 });
  });

  it("shrinks by the message when a proxy dropped error.metadata (OpenRouter's wording)", async () => {
    const openRouter = () =>
      Response.json({ error: { code: 402, message: "This request requires more credits, or fewer max_tokens. You requested up to 4000 tokens, but can only afford 1000." } }, { status: 402 });
    const { client, sent } = recording([openRouter, ok], { shrinkToAffordable: true });
    await client.chat.completions.create({ model: "m", messages, max_tokens: 4000 });
    expect(sent.map((body) => body.max_tokens)).toEqual([4000, 1000]);
  });

  it("lowers the limit the gateway applies and leaves no limit above the affordable number in the body", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ max_tokens: 10, max_completion_tokens: 100_000 }, { max_tokens: 10, max_completion_tokens: 99 }],
      [{ max_tokens: 5_000, max_completion_tokens: 50 }, { max_tokens: 99, max_completion_tokens: 50 }],
      [{ max_tokens: null, max_completion_tokens: 500 }, { max_tokens: null, max_completion_tokens: 99 }],
      // A limit that is not a number (which a gateway may still read as one) is replaced too.
      [{ max_completion_tokens: "4000" }, { max_completion_tokens: 99 }],
    ];
    for (const [limits, expected] of cases) {
      const { client, sent } = recording([unaffordable(99), ok]);
      await client.chat.completions.create({ model: "m", messages, ...limits } as never, { shrinkToAffordable: true });
      expect(sent[1], JSON.stringify(limits)).toEqual({ model: "m", messages, ...expected });
    }
  });

  it("retries never more than once, and not at all without affordable_tokens, for 0, or when off", async () => {
    for (const [answers, options, requests] of [
      [[unaffordable(212), unaffordable(100), ok], { shrinkToAffordable: true }, 2],
      [[unaffordable(), ok], { shrinkToAffordable: true }, 1],
      [[unaffordable(0), ok], { shrinkToAffordable: true }, 1],
      [[unaffordable(212), ok], {}, 1],
    ] as const) {
      const { client, sent } = recording([...answers], options);
      await expect(client.chat.completions.create({ model: "m", messages, max_tokens: 4000 })).rejects.toBeInstanceOf(PaymentRequiredError);
      expect(sent).toHaveLength(requests);
    }
  });

  it("does not retry with a number no gateway reads as a whole token count (1e21, past 2^53)", async () => {
    for (const tokens of [1e21, 2 ** 53, 1.5]) {
      for (const limits of [{}, { max_tokens: 4000 }, { max_completion_tokens: 4000, max_tokens: 8000 }]) {
        const answer = () => Response.json({ error: { code: 402, message: "x", metadata: { affordable_tokens: tokens } } }, { status: 402 });
        const { client, sent } = recording([answer, ok], { shrinkToAffordable: true });
        await expect(client.chat.completions.create({ model: "m", messages, ...limits })).rejects.toBeInstanceOf(PaymentRequiredError);
        expect(sent, `${tokens} ${JSON.stringify(limits)}`).toHaveLength(1);
      }
    }
  });

  it("lets the call option override the client's", async () => {
    const { client, sent } = recording([unaffordable(212), ok], { shrinkToAffordable: true });
    await expect(client.chat.completions.create({ model: "m", messages }, { shrinkToAffordable: false })).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(sent).toHaveLength(1);
  });

  it("retries a stream's 402, which comes before its first byte", async () => {
    const { client, sent } = recording([unaffordable(50), () => sseResponse([sseData(chunk({ content: "Hi" }, { finish: "stop" })), DONE])], { shrinkToAffordable: true });
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true, max_tokens: 1000 });
    expect(await stream.text()).toBe("Hi");
    expect(sent.map((body) => body.max_tokens)).toEqual([1000, 50]);
  });

  it("names a value that is not a boolean", async () => {
    expect(() => new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", shrinkToAffordable: "yes" as never })).toThrow(
      '`shrinkToAffordable` must be true or false; got "yes".',
    );
    const { client } = recording([ok]);
    await expect(client.chat.completions.create({ model: "m", messages }, { shrinkToAffordable: 1 as never })).rejects.toThrow(ModelGateError);
  });

  it("never raises a limit the caller set, and shrinks chat requests only", async () => {
    let calls = 0;
    const both = pricedGateway({ chat: () => (calls++ === 0 ? paymentRequired(300)() : Response.json(completionBody("ok"))) });
    await both.client.chat.completions.create({ model: "m", messages, max_tokens: 100, max_completion_tokens: 4_000 }, { shrinkToAffordable: true });
    expect(both.sent[1]!.body).toMatchObject({ max_tokens: 100, max_completion_tokens: 300 });
    const generous = pricedGateway({ chat: paymentRequired(500) });
    await expect(generous.client.chat.completions.create({ model: "m", messages, max_tokens: 100 }, { shrinkToAffordable: true })).rejects.toBeInstanceOf(APIError);
    expect(generous.sent).toHaveLength(1);
    const images = pricedGateway({ chat: paymentRequired(5) });
    await expect(images.client.post("/v1/images/generations", { body: { model: "m", prompt: "a cat" }, shrinkToAffordable: true })).rejects.toBeInstanceOf(APIError);
    expect(images.sent).toHaveLength(1);
  });
});

describe("shrinkToAffordable and the Idempotency-Key", () => {
  it("sends the smaller request without a key when the caller removed it, never a literal 'null-shrunk'", async () => {
    const keys: (string | null)[] = [];
    const contextKeys: (string | undefined)[] = [];
    const client = new ModelGate({
      apiKey: "sk-test-key-1234",
      baseURL: "https://gateway.test",
      shrinkToAffordable: true,
      fetch: async (_url, init) => (keys.push(new Headers(init?.headers).get("idempotency-key")), keys.length === 1 ? unaffordable(212)() : ok()),
      middleware: [(request, next, context) => (contextKeys.push(context.idempotencyKey), next(request))],
    });
    await client.chat.completions.create({ model: "m", messages, max_tokens: 4000 }, { headers: { "idempotency-key": null } });
    expect(keys).toEqual([null, null]);
    expect(contextKeys).toEqual([undefined, undefined]);
  });
});
