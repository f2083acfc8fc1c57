import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APIConnectionError, APIError, APIUserAbortError, ModelGateError, Stream, StructuredOutputError } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";
import { fedBody, fedResponse, PENDING, settled } from "./fixtures/fed-body.ts";
import { copiedEntries, deepFreeze } from "./fixtures/json-values.ts";
import { follow, rejection, turns, unhandledDuring } from "./fixtures/promises.ts";
import { neverChecked } from "./fixtures/schemas.ts";

// parse({ stream: true }): partial objects as the answer streams, finalChatCompletion(), and
// how the stream's readers (partials, chunks, the final completion) share its end and errors.

const Weather = z.object({ city: z.string(), celsius: z.number() });
const Answer = z.object({ a: z.number() });
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

/**
 * A client streaming `pieces` as content deltas of choice 0, then `stop` and [DONE], each in its
 * own network read a timer turn after the last: pieces that arrive one by one, so each change
 * shows as its own partial (pieces that arrive together may share one).
 */
function streaming(pieces: string[], options: { finish?: "stop" | "length"; breakOff?: boolean } = {}) {
  const events = pieces.map((piece) => sseData(chunk({ content: piece })));
  const tail = options.breakOff ? [] : [sseData(chunk({}, { finish: options.finish ?? "stop" })), DONE];
  const state = { cancelled: false };
  const recorded = recordingClient(() => {
    const response = sseResponse([...events, ...tail], { breakOff: options.breakOff ?? false });
    const reader = response.body!.getReader();
    let ahead = reader.read();
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await ahead;
        if (done) return controller.close();
        ahead = reader.read();
        // The last part comes with the end of the body, as a server's last packet does (a cut
        // is reported by the next pull, once this part was taken).
        const last = await ahead.then(({ done: ended }) => ended, () => false);
        await new Promise((resolve) => setTimeout(resolve, 0));
        controller.enqueue(value);
        if (last) controller.close();
      },
      cancel: async (reason) => {
        state.cancelled = true;
        await reader.cancel(reason);
      },
    });
    return new Response(body, { headers: response.headers });
  });
  return { ...recorded, state };
}

describe("parse({ stream: true })", () => {
  const pieces = ['{"ci', 'ty":"Pa', 'ris","cel', "sius\":2", "1}"];

  it("yields growing partial objects, then finalChatCompletion() gives the validated completion", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(structuredClone(partial));
    expect(partials).toEqual([{}, { city: "Pa" }, { city: "Paris" }, { city: "Paris", celsius: 21 }]);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(final.choices[0].message.content).toBe(pieces.join(""));
  });

  it("hands each partial out once when next() is called several times at once, as an async generator would", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const partials = stream.partialObjectStream[Symbol.asyncIterator]();
    // More calls than there are partials: the ones past the end are done, not copies of a partial.
    const results = await Promise.all(Array.from({ length: 6 }, () => partials.next()));
    expect(results.map((result) => (result.done ? "done" : structuredClone(result.value)))).toEqual([{}, { city: "Pa" }, { city: "Paris" }, { city: "Paris", celsius: 21 }, "done", "done"]);
  });

  it("finalChatCompletion() works without reading the partials, and after reading the chunks", async () => {
    const alone = streaming(pieces);
    const stream = await alone.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(await stream.finalChatCompletion()).toBe(await stream.finalChatCompletion());

    const afterChunks = streaming(pieces);
    const chunked = await afterChunks.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    let text = "";
    for await (const received of chunked) text += received.choices[0]?.delta.content ?? "";
    expect(text).toBe(pieces.join(""));
    expect((await chunked.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("lets a loop over the chunks started right after finalChatCompletion() read every chunk", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const final = stream.finalChatCompletion();
    const partials = (async () => {
      const seen: unknown[] = [];
      for await (const partial of stream.partialObjectStream) seen.push(structuredClone(partial));
      return seen;
    })();
    let count = 0;
    for await (const _ of stream) count++;
    expect(count).toBe(pieces.length + 1);
    expect((await final).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect((await partials).at(-1)).toEqual({ city: "Paris", celsius: 21 });
  });

  it("rejects finalChatCompletion() with APIUserAbortError on the caller's abort or stream.controller.abort() while the schema's async check is pending", async () => {
    for (const how of ["signal", "controller"] as const) {
      const { schema, checking } = neverChecked();
      const { client } = streaming(['{"city":', '"Paris"}']);
      const caller = new AbortController();
      const stream = await client.chat.completions.parse({ model: "m", messages, response_format: schema, stream: true }, { signal: caller.signal });
      const final = follow(stream.finalChatCompletion());
      await checking;
      if (how === "signal") caller.abort();
      else stream.controller.abort();
      await turns();
      expect(final.standing().error, how).toBeInstanceOf(APIUserAbortError);
    }
  });

  it("leaves no listener on the caller's signal when stream.controller.abort() ends a pending check", async () => {
    const caller = new AbortController();
    const live = new Set<unknown>();
    const { signal } = caller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: unknown, options?: unknown) => {
      live.add(listener);
      add(type, listener as EventListener, options as AddEventListenerOptions);
    }) as AbortSignal["addEventListener"];
    signal.removeEventListener = ((type: string, listener: unknown, options?: unknown) => {
      live.delete(listener);
      remove(type, listener as EventListener, options as EventListenerOptions);
    }) as AbortSignal["removeEventListener"];
    for (let call = 0; call < 3; call++) {
      const { schema, checking } = neverChecked();
      const { client } = streaming(['{"city":', '"Paris"}']);
      const stream = await client.chat.completions.parse({ model: "m", messages, response_format: schema, stream: true }, { signal });
      const final = follow(stream.finalChatCompletion());
      await checking;
      stream.controller.abort();
      await turns();
      expect(final.standing().error).toBeInstanceOf(APIUserAbortError);
    }
    expect(live.size).toBe(0);
  });

  it("leaves no unhandled rejection when the schema's check, started after an abort, fails later", async () => {
    let failCheck!: () => void;
    const failing = new Promise<void>((resolve) => (failCheck = resolve));
    // A Standard Schema of its own (Zod's async refinements leave a rejection of their own unhandled).
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: async () => {
          await failing;
          throw new Error("the check failed after the caller left");
        },
        jsonSchema: { input: () => ({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }), output: () => ({ type: "object" }) },
      },
    };
    const unhandled = await unhandledDuring(async () => {
      const { client } = streaming(['{"city":', '"Paris"}']);
      const stream = await client.chat.completions.parse({ model: "m", messages, response_format: schema, stream: true });
      for await (const _ of stream);
      stream.controller.abort();
      await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
      failCheck();
    });
    expect(unhandled).toEqual([]);
  });

  it("refuses a loop over the chunks after the partials were read", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    await stream.partialObjectStream[Symbol.asyncIterator]().next();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/already been consumed/);
  });

  it("throws StructuredOutputError from both on malformed JSON, with the whole reply, which is read to its end", async () => {
    const pieces = ['{"city":', "Paris}", "...and more text"];
    const { client, state } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const partial of stream.partialObjectStream) seen.push(partial);
      })(),
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as Error).message).toMatch(/^The answer is not valid JSON/);
    expect((error as StructuredOutputError).content).toBe(pieces.join(""));
    expect(seen).toEqual([{}]);
    expect(state.cancelled).toBe(false);
    expect(await rejection(stream.finalChatCompletion())).toBe(error);
  });

  it("treats a refusal that follows prose as a refusal, as a non-streamed reply is", async () => {
    const events = [sseData(chunk({ content: "I am sorry, " })), sseData(chunk({ refusal: "I can't help with that." })), sseData(chunk({}, { finish: "stop" })), DONE];
    const { client } = recordingClient(() => sseResponse(events));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    for await (const partial of stream.partialObjectStream) seen.push(partial);
    expect(seen).toEqual([]);
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toBeNull();
  });

  it("throws a schema failure and a length cut at the end, after the partials", async () => {
    const wrong = streaming(['{"city":"Paris",', '"celsius":"warm"}']);
    const stream = await wrong.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const partial of stream.partialObjectStream) seen.push(structuredClone(partial));
      })(),
    );
    expect(seen.at(-1)).toEqual({ city: "Paris", celsius: "warm" });
    expect((error as StructuredOutputError).issues[0].path).toEqual(["celsius"]);

    const cut = streaming(['{"city":"Par'], { finish: "length" });
    const cutStream = await cut.client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect(((await rejection(cutStream.finalChatCompletion())) as Error).message).toMatch(/finish_reason "length"/);
  });

  it("throws the connection error of a stream that breaks off, from the partials and from finalChatCompletion()", async () => {
    const { client } = streaming(['{"city":"Pa'], { breakOff: true });
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const error = await rejection(
      (async () => {
        for await (const _ of stream.partialObjectStream);
      })(),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(await rejection(stream.finalChatCompletion())).toBe(error);
  });

  it("reads the answer from the forced function's argument fragments in \"tool\" mode", async () => {
    const events = [
      sseData(chunk(toolFragment({ index: 0, id: "c1", name: "response", arguments: "" }))),
      ...['{"city"', ':"Paris",', '"celsius":21}'].map((args) => sseData(chunk(toolFragment({ index: 0, arguments: args })))),
      sseData(chunk({}, { finish: "tool_calls" })),
      DONE,
    ];
    const { client } = recordingClient(() => sseResponse(events, { delayMs: 1 }));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true }, { structuredOutput: "tool" });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(structuredClone(partial));
    expect(partials).toEqual([{}, { city: "Paris" }, { city: "Paris", celsius: 21 }]);
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("is a Stream: the response, requestID, text and the controller are there", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    expect(stream.requestID).toBe("req_stream");
    expect(stream.response.status).toBe(200);
    expect(await stream.text()).toBe(pieces.join(""));
  });

  it("is an ordinary subclass of Stream: partialObjectStream and finalChatCompletion() are its class's, nothing is set on the instance", async () => {
    const { client } = streaming(pieces);
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, stream: true });
    const plain = await client.chat.completions.create({ model: "m", messages, stream: true });
    expect(stream).toBeInstanceOf(Stream);
    expect(stream.constructor.name).toBe("StructuredStream");
    expect(Object.getPrototypeOf(Object.getPrototypeOf(stream))).toBe(Stream.prototype);
    expect(Object.getOwnPropertyNames(stream).sort()).toEqual(Object.getOwnPropertyNames(plain).sort());
    const proto = Object.getPrototypeOf(stream) as object;
    expect(typeof Object.getOwnPropertyDescriptor(proto, "partialObjectStream")?.get).toBe("function");
    expect(typeof Object.getOwnPropertyDescriptor(proto, "finalChatCompletion")?.value).toBe("function");
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    await plain.text();
  });

  it("settles finalChatCompletion() and partialObjectStream with the error when a loop over the chunks fails", async () => {
    const { client } = recordingClient(() => sseResponse([sseData(chunk({ content: '{"a":' }))], { breakOff: true }));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    const final = follow(stream.finalChatCompletion());
    const partials = follow(
      (async () => {
        for await (const _ of stream.partialObjectStream);
      })(),
    );
    const loop = await (async () => {
      for await (const _ of stream);
    })().catch((error: unknown) => error);
    expect(loop).toBeInstanceOf(APIConnectionError);
    await turns();
    expect(final.standing().error, "finalChatCompletion() a few event-loop turns after the loop failed").toBe(loop);
    expect(partials.standing().error, "the partials a few event-loop turns after the loop failed").toBe(loop);
  });

  it("keeps a pending finalChatCompletion() and other partial readers going when one partial reader breaks out", async () => {
    const pieces = ['{"title":"Hel', 'lo","body":"wor', 'ld"}'];
    const { client } = recordingClient(() => sseResponse([...pieces.map((piece) => sseData(chunk({ content: piece }))), sseData(chunk({}, { finish: "stop" })), DONE]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: z.object({ title: z.string(), body: z.string() }), stream: true });
    const final = stream.finalChatCompletion();
    const other = (async () => {
      let last: unknown;
      for await (const partial of stream.partialObjectStream) last = partial;
      return last;
    })();
    for await (const _ of stream.partialObjectStream) break;
    expect((await final).choices[0]!.message.parsed).toEqual({ title: "Hello", body: "world" });
    expect(await other).toEqual({ title: "Hello", body: "world" });
  });

  it("rejects finalChatCompletion() after a break stopped the stream, instead of inventing an end", async () => {
    // The end arrives a timer turn later than the answer: the break comes before it.
    const { client } = recordingClient(() => sseResponse([sseData(chunk({ content: '{"a":1}' })), sseData(chunk({}, { finish: "length" })), DONE], { delayMs: 1 }));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    for await (const _ of stream.partialObjectStream) break;
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/stopped before its end/);
  });

  it("reports an in-stream error to every consumer with its class", async () => {
    const failing = { ...chunk({}, { finish: "error" as never }), error: { code: 500, message: "boom" } };
    const { client } = recordingClient(() => sseResponse([sseData(chunk({ content: '{"a":' })), sseData(failing)]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, stream: true });
    const error = await stream.finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
  });
});

describe("parse({ stream: true }): partials keep pace", () => {
  const Text = z.object({ text: z.string(), tags: z.array(z.string()).optional() });
  /** 48,000 characters: far past any "every change while the answer is short" rule. */
  const long = "lorem ipsum ".repeat(4_000);
  /** A partial as a failure message shows it: short, the long text by its length. */
  const shown = (result: IteratorResult<unknown> | typeof PENDING) =>
    result === PENDING ? "still waiting" : JSON.stringify(result, (key, value: unknown) => (typeof value === "string" && value.length > 40 ? `${value.slice(-12)} (${value.length} characters)` : value));

  it("yields each change before waiting on the network for more, however long the answer already is", async () => {
    for (const reader of ["partials alone", "partials while a loop reads the chunks"]) {
      const fed = fedBody();
      const { client } = recordingClient(() => fedResponse(fed));
      // A stream is returned at the first byte of its body (a silent or broken start is
      // retried): an SSE comment, which is no change, lets it start.
      fed.send(": open\n\n");
      const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Text, stream: true });
      const partials = stream.partialObjectStream[Symbol.asyncIterator]();
      const chunks = reader === "partials alone" ? undefined : (async () => {
        let count = 0;
        for await (const _ of stream) count++;
        return count;
      })();
      const steps: [string, unknown][] = [
        [`{"text":"${long}`, { text: long }],
        [" more", { text: `${long} more` }],
        ['","tags":[', { text: `${long} more`, tags: [] }],
        ['"a"', { text: `${long} more`, tags: ["a"] }],
      ];
      for (const [piece, expected] of steps) {
        fed.send(sseData(chunk({ content: piece })));
        // Nothing more is sent: the change must come out while the SDK waits for more.
        const result = await settled(partials.next());
        expect(shown(result), `${reader}, after ${JSON.stringify(piece.slice(0, 12))}`).toBe(shown({ value: expected, done: false }));
      }
      fed.send(sseData(chunk({ content: "]}" }, { finish: "stop" })) + DONE);
      fed.close();
      expect(await settled(partials.next()), reader).toEqual({ value: undefined, done: true });
      if (chunks) expect(await chunks).toBe(steps.length + 1);
      expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual({ text: `${long} more`, tags: ["a"] });
    }
  });

  it("yields the last state before the end, whether the reply is whole, cut or failed", async () => {
    const start = [sseData(chunk({ content: `{"text":"${long}` })), sseData(chunk({ content: " more" }))];
    const endings = {
      whole: { parts: [...start, sseData(chunk({ content: '"}' }, { finish: "stop" })), DONE], breakOff: false, error: undefined },
      cut: { parts: start, breakOff: true, error: APIConnectionError },
      failed: { parts: [...start, sseData({ ...chunk({}, { finish: "error" as never }), error: { code: 500, message: "boom" } })], breakOff: false, error: APIError },
    };
    for (const [ending, { parts, breakOff, error }] of Object.entries(endings)) {
      const { client } = recordingClient(() => sseResponse(parts, { breakOff }));
      const stream = await client.chat.completions.parse({ model: "m", messages, response_format: Text, stream: true });
      let last: unknown;
      let thrown: unknown;
      try {
        for await (const partial of stream.partialObjectStream) last = partial;
      } catch (caught) {
        thrown = caught;
      }
      expect(shown({ value: last, done: false }), ending).toBe(shown({ value: { text: `${long} more` }, done: false }));
      if (error) expect(thrown, ending).toBeInstanceOf(error);
      else expect(thrown, ending).toBeUndefined();
    }
  });

  it("copies a wide object once when its chunks arrived together, not once per key, and never changes a partial it gave", async () => {
    const keys = 2_000;
    const answer = JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, index) => [`key${index}`, `value ${index}`])));
    const events = answer.match(/[\s\S]{1,16}/g)!.map((piece) => sseData(chunk({ content: piece })));
    // All of the answer in one network read, as a fast model behind a buffering proxy sends it.
    const { client } = recordingClient(() => sseResponse([events.join(""), sseData(chunk({}, { finish: "stop" })) + DONE]));
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: z.record(z.string(), z.string()), stream: true });
    let previous: unknown;
    let copied = 0;
    for await (const partial of stream.partialObjectStream) {
      copied += copiedEntries(previous, partial);
      deepFreeze(partial); // a later write into it would throw, and fail the stream
      previous = partial;
    }
    expect(previous).toEqual(JSON.parse(answer));
    // One partial per chunk would copy 1 + 2 + … + 2,000 entries (about 2,000,000).
    expect(copied).toBeLessThanOrEqual(2 * keys);
    expect((await stream.finalChatCompletion()).choices[0].message.parsed).toEqual(JSON.parse(answer));
  });

  it("shares what did not change with the previous partial: a change costs the path to it", async () => {
    const fed = fedBody();
    const { client } = recordingClient(() => fedResponse(fed));
    // A stream is returned at the first byte of its body (a silent or broken start is retried):
    // an SSE comment, which is no change, lets it start.
    fed.send(": open\n\n");
    const stream = await client.chat.completions.parse({ model: "m", messages, response_format: z.record(z.string(), z.unknown()), stream: true });
    const partials = stream.partialObjectStream[Symbol.asyncIterator]();
    const rows = Array.from({ length: 500 }, (_, index) => ({ id: index, tags: ["a", "b"] }));
    fed.send(sseData(chunk({ content: `{"meta":{"a":1,"b":[1,2]},"rows":${JSON.stringify(rows)},"open":{"text":"` })));
    let previous = (await settled(partials.next())) as IteratorResult<Record<string, { text?: string }>>;
    expect(previous.value).toEqual({ meta: { a: 1, b: [1, 2] }, rows, open: { text: "" } });
    deepFreeze(previous.value);
    for (const piece of ["a", "b", "c", "d"]) {
      fed.send(sseData(chunk({ content: piece })));
      const next = (await settled(partials.next())) as IteratorResult<Record<string, { text?: string }>>;
      expect(next.value.open!.text!.endsWith(piece)).toBe(true);
      expect(next.value.meta).toBe(previous.value.meta);
      expect(next.value.rows).toBe(previous.value.rows);
      // The root's three entries and the open object's one: not the 500 rows.
      expect(copiedEntries(previous.value, next.value)).toBe(4);
      deepFreeze(next.value);
      previous = next;
    }
    fed.send(sseData(chunk({ content: '"}}' }, { finish: "stop" })) + DONE);
    fed.close();
    expect(await settled(partials.next())).toEqual({ value: undefined, done: true });
  });
});
