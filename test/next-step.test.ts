import { describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, ModelGateError, apiErrorForStatus, type APIError } from "../src/errors/index.ts";
import { nextStep, type AttemptOutcome, type CallState } from "../src/pipeline/next-step.ts";

// The request loop's one decision, tested alone: what follows an attempt, given how it ended
// and what the call has done so far. No request is made here.

const state = (overrides: Partial<CallState> = {}): CallState => ({ retries: 0, maxRetries: 2, mayAskForNewKey: false, mayShrink: false, ...overrides });
const failed = (error: unknown): AttemptOutcome => ({ ok: false, error });
const status = (code: number, headers: Record<string, string> = {}, error?: unknown): APIError =>
  apiErrorForStatus(code, { message: `status ${code}`, headers: new Headers(headers), error });
const NOW = Date.UTC(2030, 0, 1);

describe("nextStep", () => {
  it("returns a successful answer", () => {
    expect(nextStep({ ok: true }, state())).toEqual({ do: "return" });
  });

  it("retries a connection error and a timeout after the backoff, and throws the caller's abort", () => {
    for (const error of [new APIConnectionError(), new APIConnectionTimeoutError()]) {
      const step = nextStep(failed(error), state({ retries: 1 }));
      expect(step.do).toBe("retry");
      expect((step as { afterMs: number }).afterMs).toBeGreaterThanOrEqual(750);
      expect((step as { afterMs: number }).afterMs).toBeLessThanOrEqual(1000);
    }
    expect(nextStep(failed(new APIUserAbortError()), state())).toEqual({ do: "throw" });
  });

  it("throws what is not an APIError (a bad argument, a key function that threw)", () => {
    expect(nextStep(failed(new ModelGateError("no")), state())).toEqual({ do: "throw" });
    expect(nextStep(failed(new TypeError("no")), state())).toEqual({ do: "throw" });
  });

  it("retries a retryable status after the wait the server asked for, up to maxRetries", () => {
    expect(nextStep(failed(status(429, { "retry-after-ms": "250" })), state())).toEqual({ do: "retry", afterMs: 250 });
    expect(nextStep(failed(status(503, { "retry-after": "Tue, 01 Jan 2030 00:00:02 GMT" })), state(), NOW)).toEqual({ do: "retry", afterMs: 2000 });
    expect(nextStep(failed(status(429)), state({ retries: 2 }))).toEqual({ do: "throw" });
    expect(nextStep(failed(status(400)), state())).toEqual({ do: "throw" });
    expect(nextStep(failed(status(400, { "x-should-retry": "true", "retry-after-ms": "5" })), state())).toEqual({ do: "retry", afterMs: 5 });
  });

  it("throws at once, with a note saying why, when the server asks for a wait past the cap", () => {
    const step = nextStep(failed(status(429, { "retry-after": "999999" })), state());
    expect(step).toEqual({ do: "throw", note: '(Not retried: the server asked to wait "999999" (retry-after), longer than the 60 s the SDK waits.)' });
    // Out of retries, there is nothing to explain.
    expect(nextStep(failed(status(429, { "retry-after": "999999" })), state({ retries: 2 }))).toEqual({ do: "throw" });
  });

  it("asks a key function for a new key once after a 401, whatever the retries left", () => {
    expect(nextStep(failed(status(401)), state({ mayAskForNewKey: true, retries: 2 }))).toEqual({ do: "new-key" });
    expect(nextStep(failed(status(401)), state({ mayAskForNewKey: false }))).toEqual({ do: "throw" });
    expect(nextStep(failed(status(403)), state({ mayAskForNewKey: true }))).toEqual({ do: "throw" });
  });

  it("shrinks a 402 that names the affordable tokens once, when shrinking is on", () => {
    const payment = status(402, {}, { message: "more credits", metadata: { affordable_tokens: 120 } });
    expect(nextStep(failed(payment), state({ mayShrink: true }))).toEqual({ do: "shrink", tokens: 120 });
    expect(nextStep(failed(payment), state({ mayShrink: false }))).toEqual({ do: "throw" });
    expect(nextStep(failed(status(402, {}, { metadata: { affordable_tokens: 0 } })), state({ mayShrink: true }))).toEqual({ do: "throw" });
    expect(nextStep(failed(status(402)), state({ mayShrink: true }))).toEqual({ do: "throw" });
  });

  it("prefers a retry the server allows over a shrink (x-should-retry on a 402)", () => {
    const payment = status(402, { "x-should-retry": "true", "retry-after-ms": "10" }, { metadata: { affordable_tokens: 50 } });
    expect(nextStep(failed(payment), state({ mayShrink: true }))).toEqual({ do: "retry", afterMs: 10 });
    expect(nextStep(failed(payment), state({ mayShrink: true, retries: 2 }))).toEqual({ do: "shrink", tokens: 50 });
  });
});
