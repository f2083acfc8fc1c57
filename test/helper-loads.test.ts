import { describe, expect, it, vi } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, ModelGate } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// The code behind stream() and runTools() is requested here and never arrives (each module's
// factory records the request and never settles). What the objects do meanwhile: which code
// they ask for, and what their listeners hear when the call's signal or timeout ends the wait.
const loads = vi.hoisted(() => {
  const requested: string[] = [];
  let bothRequested!: () => void;
  const both = new Promise<void>((resolve) => (bothRequested = resolve));
  return {
    requested,
    /** Resolves once the stream helper's code and parse()'s have both been requested. */
    both,
    request(feature: string): Promise<never> {
      requested.push(feature);
      if (requested.includes("chat-stream") && requested.includes("structured")) bothRequested();
      return new Promise<never>(() => {});
    },
  };
});
// (vi.mock is hoisted above every declaration, so each factory is written out.)
vi.mock("../src/features/chat-stream/index.ts", () => loads.request("chat-stream"));
vi.mock("../src/features/structured/parse.ts", () => loads.request("structured"));
vi.mock("../src/features/tools/runner.ts", () => loads.request("tools"));

const messages = [{ role: "user" as const, content: "Hello" }];

/** A client whose gateway counts what reaches it. */
function countingClient() {
  const mock = createMockGateway();
  const counter = { sent: 0 };
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://gateway.test", fetch: (input, init) => (counter.sent++, mock(new Request(input, init))) });
  return { client, counter };
}

/** The events a helper object's listeners hear (added at once, before its code could load), with its outcome at each. */
function heard(helper: { on(event: never, listener: never): unknown; ended: boolean; errored: boolean; aborted: boolean }) {
  const events: { event: string; error?: unknown; ended: boolean; errored: boolean; aborted: boolean }[] = [];
  for (const event of ["connect", "error", "abort", "end"]) {
    (helper.on as (event: string, listener: (error?: unknown) => void) => unknown).call(helper, event, (error?: unknown) =>
      events.push({ event, ...(error === undefined ? {} : { error }), ended: helper.ended, errored: helper.errored, aborted: helper.aborted }),
    );
  }
  return events;
}

describe("stream() and runTools() while their code is loading", () => {
  // First in the file: the mocked modules are requested once, and the loader keeps the pending loads for the later tests.
  it("stream() requests the helper's code and parse()'s at once, the second before the first has resolved", async () => {
    const { client } = countingClient();
    const caller = new AbortController();
    // Neither load ever resolves here, so parse()'s code is requested only if stream() asks for it beside the
    // helper's; were it asked for after the helper's code arrived, the call's timeout would end the wait first.
    const stream = client.chat.completions.stream({ model: "auto", messages }, { signal: caller.signal, timeout: 2_000 });
    await Promise.race([loads.both, stream.done().catch(() => {})]);
    expect(loads.requested.filter((feature) => feature !== "tools").sort()).toEqual(["chat-stream", "structured"]);
    caller.abort();
    await expect(stream.done()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it.each([
    ["stream()", (client: ModelGate, options: { signal?: AbortSignal; timeout?: number }) => client.chat.completions.stream({ model: "auto", messages }, options)],
    ["runTools()", (client: ModelGate, options: { signal?: AbortSignal; timeout?: number }) => client.chat.completions.runTools({ model: "auto", messages, tools: [] }, options)],
  ])("%s: a listener added at once hears abort, then end, when the caller's signal ends the wait; errored and aborted are set", async (_name, call) => {
    const { client, counter } = countingClient();
    const caller = new AbortController();
    const helper = call(client, { signal: caller.signal });
    const events = heard(helper as never);
    const outcome = helper.done().catch((error: unknown) => error);
    caller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(events).toEqual([
      { event: "abort", error, ended: false, errored: true, aborted: true },
      { event: "end", ended: true, errored: true, aborted: true },
    ]);
    await expect(helper.finalContent()).rejects.toBe(error);
    expect(counter.sent).toBe(0);
  });

  it.each([
    ["stream()", (client: ModelGate, options: { timeout: number }) => client.chat.completions.stream({ model: "auto", messages }, options)],
    ["runTools()", (client: ModelGate, options: { timeout: number }) => client.chat.completions.runTools({ model: "auto", messages, tools: [] }, options)],
  ])("%s: a listener added at once hears error, then end, when the call's timeout ends the wait; errored is set, aborted is not", async (_name, call) => {
    const { client, counter } = countingClient();
    const helper = call(client, { timeout: 20 });
    const events = heard(helper as never);
    const error = await helper.done().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(events).toEqual([
      { event: "error", error, ended: false, errored: true, aborted: false },
      { event: "end", ended: true, errored: true, aborted: false },
    ]);
    expect(counter.sent).toBe(0);
  });
});
