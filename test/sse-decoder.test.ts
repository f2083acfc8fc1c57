import { describe, expect, it } from "vitest";
import { ModelGateError } from "../src/index.ts";
import { SSEDecoder } from "../src/streaming/sse-decoder.ts";
import { decodeReads, event, splits } from "./fixtures/sse.ts";

// Each case is fed whole, split in two at every byte boundary, and one byte per read: all
// must give the same events (WHATWG event-stream rules; a final event without a blank line
// is dispatched on flush, as the contract asks).
const cases: { name: string; wire: string | Uint8Array; events: ReturnType<typeof event>[] }[] = [
  { name: "LF line ends", wire: "data: a\n\ndata: b\n\n", events: [event("a"), event("b")] },
  { name: "CRLF line ends", wire: "data: a\r\n\r\ndata: b\r\n\r\n", events: [event("a"), event("b")] },
  { name: "CR line ends", wire: "data: a\r\rdata: b\r\r", events: [event("a"), event("b")] },
  { name: "mixed line ends", wire: "data: a\r\ndata: b\rdata: c\n\r\n", events: [event("a\nb\nc")] },
  { name: "multi-line data joined with LF", wire: "data: line 1\ndata: line 2\ndata:\n\n", events: [event("line 1\nline 2\n")] },
  { name: "comments and keep-alives ignored", wire: ": PROCESSING\n\n:\ndata: x\n: mid-event comment\n\n", events: [event("x")] },
  {
    name: "event, id and retry fields",
    wire: "event: update\nid: 42\nretry: 1500\ndata: {}\n\n",
    events: [event("{}", { event: "update", id: "42", retry: 1500 })],
  },
  { name: "invalid retry ignored", wire: "retry: 1.5\nretry: soon\ndata: x\n\n", events: [event("x")] },
  { name: "id containing NUL ignored", wire: "id: a\u0000b\ndata: x\n\n", events: [event("x")] },
  { name: "data without a space after the colon", wire: "data:x\n\n", events: [event("x")] },
  { name: "only one leading space stripped", wire: "data:  two spaces\n\n", events: [event(" two spaces")] },
  { name: "a field without a colon is a field with an empty value", wire: "data\ndata\n\n", events: [event("\n")] },
  { name: "unknown fields ignored", wire: "foo: bar\ndata: x\n\n", events: [event("x")] },
  { name: "an event without data is not dispatched", wire: "event: ping\n\ndata: x\n\n", events: [event("x")] },
  { name: "empty data line dispatches an empty event", wire: "data:\n\n", events: [event("")] },
  { name: "[DONE] passed through as data", wire: "data: [DONE]\n\n", events: [event("[DONE]")] },
  { name: "final event without a trailing blank line", wire: "data: a\n\ndata: last\n", events: [event("a"), event("last")] },
  { name: "final partial line at the end of the body", wire: "data: a\n\ndata: cut", events: [event("a"), event("cut")] },
  { name: "event type does not leak into the next event", wire: "event: x\ndata: 1\n\ndata: 2\n\n", events: [event("1", { event: "x" }), event("2")] },
  { name: "leading BOM dropped", wire: "\uFEFFdata: bom\n\n", events: [event("bom")] },
  { name: "CJK text", wire: "data: 你好，世界\n\n", events: [event("你好，世界")] },
  { name: "astral emoji split anywhere", wire: "data: 🚀🌍 ok 👩🏽‍💻\n\n", events: [event("🚀🌍 ok 👩🏽‍💻")] },
  { name: "combining characters", wire: "data: e\u0301te\u0301\n\n", events: [event("e\u0301te\u0301")] },
  { name: "blank lines between events", wire: "\n\n\ndata: a\n\n\n\ndata: b\n\n", events: [event("a"), event("b")] },
  // The one exception to the WHATWG field rules (API.md, Stream): llama.cpp's `error:` field.
  {
    name: "an error field as an error event, even without data",
    wire: 'error: {"code":500,"message":"boom"}\n\ndata: [DONE]\n\n',
    events: [event('{"code":500,"message":"boom"}', { event: "error" }), event("[DONE]")],
  },
  { name: "an error field's event without its data", wire: "error: oops\ndata: {}\nid: 7\n\n", events: [event("oops", { event: "error", id: "7" })] },
  {
    name: "OpenAI-style chunk stream",
    wire: 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    events: [event('{"choices":[{"delta":{"content":"Hi"}}]}'), event('{"choices":[{"delta":{},"finish_reason":"stop"}]}'), event("[DONE]")],
  },
];

describe("SSEDecoder: every case, whole and split at every byte", () => {
  for (const testCase of cases) {
    it(`decodes ${testCase.name} identically however the bytes are split`, () => {
      for (const { label, reads } of splits(testCase.wire)) {
        expect(decodeReads(reads), label).toEqual(testCase.events);
      }
    });
  }
});

describe("SSEDecoder: long lines", () => {
  it("decodes a 1 MB line that arrives in pieces of 1 byte to 4 KB", () => {
    const payload = "x".repeat(1024 * 1024);
    const bytes = new TextEncoder().encode(`data: ${payload}\n\n`);
    const reads: Uint8Array[] = [];
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7) % 4096 || 1) {
      reads.push(bytes.subarray(at, at + size));
    }
    const events = decodeReads(reads);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.length).toBe(payload.length);
  });

  it("throws a ModelGateError naming the limit for a line longer than maxLineLength", () => {
    const decoder = new SSEDecoder(() => {}, { maxLineLength: 100 });
    decoder.decode(new TextEncoder().encode(`data: ${"x".repeat(60)}`));
    expect(() => decoder.decode(new TextEncoder().encode("y".repeat(60)))).toThrow(ModelGateError);
    expect(() => new SSEDecoder(() => {}, { maxLineLength: 100 }).decode(new TextEncoder().encode("z".repeat(101)))).toThrow(
      "A stream line exceeded 100 characters; raise the client's `maxSSELineLength` option if this is expected.",
    );
  });

  it("throws a ModelGateError for an event whose data lines add up past maxLineLength", () => {
    const decoder = new SSEDecoder(() => {}, { maxLineLength: 100 });
    const lines = `${"data: 0123456789012345678901234567890123456789\n".repeat(3)}\n`;
    expect(() => decoder.decode(new TextEncoder().encode(lines))).toThrow(/stream event exceeded 100/);
  });

  it("lets an error thrown by the event handler propagate unchanged", () => {
    const failure = new Error("handler failed");
    const decoder = new SSEDecoder(() => {
      throw failure;
    });
    expect(() => decoder.decode(new TextEncoder().encode("data: x\n\n"))).toThrow(failure);
  });
});
