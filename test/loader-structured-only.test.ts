import { describe, expect, it, vi } from "vitest";
import { ModelGate, ModelGateError } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Only the structured-output code fails to load: stream()'s own helper code loads. Its caller
// never called parse(), so the error must say what stream() needed, not name parse() alone.
vi.mock("../src/features/structured/parse.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});

describe("stream() when only the structured-output code cannot load", () => {
  it("rejects done() with a ModelGateError that names stream() among what needs that code, nothing sent", async () => {
    let sent = 0;
    const mock = createMockGateway();
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 0, fetch: (input, init) => (sent++, mock(new Request(input, init))) });
    const stream = client.chat.completions.stream({ model: "auto", messages: [{ role: "user", content: "Hello" }] });
    const error = await stream.done().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/^Could not load the code of structured outputs \(the schema reading of parse\(\), of stream\(\) and of tool\(\) tools\), so nothing was sent/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(sent).toBe(0);
  });
});
