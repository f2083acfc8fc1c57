import { describe, expect, it } from "vitest";
import type { Model, ModelList } from "../src/index.ts";
import { createMockGateway, DEFAULT_CATALOGUE } from "../src/testing/index.ts";
import { mockGateway } from "./fixtures/mock.ts";

// What `/v1/models` tells a client that budgets calls (prices, context, longest reply,
// capabilities), and how it revalidates a cached catalogue (ETag, If-None-Match, 304).

async function list(response: Response): Promise<ModelList> {
  expect(response.status).toBe(200);
  return (await response.json()) as ModelList;
}

describe("mock gateway catalogue: model metadata", () => {
  it("gives every model prices in USD per million tokens, a context, a longest reply within it, and capabilities", async () => {
    const { data } = await list(await mockGateway().call("/v1/models"));
    for (const model of data) {
      const context = `${model.id}: ${JSON.stringify(model)}`;
      expect(model.pricing, context).toEqual({ prompt: expect.any(Number), completion: expect.any(Number) });
      expect(model.context_length, context).toBeGreaterThan(0);
      expect(model.max_output_tokens, context).toBeGreaterThanOrEqual(0);
      expect(model.max_output_tokens!, context).toBeLessThanOrEqual(model.context_length!);
      expect(model.capabilities?.length, context).toBeGreaterThan(0);
    }
  });

  it("gives chat models a longest reply of at least 4,096 tokens", async () => {
    const { data } = await list(await mockGateway().call("/v1/models"));
    const chat = data.filter((model) => !model.capabilities?.includes("embeddings"));
    for (const model of chat) expect(model.max_output_tokens, model.id).toBeGreaterThanOrEqual(4_096);
  });

  it("shows max_output_tokens when one model is retrieved, and no mock-only field", async () => {
    const model = (await (await mockGateway().call("/v1/models/openai%2Fgpt-4.1-mini")).json()) as Model;
    expect(model).toMatchObject({ id: "openai/gpt-4.1-mini", context_length: 128_000, max_output_tokens: 32_768, pricing: { prompt: 0.4, completion: 1.6 } });
    expect(model).not.toHaveProperty("latency_ms");
  });
});

describe("mock gateway catalogue: ETag", () => {
  it("answers the list with a strong, quoted ETag, readable by a browser page", async () => {
    const response = await mockGateway().call("/v1/models");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{16}-[0-9a-f]+"$/);
    expect(response.headers.get("access-control-expose-headers")?.split(", ")).toContain("etag");
  });

  it("gives the same catalogue the same ETag, and another catalogue another", async () => {
    const etag = async (gateway: ReturnType<typeof mockGateway>) => (await gateway.call("/v1/models")).headers.get("etag");
    expect(await etag(mockGateway())).toBe(await etag(mockGateway()));
    const cheaper = DEFAULT_CATALOGUE.map((model, index) => (index === 0 ? { ...model, pricing: { ...model.pricing, prompt: 0.11 } } : model));
    expect(await etag(mockGateway({ models: cheaper }))).not.toBe(await etag(mockGateway()));
  });

  it("answers 304 Not Modified without a body when If-None-Match names the ETag", async () => {
    const { call } = mockGateway();
    const etag = (await call("/v1/models")).headers.get("etag")!;
    const revalidated = await call("/v1/models", { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBeNull();
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(revalidated.headers.has("content-type")).toBe(false);
    expect(revalidated.headers.get("x-request-id")).toMatch(/^req_mock_/);
  });

  it("compares weakly, in a list, and with *", async () => {
    const { call } = mockGateway();
    const etag = (await call("/v1/models")).headers.get("etag")!;
    for (const ifNoneMatch of [`W/${etag}`, `"other", ${etag}`, "*"]) {
      expect((await call("/v1/models", { headers: { "if-none-match": ifNoneMatch } })).status, ifNoneMatch).toBe(304);
    }
  });

  it("answers the whole list when If-None-Match names another tag", async () => {
    const { call } = mockGateway();
    const response = await call("/v1/models", { headers: { "if-none-match": '"stale-0"' } });
    expect((await list(response)).data).toHaveLength(createMockGateway().catalogue.length);
  });

  it("still checks the key before answering 304", async () => {
    const { call } = mockGateway();
    const etag = (await call("/v1/models")).headers.get("etag")!;
    expect((await call("/v1/models", { key: null, headers: { "if-none-match": etag } })).status).toBe(401);
  });
});
