import { describe, expect, it, vi } from "vitest";
import { APIError, ModelGate, RateLimitError } from "../src/index.ts";

// The error reader loads on first use. Should it fail to load (a browser that went offline
// between the answer and the import), the call still rejects with the class of its status,
// and says the details are missing rather than crashing with the import's own error.
vi.mock("../src/streaming/lazy/index.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});

describe("errors when the error reader cannot load", () => {
  it("still rejects with the class of the status, saying what is missing", async () => {
    const client = new ModelGate({
      apiKey: "sk-test",
      baseURL: "https://gateway.test",
      maxRetries: 0,
      fetch: async () => new Response(JSON.stringify({ error: { message: "slow down", code: 429 } }), { status: 429 }),
    });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as APIError).status).toBe(429);
    expect((error as Error).message).toBe("429 A part of the SDK that loads on first use (the error reader, the stream helpers) could not be loaded; is the network down?");
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
