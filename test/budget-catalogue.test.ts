import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { APIConnectionTimeoutError, APIUserAbortError, ModelGate, tool, type Model } from "../src/index.ts";
import { completionBody } from "./fixtures/chunks.ts";

// The catalogue fetch behind maxCost belongs to the calls waiting on it: when none waits any
// more it is aborted, and the client's timeout bounds the wait as a call's does.

const messages = [{ role: "user" as const, content: "Hello." }];
const models: Model[] = [{ id: "m/x", object: "model", created: 0, owned_by: "x", pricing: { prompt: 1, completion: 1 }, max_output_tokens: 100 }];

/** A gateway whose catalogue answers only when `release()` is called; it records each catalogue fetch's signal. */
function slowCatalogue(options: { timeout?: number; maxRetries?: number } = {}) {
  const signals: AbortSignal[] = [];
  const waiting: (() => void)[] = [];
  const client = new ModelGate({
    apiKey: "sk-test-key-1234",
    baseURL: "https://gateway.test",
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    fetch: (url, init) => {
      if (!String(url).endsWith("/v1/models")) return Promise.resolve(Response.json(completionBody("ok")));
      const signal = init!.signal!;
      signals.push(signal);
      return new Promise<Response>((resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        waiting.push(() => resolve(Response.json({ object: "list", data: models })));
      });
    },
  });
  return { client, signals, release: () => waiting.splice(0).forEach((answer) => answer()) };
}

describe("the catalogue fetch behind maxCost", () => {
  it("is aborted when the only call waiting on it is aborted, and the next call fetches anew", async () => {
    const { client, signals, release } = slowCatalogue();
    const controller = new AbortController();
    const call = client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1, signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expect(signals[0]!.aborted).toBe(true);
    const next = client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1 });
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    release();
    expect((await next).choices[0]!.message.content).toBe("ok");
  });

  it("goes on for the calls still waiting when one of them is aborted", async () => {
    const { client, signals, release } = slowCatalogue();
    const controller = new AbortController();
    const aborted = client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1, signal: controller.signal });
    const patient = client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1 });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(APIUserAbortError);
    expect(signals[0]!.aborted).toBe(false);
    release();
    expect((await patient).choices[0]!.message.content).toBe("ok");
    expect(signals).toHaveLength(1);
  });

  it("is waited for no longer than the client's timeout, and then aborted, however many retries the client allows", async () => {
    const { client, signals } = slowCatalogue({ timeout: 50, maxRetries: 2 });
    const error = await client.chat.completions.create({ model: "m/x", messages }, { maxCost: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("is aborted when a tool run waiting on it is aborted", async () => {
    const { client, signals } = slowCatalogue();
    const controller = new AbortController();
    const echo = tool({ name: "echo", parameters: z.object({}), run: () => "ok" });
    const run = client.chat.completions.runTools({ model: "m/x", messages, tools: [echo] }, { maxCost: 1, signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
    expect(signals[0]!.aborted).toBe(true);
  });
});
