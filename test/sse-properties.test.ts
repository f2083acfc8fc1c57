import fc from "fast-check";
import { gatewayInfo } from "../src/gateway/info.ts";
import { BodyReader } from "../src/streaming/body-reader.ts";
import { describe, expect, it } from "vitest";
import { ModelGateError } from "../src/index.ts";
import { SSEDecoder, type ServerSentEvent } from "../src/streaming/sse-decoder.ts";
import { sseStream } from "../src/streaming/sse-chunks.ts";
import { sseResponse } from "./fixtures/body.ts";
import { decodeReads, event } from "./fixtures/sse.ts";

// Property tests: generated event streams decode the same however their bytes are split, and
// arbitrary bytes never hang the stream or throw anything but a ModelGateError.

const RUNS = 300;
const lineText = fc.string({ unit: "binary", maxLength: 40 }).filter((text) => !/[\r\n]/.test(text));
const fieldName = fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).filter((text) => !/[\r\n]/.test(text));

interface GeneratedEvent {
  comments: string[];
  type: string | undefined;
  id: string | undefined;
  retry: number | undefined;
  data: string[];
}

const generatedEvent: fc.Arbitrary<GeneratedEvent> = fc.record({
  comments: fc.array(lineText, { maxLength: 2 }),
  type: fc.option(fieldName, { nil: undefined }),
  id: fc.option(lineText.filter((text) => !text.includes("\0")), { nil: undefined }),
  retry: fc.option(fc.nat({ max: 100_000 }), { nil: undefined }),
  data: fc.array(lineText, { minLength: 1, maxLength: 4 }),
});

/** Line ends chosen per line; a CR is never followed by an LF-first line end (that would be one CRLF). */
function encode(events: GeneratedEvent[], ends: number[]): string {
  let wire = "";
  let endIndex = 0;
  let previous = "";
  const line = (text: string) => {
    let end = ["\n", "\r", "\r\n"][ends[endIndex++ % ends.length]! % 3]!;
    if (previous === "\r" && end.startsWith("\n")) end = "\r\n";
    wire += text + end;
    previous = end;
  };
  for (const generated of events) {
    for (const comment of generated.comments) line(`:${comment}`);
    if (generated.type !== undefined) line(`event: ${generated.type}`);
    if (generated.id !== undefined) line(`id: ${generated.id}`);
    if (generated.retry !== undefined) line(`retry: ${generated.retry}`);
    for (const data of generated.data) line(`data: ${data}`);
    line("");
  }
  return wire;
}

function expected(events: GeneratedEvent[]): ServerSentEvent[] {
  return events.map((generated) => event(generated.data.join("\n"), { event: generated.type, id: generated.id, retry: generated.retry }));
}

/** Cuts `bytes` at the given (sorted, deduplicated) positions. */
function cut(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const points = [...new Set(positions.map((position) => position % (bytes.length + 1)))].sort((a, b) => a - b);
  const reads: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    reads.push(bytes.subarray(from, point));
    from = point;
  }
  reads.push(bytes.subarray(from));
  return reads;
}

describe("SSE decoder properties", () => {
  it("decodes any generated event stream to its events, whole or split into any reads", () => {
    fc.assert(
      fc.property(
        fc.array(generatedEvent, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, ends, positions) => {
          const bytes = new TextEncoder().encode(encode(events, ends));
          const want = expected(events);
          expect(decodeReads([bytes])).toEqual(want);
          expect(decodeReads(cut(bytes, positions))).toEqual(want);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("rejects any line longer than the limit with a ModelGateError naming the limit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 2_000 }), fc.integer({ min: 1, max: 500 }), fc.array(fc.nat(), { maxLength: 6 }), (limit, over, positions) => {
        const bytes = new TextEncoder().encode(`data: ${"x".repeat(limit + over)}`);
        const decoder = new SSEDecoder(() => {}, { maxLineLength: limit });
        expect(() => {
          for (const read of cut(bytes, positions)) decoder.decode(read);
          decoder.flush();
        }).toThrow(new RegExp(`exceeded ${limit} characters`));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("Stream over arbitrary bytes", () => {
  const soup = fc.array(
    fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.constantFrom(...["data: [DONE]\n\n", "data: {}\n\n", "\r\n", ":\n", "event: error\n", "data: {\"choices\":[{\"finish_reason\":\"stop\"}]}\n\n", "data: {\"error\":{\"code\":500}}\n\n"].map((text) => new TextEncoder().encode(text))),
    ),
    { maxLength: 12 },
  );

  it("ends or throws a ModelGateError for any bytes, and never hangs", async () => {
    await fc.assert(
      fc.asyncProperty(soup, async (reads) => {
        const response = sseResponse(reads);
        const controller = new AbortController();
        const reader = new BodyReader(response.body!, { controller, idleTimeoutMs: 1_000 });
        const stream = sseStream(response, reader, controller, gatewayInfo(undefined, undefined, 1), { maxLineLength: 1_024 });
        try {
          for await (const _ of stream) {
            // consume
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ModelGateError);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
