import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ChatCompletionStream, ModelGate, tool } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGateway } from "../src/testing/index.ts";
import { eventually } from "./fixtures/mock-stream.ts";

// What chat.completions.stream() and runTools() return are ordinary classes: their methods are
// on their prototypes before and after the code loaded on demand arrives, `instanceof` is the
// language's own, and `ended`, `errored` and `aborted` say how the helper went, as openai's do.

const model = "openai/gpt-4.1-mini";
const messages = [{ role: "user" as const, content: "Tell me about rivers" }];
const getWeather = tool({ name: "get_weather", parameters: z.object({ city: z.string() }), run: () => "sunny" });

let gateway: MockGateway;
let client: ModelGate;
beforeEach(() => {
  gateway = createMockGateway();
  client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
});
afterEach(async () => {
  await eventually(() => gateway.activeStreams === 0);
  expect(gateway.activeStreams).toBe(0);
});

/** openai's client on a gateway of its own that answers as `gateway` does. */
function openaiTwin(twin: MockGateway = createMockGateway()): OpenAI {
  return new OpenAI({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test/v1", fetch: twin as never, maxRetries: 0 });
}

/** Every method and accessor name along `value`'s prototype chain (up to Object.prototype). */
function inheritedNames(value: object): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push(...Object.getOwnPropertyNames(proto).filter((name) => name !== "constructor"));
  }
  return names.sort();
}

/** What an object has of its own, and whether each of its methods is its prototype chain's. */
function shape(value: object) {
  return { own: Object.getOwnPropertyNames(value).sort(), inherited: inheritedNames(value), ownSymbols: Object.getOwnPropertySymbols(value).length };
}

type Outcome = { ended: boolean; errored: boolean; aborted: boolean };
interface HasOutcome extends Outcome {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** `ended`, `errored` and `aborted` as read at each of the last events, and at the start. */
function outcomes(helper: HasOutcome): Record<string, Outcome> {
  const read = (): Outcome => ({ ended: helper.ended, errored: helper.errored, aborted: helper.aborted });
  const seen: Record<string, Outcome> = { start: read() };
  for (const event of ["connect", "error", "abort", "end"]) helper.on(event, () => (seen[event] ??= read()));
  return seen;
}

describe("the objects stream() and runTools() return", () => {
  it("have the same properties and methods before and after their code loads, every method on the prototype", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const run = client.chat.completions.runTools({ model, messages, tools: [getWeather] });
    const before = [shape(stream), shape(run)];
    await Promise.all([stream.done(), run]);
    expect([shape(stream), shape(run)]).toEqual(before);
    expect(before[0]!.own).toEqual(["controller", "messages"]);
    expect(before[1]!.own).toEqual(["controller", "messages"]);
    expect(before[0]!.ownSymbols).toBe(0);
    for (const name of ["on", "off", "once", "emitted", "done", "abort", "finalChatCompletion", "finalContent", "finalMessage", "totalUsage", "allChatCompletions", "toReadableStream", "ended", "errored", "aborted", "response", "requestID", "gateway"]) {
      expect(before[0]!.inherited, `ChatCompletionStream.${name}`).toContain(name);
    }
    for (const name of ["on", "done", "then", "catch", "finally", "finalFunctionToolCall", "finalFunctionToolCallResult", "ended", "errored", "aborted"]) {
      expect(before[1]!.inherited, `the runner's ${name}`).toContain(name);
    }
  });

  it("are instances of their classes by their prototypes: a ChatCompletionStream from stream() and fromReadableStream(), openai's runner name for runTools()", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const copy = ChatCompletionStream.fromReadableStream(stream.toReadableStream());
    const run = client.chat.completions.runTools({ model, messages, tools: [getWeather] });
    expect(Object.getPrototypeOf(stream)).toBe(ChatCompletionStream.prototype);
    expect(Object.getPrototypeOf(copy)).toBe(ChatCompletionStream.prototype);
    expect(Object.hasOwn(ChatCompletionStream, Symbol.hasInstance)).toBe(false);
    expect(run).not.toBeInstanceOf(ChatCompletionStream);
    expect(run.constructor.name).toBe("ChatCompletionRunner");
    expect(Object.getPrototypeOf(Object.getPrototypeOf(run))).toBe(Object.getPrototypeOf(ChatCompletionStream.prototype));
    await Promise.all([copy.done(), run]);
  });
});

describe("ended, errored and aborted, as openai's helpers have them", () => {
  it("after a success: ended only, true from the end event on", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const theirs = openaiTwin().chat.completions.stream({ model, messages });
    const [ours, openai] = [outcomes(stream), outcomes(theirs as never)];
    await Promise.all([stream.done(), theirs.done()]);
    expect(ours).toEqual(openai);
    expect(ours).toEqual({
      start: { ended: false, errored: false, aborted: false },
      connect: { ended: false, errored: false, aborted: false },
      end: { ended: true, errored: false, aborted: false },
    });
    expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, false, false]);
  });

  it("after an abort: errored and aborted, already in the abort event's listeners", async () => {
    const stream = client.chat.completions.stream({ model, messages });
    const theirs = openaiTwin().chat.completions.stream({ model, messages });
    const [ours, openai] = [outcomes(stream), outcomes(theirs as never)];
    stream.once("content", () => stream.abort());
    theirs.once("content", () => theirs.abort());
    await Promise.all([stream.done().catch(() => {}), theirs.done().catch(() => {})]);
    expect(ours).toEqual(openai);
    expect(ours.abort).toEqual({ ended: false, errored: true, aborted: true });
    expect(ours.end).toEqual({ ended: true, errored: true, aborted: true });
  });

  it("after an error: errored, not aborted", async () => {
    const twin = createMockGateway();
    gateway.inject({ type: "cut", afterChunks: 2 });
    twin.inject({ type: "cut", afterChunks: 2 });
    const stream = client.chat.completions.stream({ model, messages });
    const theirs = openaiTwin(twin).chat.completions.stream({ model, messages });
    const [ours, openai] = [outcomes(stream), outcomes(theirs as never)];
    await Promise.all([stream.done().catch(() => {}), theirs.done().catch(() => {})]);
    expect(ours.error).toEqual({ ended: false, errored: true, aborted: false });
    expect(ours.end).toEqual({ ended: true, errored: true, aborted: false });
    expect(ours.error).toEqual(openai.error);
    expect(ours.end).toEqual(openai.end);
  });

  it("a runTools() run has them too: after its end, and after an abort", async () => {
    const run = client.chat.completions.runTools({ model, messages, tools: [getWeather] });
    const seen = outcomes(run as never);
    await run;
    expect(seen.end).toEqual({ ended: true, errored: false, aborted: false });

    const aborted = client.chat.completions.runTools({ model, messages, tools: [getWeather] });
    const abortedSeen = outcomes(aborted as never);
    aborted.once("connect", () => aborted.abort());
    await aborted.catch(() => {});
    expect(abortedSeen.abort).toEqual({ ended: false, errored: true, aborted: true });
    expect([aborted.ended, aborted.errored, aborted.aborted]).toEqual([true, true, true]);
  });
});
