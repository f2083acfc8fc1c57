import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BadRequestError, ModelGate, tool, type ChatCompletion, type Model } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { promptTokensAtMost } from "../src/features/budget/prompt-tokens.ts";
import { recordingClient } from "./fixtures/client.ts";

// `maxCost` in runTools(): the same budget rules as create()'s (one budget module), kept over
// the steps: a step the gateway reports no cost for counts at its worst case, and under
// model "auto" each step sends what is left and a 400 saying no model fits ends the run.

const messages = [{ role: "user" as const, content: "Go." }];
const echo = tool({ name: "echo", parameters: z.object({ n: z.number().optional() }), run: (args) => args });
const model = (id: string, pricing: Model["pricing"], extra: Partial<Model> = {}): Model => ({ id, object: "model", created: 0, owned_by: "x", pricing, ...extra });

type Reply = ChatCompletion | { status: number; error: Record<string, unknown> };

/** A tool call each step (no usage, no cost unless `cost`: then 1 token each way unless `tokens`), from a model named `served`. */
function toolCall(step: number, extra: { served?: string; cost?: number; tokens?: [prompt: number, completion: number] } = {}): ChatCompletion {
  const [prompt, completion] = extra.tokens ?? [1, 1];
  return {
    id: `c${step}`,
    object: "chat.completion",
    created: 1,
    model: extra.served ?? "priced/model",
    choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: `call_${step}`, type: "function", function: { name: "echo", arguments: JSON.stringify({ n: step }) } }] }, finish_reason: "tool_calls", logprobs: null }],
    ...(extra.cost === undefined ? {} : { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, cost: extra.cost } }),
  } as ChatCompletion;
}

function scripted(models: Model[], reply: (step: number) => Reply) {
  const { client, sent: bodies } = recordingClient(
    () => {
      const answer = reply(bodies.length);
      return "status" in answer ? Response.json({ error: answer.error }, { status: answer.status }) : Response.json(answer);
    },
    { apiKey: "sk-test-key-1234", models },
  );
  return { client, bodies };
}

/** The worst case of a sent body on `pricing`: the prompt bound plus `reply` tokens. */
const worstCase = (body: Record<string, unknown>, pricing: { prompt: number; completion: number }, reply: number) =>
  (promptTokensAtMost(body) * pricing.prompt + reply * pricing.completion) / 1e6;

describe("runTools() maxCost: steps whose cost is not reported", () => {
  it("counts each at its worst case, so a run whose gateway reports nothing never passes its budget", async () => {
    const pricing = { prompt: 1, completion: 1 };
    const { client, bodies } = scripted([model("priced/model", pricing, { max_output_tokens: 1_000 })], (step) => toolCall(step));
    const budget = 0.005;
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 100 }, { maxCost: budget, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.cost).toBeNull();
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    const spentAtMost = bodies.reduce((sum, body) => sum + worstCase(body, pricing, 100), 0);
    expect(spentAtMost).toBeLessThanOrEqual(budget);
  });

  it("counts a streamed step whose usage chunk never comes (a provider ignoring stream_options) at its worst case", async () => {
    const pricing = { prompt: 1, completion: 1 };
    // Each step a tool call, finished, then the body closes: no usage chunk, no [DONE].
    const { client, sent: bodies } = recordingClient(
      () => new Response(`data: ${JSON.stringify({ ...toolCall(bodies.length), object: "chat.completion.chunk", choices: [{ index: 0, delta: toolCall(bodies.length).choices[0]!.message, finish_reason: "tool_calls" }] })}\n\n`, { headers: { "content-type": "text/event-stream" } }),
      { apiKey: "sk-test-key-1234", models: [model("priced/model", pricing, { max_output_tokens: 1_000 })] },
    );
    const budget = 0.005;
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 100, stream: true }, { maxCost: budget, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.usage.completion_tokens).toBe(0);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    const spentAtMost = bodies.reduce((sum, body) => sum + worstCase(body, pricing, 100), 0);
    expect(spentAtMost).toBeLessThanOrEqual(budget);
  });

  it('under model "auto" sends what is left as route.max_cost, counting an unreported step at its worst case on the model that answered', async () => {
    const pricing = { prompt: 1, completion: 1 };
    const { client, bodies } = scripted([model("cheap/model", pricing, { max_output_tokens: 500, capabilities: ["tools"] })], (step) => toolCall(step, { served: "cheap/model" }));
    const budget = 0.008;
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: budget });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    let left = budget;
    for (const body of bodies) {
      expect((body.route as { max_cost: number }).max_cost).toBeCloseTo(left, 12);
      left -= worstCase(body, pricing, 500);
    }
    expect(left).toBeGreaterThanOrEqual(-1e-12);
  });

  it('under model "auto" counts a step served by a model the catalogue does not price as all that was left', async () => {
    const { client, bodies } = scripted([model("cheap/model", { prompt: 1, completion: 1 }, { max_output_tokens: 500 })], (step) => toolCall(step, { served: "unlisted/model" }));
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: 0.05 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(1);
  });
});

describe("runTools() maxCost: steps whose reported cost says less than their usage", () => {
  // Each step bills 2,000 prompt and 1,000 completion tokens: $0.012 at the catalogue's prices.
  const pricing = { prompt: 1, completion: 10 };
  const billed = (steps: number) => (steps * (2_000 * pricing.prompt + 1_000 * pricing.completion)) / 1e6;

  it("takes a negative or infinite usage.cost for no cost at all, so it never gives the run more budget", async () => {
    for (const cost of [-0.01, -Infinity, Infinity]) {
      const { client, bodies } = scripted([model("priced/model", pricing, { max_output_tokens: 1_000 })], (step) => toolCall(step, { cost, tokens: [2_000, 1_000] }));
      const budget = 0.05;
      const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: budget, maxSteps: 10 });
      expect(result.stopReason, String(cost)).toBe("max_cost");
      expect(result.cost).toBeNull();
      expect(result.steps.every((step) => step.cost === null && step.gateway?.cost === null)).toBe(true);
      expect(billed(bodies.length)).toBeLessThanOrEqual(budget);
    }
  });

  it("counts a step at its usage at catalogue prices when the gateway reports less (a cost of 0 for 3,000 tokens)", async () => {
    const { client, bodies } = scripted([model("priced/model", pricing, { max_output_tokens: 1_000 })], (step) => toolCall(step, { cost: 0, tokens: [2_000, 1_000] }));
    const budget = 0.05;
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: budget, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.cost).toBe(0); // what the gateway said, reported as it said it
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    expect(billed(bodies.length)).toBeLessThanOrEqual(budget);
  });

  it("prices the usage at the model asked for when the one that answered goes by a name the catalogue does not list (a dated snapshot, or none)", async () => {
    for (const name of ["priced/model-2024-05-13", undefined]) {
      const { client, bodies } = scripted([model("priced/model", pricing, { max_output_tokens: 1_000 })], (step) => {
        const answer: Partial<ChatCompletion> = toolCall(step, { served: name ?? "", cost: 0, tokens: [2_000, 1_000] });
        if (name === undefined) delete answer.model;
        return answer as ChatCompletion;
      });
      const budget = 0.05;
      const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: budget, maxSteps: 10 });
      expect(result.stopReason, String(name)).toBe("max_cost");
      expect(bodies.length).toBeGreaterThanOrEqual(2);
      expect(billed(bodies.length)).toBeLessThanOrEqual(budget);
    }
  });

  it("prices the usage at the dearest of the model and its fallbacks when the name that answered is not theirs", async () => {
    const catalogue = [model("cheap/model", { prompt: 0, completion: 0 }, { max_output_tokens: 1_000 }), model("priced/model", pricing, { max_output_tokens: 1_000 })];
    const { client, bodies } = scripted(catalogue, (step) => toolCall(step, { served: "priced/model-2024-05-13", cost: 0, tokens: [2_000, 1_000] }));
    const budget = 0.05;
    const result = await client.chat.completions.runTools(
      { model: "cheap/model", models: ["priced/model"], messages, tools: [echo], max_tokens: 1_000 },
      { maxCost: budget, maxSteps: 10 },
    );
    expect(result.stopReason).toBe("max_cost");
    expect(billed(bodies.length)).toBeLessThanOrEqual(budget);
  });

  it('under model "auto" prices the usage of an unlisted model that answered at the dearest model the route could pick', async () => {
    const catalogue = [model("cheap/model", { prompt: 0.1, completion: 0.1 }, { max_output_tokens: 1_000 }), model("priced/model", pricing, { max_output_tokens: 1_000 })];
    const { client, bodies } = scripted(catalogue, (step) => toolCall(step, { served: "unlisted/model", cost: 0, tokens: [2_000, 1_000] }));
    const budget = 0.05;
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: budget, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    // Each step's route.max_cost is what is left after the steps before, counted at $0.012 each.
    expect(bodies.map((body) => (body.route as { max_cost: number }).max_cost)).toEqual(bodies.map((_, step) => expect.closeTo(budget - billed(step), 12)));
  });

  it("counts a step at its worst case when the gateway reports a cost without any usage to check it against", async () => {
    const { client, sent: bodies } = recordingClient(
      () => {
        const { usage: _, ...answer } = toolCall(bodies.length, { cost: 0 });
        return Response.json(answer, { headers: { "x-modelgate-cost": "0" } });
      },
      { apiKey: "sk-test-key-1234", models: [model("priced/model", pricing, { max_output_tokens: 1_000 })] },
    );
    const budget = 0.05;
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: budget, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.steps.every((step) => step.cost === 0)).toBe(true);
    const spentAtMost = bodies.reduce((sum, body) => sum + worstCase(body, pricing, 1_000), 0);
    expect(spentAtMost).toBeLessThanOrEqual(budget);
  });

  it("counts a step at its worst case when its usage counts no reply tokens ({ cost: 0 } alone, or counts as strings)", async () => {
    for (const usage of [{ cost: 0 }, { prompt_tokens: "3", completion_tokens: "3", cost: 0 }, { completion_tokens: null, cost: 0 }]) {
      const { client, sent: bodies } = recordingClient(() => Response.json({ ...toolCall(bodies.length, { cost: 0 }), usage }), {
        apiKey: "sk-test-key-1234",
        models: [model("priced/model", pricing, { max_output_tokens: 1_000 })],
      });
      const budget = 0.05;
      const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: budget, maxSteps: 10 });
      expect(result.stopReason, JSON.stringify(usage)).toBe("max_cost");
      expect(bodies.reduce((sum, body) => sum + worstCase(body, pricing, 1_000), 0)).toBeLessThanOrEqual(budget);
    }
  });

  it("still counts the reported cost when it says more than the usage", async () => {
    const { client, bodies } = scripted([model("priced/model", pricing, { max_output_tokens: 1_000 })], (step) => toolCall(step, { cost: 0.02, tokens: [2_000, 1_000] }));
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1_000 }, { maxCost: 0.05, maxSteps: 10 });
    expect(result.stopReason).toBe("max_cost");
    // 0.02 twice leaves 0.01, less than a step's worst case (over 1,000 tokens at $10/M).
    expect(bodies).toHaveLength(2);
  });
});

describe('runTools() maxCost with model "auto": no model fits what is left', () => {
  it('ends the run with "max_cost", a result with the conversation ready to continue, when the gateway answers 400', async () => {
    const noModel = { status: 400, error: { code: "no_route_available", param: "route", message: "No model satisfies the route filters (excluded by: max_cost 0.01)." } };
    const { client, bodies } = scripted([], (step) => (step === 1 ? toolCall(step, { cost: 0.04 }) : noModel));
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: 0.05 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(2);
    expect(result.steps).toHaveLength(1);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
  });

  it("ends the run against the mock gateway, whose vision models all cost more than is left", async () => {
    const gateway = createMockGateway();
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
    const withImage = [{ role: "user" as const, content: [{ type: "text" as const, text: "What is in it?" }, { type: "image_url" as const, image_url: { url: "https://example.com/cat.png" } }] }];
    const result = await client.chat.completions.runTools({ model: "auto", messages: withImage, tools: [echo] }, { maxCost: 0.01 });
    expect(result.stopReason).toBe("max_cost");
    expect(result.steps).toHaveLength(0);
    expect(gateway.requests.filter((request) => request.url.endsWith("/chat/completions"))).toHaveLength(1);
  });

  it("still rejects with other 400s", async () => {
    const other = { status: 400, error: { code: "invalid_request", param: "messages", message: "messages[0] is malformed." } };
    const { client } = scripted([], () => other);
    await expect(client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: 0.05 })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe("runTools() maxCost follows create()'s rules", () => {
  it("relies on the reply limit the gateway applies: max_completion_tokens over a smaller max_tokens", async () => {
    const { client, bodies } = scripted([model("priced/model", { prompt: 0, completion: 1_000 }, { max_output_tokens: 100_000 })], (step) => toolCall(step));
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 10, max_completion_tokens: 100_000 }, { maxCost: 0.05 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(0);
  });

  it("names a bad maxCost in the same words as create()", async () => {
    const { client } = scripted([], (step) => toolCall(step));
    for (const maxCost of [0, -1, Number.NaN, Infinity, "0.1", null]) {
      const fromCreate = await client.chat.completions.create({ model: "m", messages }, { maxCost: maxCost as number }).catch((error: unknown) => error);
      const fromRun = await client.chat.completions.runTools({ model: "m", messages, tools: [echo] }, { maxCost: maxCost as number }).catch((error: unknown) => error);
      expect((fromCreate as Error).message).toMatch(/^`maxCost` must be a positive number of US dollars; got /);
      expect((fromRun as Error).message).toBe((fromCreate as Error).message);
    }
  });
});
