import { describe, expect, it, vi } from "vitest";
import { ModelGate, type Logger } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { useTraceEvents } from "./fixtures/trace-events.ts";

// API.md ("Where the new names live…"): tracing's code is requested by the first call that
// finds the `modelgate:request` channel subscribed; if it cannot load, calls go on untraced,
// with one warning line, and never fail because of tracing. Here its module fails to load, as
// in a deployment that left its file out.
vi.mock("../src/features/tracing/index.ts", () => {
  throw new TypeError("Failed to fetch dynamically imported module: /dist/features/tracing/index.js");
});

const trace = useTraceEvents();
const messages = [{ role: "user" as const, content: "Hello" }];

/** A logger that keeps each line under its level. */
function keepingLogger() {
  const lines: { level: string; message: string }[] = [];
  const keep = (level: string) => (message: string) => void lines.push({ level, message });
  const logger: Logger = { error: keep("error"), warn: keep("warn"), info: keep("info"), debug: keep("debug") };
  return { lines, logger };
}

describe("a subscribed channel whose tracing code cannot load", () => {
  it("lets every call succeed untraced, plain, streamed and with an apiKey function, with one warning line", async () => {
    const { lines, logger } = keepingLogger();
    const client = new ModelGate({ apiKey: async () => MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 0, fetch: createMockGateway({ chunkDelayMs: 0 }), logger });
    const completion = await client.chat.completions.create({ model: "auto", messages });
    expect(completion.choices[0]?.message.content).not.toBe("");
    expect(await (await client.chat.completions.create({ model: "auto", messages, stream: true })).text()).not.toBe("");
    expect((await client.models.list()).data.length).toBeGreaterThan(0);
    expect(trace.events, "nothing is published without tracing's code").toEqual([]);
    expect(lines.map(({ level }) => level)).toEqual(["warn"]);
    expect(lines[0]?.message).toMatch(/^modelgate: tracing's code could not load \(.*Failed to fetch dynamically imported module.*\), so calls go on untraced until it loads/);
  });

  it("fails a call only for its own reasons: an error status stays the gateway's error", async () => {
    const { logger } = keepingLogger();
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", maxRetries: 0, logger, fetch: async () => new Response(JSON.stringify({ error: { message: "slow down" } }), { status: 429 }) });
    await expect(client.chat.completions.create({ model: "auto", messages })).rejects.toThrow("429 slow down");
  });
});
