import { describe, expect, it } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError } from "../src/index.ts";
import { unlessAborted } from "../src/pipeline/unless-aborted.ts";
import { countingSignal } from "./fixtures/counting-signal.ts";
import { follow, turns } from "./fixtures/promises.ts";

// The one wait for what the SDK awaits but cannot stop (an attempt's fetch and body, a key
// function, code loading, the catalogue, a schema's check, a step's tools).

const never = () => new Promise<never>(() => {});

describe("unlessAborted", () => {
  it("settles with the work, and lets go of every signal", async () => {
    const [one, two] = [countingSignal(), countingSignal()];
    expect(await unlessAborted(Promise.resolve("done"), one.signal, undefined, two.signal)).toBe("done");
    await expect(unlessAborted(Promise.reject(new Error("failed")), one.signal)).rejects.toThrow("failed");
    expect(await unlessAborted("a plain value")).toBe("a plain value");
    expect([one.listeners, two.listeners]).toEqual([0, 0]);
  });

  it("rejects at once with APIUserAbortError when a signal has already aborted, and observes the work's later failure", async () => {
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    let fail!: (error: Error) => void;
    const work = new Promise<never>((_, reject) => (fail = reject));
    const error = await unlessAborted(work, controller.signal).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toEqual(new Error("gone"));
    // An unhandled rejection would fail this test file.
    fail(new Error("after the caller left"));
    await turns();
  });

  it("rejects as soon as a signal aborts, with the SDK's own reason, and leaves no listener on the others", async () => {
    const [caller, attempt] = [countingSignal(), countingSignal()];
    const waiting = follow(unlessAborted(never(), caller.signal, attempt.signal));
    const timeout = new APIConnectionTimeoutError("Request timed out after 5 ms waiting for the whole response (timeout).");
    attempt.controller.abort(timeout);
    await turns();
    expect(waiting.standing().error).toBe(timeout);
    expect([caller.listeners, attempt.listeners]).toEqual([0, 0]);
  });

  it("reports the abort when the work fails after it", async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const waiting = follow(unlessAborted(new Promise<never>((_, reject) => (fail = reject)), controller.signal));
    controller.abort();
    fail(new Error("cancelled because of the abort"));
    await turns();
    expect(waiting.standing().error).toBeInstanceOf(APIUserAbortError);
  });
});
