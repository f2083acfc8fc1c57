import { describe, expect, it, vi } from "vitest";
import { APIUserAbortError, ModelGate, type Logger } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { useTraceEvents } from "./fixtures/trace-events.ts";

// API.md ("Where the new names live…"): a call that finds the `modelgate:request` channel
// subscribed waits for tracing's code within its own signal and timeout. Here that code never
// finishes loading: past the call's timeout it goes on untraced (one warning line); its abort
// ends it as an abort.
vi.mock("../src/features/tracing/index.ts", () => new Promise<never>(() => {}));

const trace = useTraceEvents();
const messages = [{ role: "user" as const, content: "Hello" }];

function countingClient(timeout: number) {
  const warnings: string[] = [];
  const ignore = () => {};
  const logger: Logger = { error: ignore, warn: (message) => void warnings.push(message), info: ignore, debug: ignore };
  const mock = createMockGateway({ chunkDelayMs: 0 });
  const counter = { sent: 0 };
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", timeout, logger, fetch: (input, init) => (counter.sent++, mock(new Request(input, init))) });
  return { client, counter, warnings };
}

describe("a subscribed channel whose tracing code never finishes loading", () => {
  it("lets a call with a timeout go on untraced once the timeout has passed, with one warning line", async () => {
    const { client, counter, warnings } = countingClient(600_000);
    // The call's own timeout bounds the wait (and then each of its attempts).
    const completion = await client.chat.completions.create({ model: "auto", messages }, { timeout: 100 });
    expect(completion.choices[0]?.message.content).not.toBe("");
    expect(await (await client.chat.completions.create({ model: "auto", messages, stream: true }, { timeout: 100 })).text()).not.toBe("");
    expect(counter.sent).toBe(2);
    expect(trace.events).toEqual([]);
    expect(warnings).toEqual(["modelgate: tracing's code did not load within the call's timeout (100 ms), so calls go on untraced until it loads: they are not published on the modelgate:request channel (no spans). They are not failed because of it."]);
  });

  it("does not make later calls wait again once one has gone on untraced (review: each waited its whole timeout)", async () => {
    const { client, counter, warnings } = countingClient(600_000);
    await client.chat.completions.create({ model: "auto", messages }, { timeout: 100 });
    // These calls keep the client's 10-minute timeout: were they to wait for the stalled load
    // again, they would not settle before the test's own limit.
    const later = await Promise.all([1, 2, 3].map(() => client.chat.completions.create({ model: "auto", messages })));
    expect(later.map((completion) => completion.choices[0]?.message.content !== "")).toEqual([true, true, true]);
    expect(counter.sent).toBe(4);
    expect(trace.events).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it("ends a call aborted while it waits with APIUserAbortError, having sent nothing", async () => {
    const { client, counter, warnings } = countingClient(600_000);
    const controller = new AbortController();
    const settled = client.chat.completions.create({ model: "auto", messages }, { signal: controller.signal }).catch((caught: unknown) => caught);
    // The abort comes while the load is pending: the call has started waiting for it.
    await Promise.resolve();
    controller.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
    expect(counter.sent).toBe(0);
    expect(warnings).toEqual([]);
  });
});
