import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, isRetryableStatus, retryDelayMs } from "../src/pipeline/retry-policy.ts";

const headers = (init: Record<string, string>) => new Headers(init);

describe("retryDelayMs", () => {
  it("backs off exponentially from about 0.5 s with up to 25% jitter, capped at 8 s", () => {
    for (let i = 0; i < 200; i++) {
      const delays = [0, 1, 2, 3, 4, 8].map((retry) => retryDelayMs(retry, undefined));
      const bases = [500, 1000, 2000, 4000, 8000, 8000];
      delays.forEach((delay, index) => {
        expect(delay).toBeGreaterThanOrEqual(bases[index]! * 0.75);
        expect(delay).toBeLessThanOrEqual(bases[index]!);
      });
    }
  });

  it("jitters, so clients failing together spread out", () => {
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayMs(0, undefined)));
    expect(delays.size).toBeGreaterThan(1);
  });

  it("prefers retry-after-ms over retry-after", () => {
    expect(retryDelayMs(0, headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
  });

  it("reads retry-after as seconds, fractional too", () => {
    expect(retryDelayMs(0, headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryDelayMs(0, headers({ "retry-after": "0.5" }))).toBe(500);
  });

  it("reads retry-after as an HTTP date", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(retryDelayMs(0, headers({ "retry-after": "Sun, 22 Nov 2026 12:00:05 GMT" }), now)).toBe(5000);
    expect(retryDelayMs(0, headers({ "retry-after": "Sun, 22 Nov 2026 11:00:00 GMT" }), now)).toBe(0);
  });

  it("falls back to backoff for a malformed retry-after", () => {
    const delay = retryDelayMs(0, headers({ "retry-after": "soon", "retry-after-ms": "-5" }));
    expect(delay).toBeGreaterThanOrEqual(375);
    expect(delay).toBeLessThanOrEqual(500);
  });

  it(`refuses (null) a requested wait above ${MAX_RETRY_AFTER_MS} ms instead of waiting`, () => {
    expect(retryDelayMs(0, headers({ "retry-after": "999999" }))).toBeNull();
    expect(retryDelayMs(0, headers({ "retry-after-ms": String(MAX_RETRY_AFTER_MS + 1) }))).toBeNull();
    expect(retryDelayMs(0, headers({ "retry-after-ms": String(MAX_RETRY_AFTER_MS) }))).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe("isRetryableStatus", () => {
  const answer = (status: number, init: Record<string, string> = {}) => [status, new Headers(init)] as const;

  it.each([408, 409, 429, 500, 502, 599])("retries %i", (status) => {
    expect(isRetryableStatus(...answer(status))).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])("does not retry %i", (status) => {
    expect(isRetryableStatus(...answer(status))).toBe(false);
  });

  it("lets x-should-retry override the status", () => {
    expect(isRetryableStatus(...answer(400, { "x-should-retry": "true" }))).toBe(true);
    expect(isRetryableStatus(...answer(503, { "x-should-retry": "false" }))).toBe(false);
  });
});
