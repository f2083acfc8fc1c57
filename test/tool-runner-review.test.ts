import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APIUserAbortError, ModelGate, ModelGateError, jsonSchema, tool, type ChatCompletion, type Model } from "../src/index.ts";

// The defects a hostile review of runTools() reproduced, one test each.

const KEY = "sk-runner-review-key-0123456789";
const messages = [{ role: "user" as const, content: "Go." }];
type Reply = { calls?: { name: string; arguments: string; id?: string | null }[]; content?: string; cost?: number; usage?: boolean; noChoices?: boolean };

function completion(reply: Reply): ChatCompletion {
  const tool_calls = reply.calls?.map((call, index) => ({ id: call.id === undefined ? `call_${index}` : call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
  return {
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "priced/model",
    choices: reply.noChoices ? [] : [{ index: 0, message: { role: "assistant", content: reply.content ?? null, ...(tool_calls ? { tool_calls } : {}) }, finish_reason: tool_calls ? "tool_calls" : "stop" }],
    ...(reply.usage === false ? {} : { usage: { prompt_tokens: 100, completion_tokens: 100, total_tokens: 200, ...(reply.cost === undefined ? {} : { cost: reply.cost }) } }),
  } as ChatCompletion;
}

function scripted(replies: Reply[], options: { models?: Model[]; catalogueDelayMs?: number; catalogueStatus?: number } = {}) {
  const bodies: Record<string, unknown>[] = [];
  const keys: (string | null)[] = [];
  const client = new ModelGate({
    apiKey: KEY,
    baseURL: "https://gateway.test",
    maxRetries: 0,
    fetch: async (url, init) => {
      if (String(url).endsWith("/v1/models")) {
        if (options.catalogueDelayMs) await new Promise((resolve) => setTimeout(resolve, options.catalogueDelayMs));
        if (options.catalogueStatus) return Response.json({ error: { message: "catalogue down" } }, { status: options.catalogueStatus });
        return Response.json({ object: "list", data: options.models ?? [] });
      }
      bodies.push(JSON.parse(String(init?.body)));
      keys.push(new Headers(init?.headers).get("idempotency-key"));
      return Response.json(completion(replies[Math.min(bodies.length - 1, replies.length - 1)]!));
    },
  });
  return { client, bodies, keys };
}

const priced = (pricing = { prompt: 1_000, completion: 1_000 }, extra: Partial<Model> = {}): Model => ({ id: "priced/model", object: "model", created: 0, owned_by: "x", pricing, max_output_tokens: 100, ...extra });
const echo = tool({ name: "echo", parameters: z.object({ text: z.string().optional() }).passthrough(), run: (args) => args });

describe("runTools(): edges found by review", () => {
  it("ends the wait for the catalogue at once when the run is aborted", async () => {
    const { client } = scripted([{ content: "x" }], { models: [priced()], catalogueDelayMs: 2_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const error = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo] }, { maxCost: 1, signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("keeps the budget when the gateway reports no cost, counting each step at its worst case", async () => {
    // Each step: the prompt bound plus 1 token at $1,000 per million, reported nowhere.
    const { client, bodies } = scripted([{ calls: [{ name: "echo", arguments: '{"text":"a"}' }] }, { calls: [{ name: "echo", arguments: '{"text":"b"}' }] }, { calls: [{ name: "echo", arguments: '{"text":"c"}' }] }], { models: [priced({ prompt: 1_000, completion: 1_000 }, { max_output_tokens: 1 })] });
    const result = await client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 1 }, { maxCost: 0.5 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies.length).toBeLessThanOrEqual(3);
    expect(result.cost).toBeNull();
  });

  it('stops with "max_cost" for model "auto" when not even the cheapest model could fit what is left', async () => {
    const { client, bodies } = scripted([{ calls: [{ name: "echo", arguments: "{}" }], cost: 0.9 }], { models: [priced({ prompt: 1, completion: 1 }, { max_output_tokens: 1_000 })] });
    const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [echo] }, { maxCost: 0.9001 });
    expect(result.stopReason).toBe("max_cost");
    expect(bodies).toHaveLength(1);
    expect(result.steps).toHaveLength(1);
  });

  it("never starts a tool after the run was aborted while its arguments were checked", async () => {
    const controller = new AbortController();
    let started = false;
    const slowCheck = tool({
      name: "send",
      parameters: z.object({ to: z.string() }).refine(async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 10));
        return true;
      }),
      run: () => {
        started = true;
        return "sent";
      },
    });
    const { client } = scripted([{ calls: [{ name: "send", arguments: '{"to":"x"}' }] }]);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [slowCheck] }, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).toBe(false);
  });

  it("survives deeply nested arguments, calls without ids or with repeated ids, and keeps messages ready to continue", async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const { client, bodies } = scripted([
      { calls: [{ name: "echo", arguments: deep }, { name: "echo", arguments: '{"text":"x"}', id: null }, { name: "echo", arguments: '{"text":"y"}', id: "dup" }, { name: "echo", arguments: '{"text":"z"}', id: "dup" }] },
      { content: "done" },
    ]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [echo] });
    expect(result.stopReason).toBe("done");
    const ids = (bodies[1]!.messages as { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[]).filter((message) => message.role === "tool").map((message) => message.tool_call_id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    const assistant = (bodies[1]!.messages as { tool_calls?: { id: string }[] }[])[1]!;
    expect(assistant.tool_calls!.map((call) => call.id)).toEqual(ids);
  });

  it("makes a caller's idempotency key one per step", async () => {
    const { client, keys } = scripted([{ calls: [{ name: "echo", arguments: "{}" }] }, { content: "done" }]);
    await client.chat.completions.runTools({ model: "m", messages, tools: [echo] }, { idempotencyKey: "run-42" });
    expect(keys).toEqual(["run-42-step-1", "run-42-step-2"]);
  });

  it("prices every fallback model and every choice before a step", async () => {
    const models = [priced({ prompt: 0, completion: 1 }), { ...priced({ prompt: 0, completion: 1_000 }), id: "dear/model" }];
    const fallbacks = scripted([{ content: "x" }], { models });
    const viaFallback = await fallbacks.client.chat.completions.runTools({ model: "priced/model", models: ["dear/model"], messages, tools: [echo], max_tokens: 100 }, { maxCost: 0.05 });
    expect(viaFallback.stopReason).toBe("max_cost");
    const choices = scripted([{ content: "x" }], { models: [priced({ prompt: 0, completion: 1_000 })] });
    const manyChoices = await choices.client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo], max_tokens: 100, n: 4 }, { maxCost: 0.2 });
    expect(manyChoices.stopReason).toBe("max_cost");
  });

  it("reports odd throws, non-object arguments and results that are not JSON to the model, with the key redacted", async () => {
    const odd = tool({ name: "odd", parameters: jsonSchema({ type: "object" }), run: () => { throw Object.assign(Object.create(null), { code: 7 }); } });
    const leaky = tool({ name: "leaky", parameters: z.object({}), run: () => { throw new Error(`auth failed for ${KEY}`); } });
    const big = tool({ name: "big", parameters: z.object({}), run: () => 10n });
    const { client } = scripted([{ calls: [{ name: "odd", arguments: "{}" }, { name: "echo", arguments: "42" }, { name: "leaky", arguments: "{}" }, { name: "big", arguments: "{}" }] }, { content: "ok" }]);
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [odd, echo, leaky, big] });
    const [oddCall, numberArgs, leakyCall, bigCall] = result.steps[0]!.toolCalls;
    expect(oddCall!.error).toBe('The tool failed: {"code":7}');
    expect(numberArgs!.error).toMatch(/must be a JSON object/);
    expect(leakyCall!.error).toBe("The tool failed: auth failed for [redacted]");
    expect(bigCall!.error).toMatch(/cannot be sent as JSON/);
    expect(JSON.stringify(result.messages)).not.toContain(KEY);
  });

  it("records every call of the step a repeated call stops, and treats empty arguments as {}", async () => {
    const args = ["", "{}", " "];
    let step = 0;
    const { client } = scripted([0, 1, 2].map(() => ({ calls: [{ name: "echo", arguments: args[step++ % 3]! }] })));
    const result = await client.chat.completions.runTools({ model: "m", messages, tools: [echo] });
    expect(result.stopReason).toBe("repeated_call");
    expect(result.steps).toHaveLength(3);
    expect(result.steps[2]!.toolCalls).toHaveLength(1);
    expect(result.steps[2]!.toolCalls[0]!.error).toMatch(/^Not run: /);
  });

  it("rejects two tools of one name, a reply without choices, and names the step of a catalogue failure", async () => {
    const { client } = scripted([{ noChoices: true }], { catalogueStatus: 500 });
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [echo, echo] })).rejects.toThrow(/two tools are named "echo"/);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [echo] })).rejects.toThrow(/^Step 1 of the tool run failed: the reply has no message/);
    await expect(client.chat.completions.runTools({ model: "priced/model", messages, tools: [echo] }, { maxCost: 1 })).rejects.toThrow(/^Step 1 of the tool run failed: 500 catalogue down/);
    expect(() => tool({ name: "any", parameters: jsonSchema({ anyOf: [{ type: "string" }, { type: "number" }] }) })).toThrow(ModelGateError);
  });
});
