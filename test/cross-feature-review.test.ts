import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APIConnectionTimeoutError, ModelGate, ModelGateError, StructuredOutputError, tool } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { completionBody } from "./fixtures/chunks.ts";

// The defects a last hostile review across features reproduced, one test each.

const messages = [{ role: "user" as const, content: "Weather in Lisbon?" }];
const getWeather = tool({ name: "get_weather", parameters: z.object({ city: z.string() }), run: ({ city }) => ({ city, celsius: 21 }) });

describe("across features: edges found by review", () => {
  it('stops an auto tool run with "max_cost" when only models that cannot serve it (an embeddings model) would fit', async () => {
    for (const maxCost of [2e-5, 4e-5, 6e-5]) {
      const gateway = createMockGateway({ chunkDelayMs: 0 });
      gateway.inject({ type: "reply", toolCalls: [{ name: "get_weather", arguments: '{"city":"Lisbon"}' }] }, Infinity);
      const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
      const result = await client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather] }, { maxCost });
      expect(result.stopReason).toBe("max_cost");
    }
  });

  it("names a bad signal or route given with maxCost, as without it", async () => {
    const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", fetch: async () => Response.json({ object: "list", data: [] }) });
    for (const call of [
      () => client.chat.completions.create({ model: "m", messages }, { maxCost: 1, signal: 5 as never }),
      () => client.chat.completions.runTools({ model: "m", messages, tools: [getWeather] }, { maxCost: 1, signal: {} as never }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/`signal` must be an AbortSignal/);
    }
    await expect(client.chat.completions.create({ model: "auto", messages, route: "cheap" as never }, { maxCost: 1 })).rejects.toThrow(/^`route` must be an object/);
    await expect(client.chat.completions.runTools({ model: "auto", messages, tools: [getWeather], route: [] as never }, { maxCost: 1 })).rejects.toThrow(/`route` must be an object/);
    await expect(client.chat.completions.runTools({ model: "m", messages, tools: [getWeather], response_format: z.object({}) as never })).rejects.toThrow(/runTools\(\) sends `response_format` as given/);
  });

  it("bounds the wait for maxCost's catalogue by the call's timeout", async () => {
    const client = new ModelGate({ apiKey: "sk-test-key-1234", baseURL: "https://g.test", fetch: () => new Promise<Response>(() => {}) });
    const started = Date.now();
    const error = await client.chat.completions.create({ model: "m", messages }, { maxCost: 1, timeout: 100 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("redacts a key a server echoes in x-request-id from the debug lines", async () => {
    const key = "sk-echoed-key-0123456789";
    const lines: unknown[] = [];
    const logger = { error() {}, warn() {}, info() {}, debug: (...parts: unknown[]) => lines.push(parts) };
    const client = new ModelGate({
      apiKey: key,
      baseURL: "https://g.test",
      logLevel: "debug",
      logger,
      fetch: async () => new Response(JSON.stringify(completionBody("ok")), { headers: { "x-request-id": `req-${key}`, "content-type": "application/json" } }),
    });
    await client.chat.completions.create({ model: "m", messages });
    expect(lines.length).toBeGreaterThan(1);
    expect(JSON.stringify(lines)).not.toContain(key);
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
