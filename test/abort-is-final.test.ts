import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIUserAbortError, ModelGate, tool, jsonSchema, type ToolRunEvent } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { serveNode, type NodeServer } from "../src/testing/node.ts";
import { contentEvent, DONE } from "./fixtures/chunks.ts";
import { fedBody } from "./fixtures/fed-body.ts";

// Issue 28 item 12: an abort is final. After `stream.controller.abort()`, `abort()` or the
// caller's signal, an iterator hands out nothing more, whatever has already arrived, and throws
// APIUserAbortError. Every body here holds the whole reply before the abort.

const USER = [{ role: "user" as const, content: "Hi" }];
/** Twenty chunks and [DONE], in one network read. */
const WHOLE_REPLY = Array.from({ length: 19 }, (_, n) => contentEvent(`w${n} `)).join("") + contentEvent("end", "stop") + DONE;
const sse = (body: BodyInit) => new Response(body, { headers: { "content-type": "text/event-stream" } });

describe("over a loopback socket, against the mock gateway", () => {
  const gateway = createMockGateway({ reply: Array.from({ length: 20 }, (_, n) => `w${n}`).join(" ") });
  let server: NodeServer;
  /** Resolves once the mock has written the whole reply to the socket. */
  let written: Promise<void>;
  beforeAll(async () => {
    server = await serveNode(async (request) => {
      const response = await gateway(request);
      let sent!: () => void;
      written = new Promise((resolve) => (sent = resolve));
      return new Response(response.body!.pipeThrough(new TransformStream({ flush: () => sent() })), response);
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("stream.controller.abort() inside for await, once the rest of the reply was sent, hands out no further chunk", async () => {
    const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: server.url, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "auto", messages: USER, stream: true });
    let seen = 0;
    const error = await (async () => {
      for await (const _ of stream) {
        seen++;
        await written;
        stream.controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(seen).toBe(1);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });
});

describe("the runner's stream (runTools({ stream: true }))", () => {
  const lookUp = tool({ name: "look_up", parameters: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }), run: () => "found" });
  const clientAnswering = (answer: () => Response) => {
    const sent = { requests: 0 };
    const client = new ModelGate({ apiKey: "mg-test-key-0123456789", baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => (sent.requests++, answer()) });
    return { client, sent };
  };
  const chunkTexts = (events: ToolRunEvent[]) => events.flatMap((event) => (event.type === "chunk" ? [event.chunk.choices[0]?.delta.content] : []));

  it.each(["abort()", "controller.abort()", "the caller's signal"] as const)("hands out no further event after %s, and throws APIUserAbortError", async (how) => {
    const { client } = clientAnswering(() => sse(WHOLE_REPLY));
    const caller = new AbortController();
    const run = client.chat.completions.runTools({ model: "m", messages: USER, tools: [lookUp], stream: true }, { signal: caller.signal });
    const events: ToolRunEvent[] = [];
    const error = await (async () => {
      for await (const event of run) {
        events.push(event);
        if (event.type !== "chunk") continue;
        if (how === "abort()") run.abort();
        else if (how === "controller.abort()") run.controller.abort();
        else caller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(chunkTexts(events)).toEqual(["w0 "]);
    expect(events.at(-1)?.type).toBe("chunk");
    expect(error).toBeInstanceOf(APIUserAbortError);
    await expect(run).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("stops the run on break out of for await: the body is cancelled and nothing more is sent", async () => {
    const body = fedBody();
    const { client, sent } = clientAnswering(() => sse(body.body));
    const run = client.chat.completions.runTools({ model: "m", messages: USER, tools: [lookUp], stream: true });
    const result = run.then(
      () => "resolved",
      (error: unknown) => error,
    );
    body.send(contentEvent("first "));
    for await (const event of run) if (event.type === "chunk") break;
    expect(await result).toBeInstanceOf(APIUserAbortError);
    expect(run.aborted).toBe(true);
    expect(body.cancelled, "the step's body was cancelled").toBe(true);
    expect(sent.requests).toBe(1);
  });

  it("a loop that ends with the run (no break) leaves it whole", async () => {
    const { client } = clientAnswering(() => sse(WHOLE_REPLY));
    const run = client.chat.completions.runTools({ model: "m", messages: USER, tools: [lookUp], stream: true });
    const events: ToolRunEvent[] = [];
    for await (const event of run) events.push(event);
    expect(chunkTexts(events)).toHaveLength(20);
    expect((await run).stopReason).toBe("done");
  });
});

describe("the stream() helper, iterated", () => {
  it("hands out no further chunk after abort(), though the rest had arrived, and throws APIUserAbortError", async () => {
    const client = new ModelGate({ apiKey: "mg-test-key-0123456789", baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => sse(WHOLE_REPLY) });
    const helper = client.chat.completions.stream({ model: "m", messages: USER });
    const texts: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of helper) {
        texts.push(chunk.choices[0]?.delta.content);
        helper.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(texts).toEqual(["w0 "]);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });
});
