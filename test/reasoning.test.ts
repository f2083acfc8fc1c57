import { describe, expect, it } from "vitest";
import { ModelGate, type ChatCompletionChunkDelta, type ChatCompletionCreateParamsNonStreaming } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGatewayOptions } from "../src/testing/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { recordingClient, requestRecordingClient } from "./fixtures/client.ts";

// A reasoning model's thinking (API.md, "Beyond text"): `message.reasoning` /
// `delta.reasoning`, a provider's `reasoning_content` read as the same (where both come,
// `reasoning` wins), `stream.reasoningStream`, finalChatCompletion() joining it, and the
// reasoning params sent as the caller wrote them.

const ask: ChatCompletionCreateParamsNonStreaming = { model: "deepseek/deepseek-r1", messages: [{ role: "user", content: "Why is the sky blue?" }] };


/** A non-streamed answer whose message has `fields` besides its content. */
function messageWith(fields: Record<string, unknown>) {
  const body = completionBody("Rayleigh scattering.");
  Object.assign(body.choices[0]!.message, fields);
  return () => Response.json(body);
}

/** A streamed answer of one chunk per delta (the wire spelling, `reasoning_content` included), then stop and [DONE]. */
function streamOf(deltas: Record<string, unknown>[]) {
  return () => sseResponse([...deltas.map((delta) => sseData(chunk(delta as ChatCompletionChunkDelta))), sseData(chunk({}, { finish: "stop" })), DONE]);
}

const thinking = [{ reasoning_content: "Short " }, { reasoning_content: "waves scatter more." }, { content: "Rayleigh " }, { content: "scattering." }];

function mocked(options: MockGatewayOptions = {}) {
  return new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: createMockGateway(options) });
}

describe("reasoning in a non-streamed message", () => {
  it("reads a provider's reasoning_content as message.reasoning", async () => {
    const { client } = recordingClient(messageWith({ reasoning_content: "Short waves scatter more." }));
    const { message } = (await client.chat.completions.create(ask)).choices[0]!;
    expect(message.reasoning).toBe("Short waves scatter more.");
    expect(message.content).toBe("Rayleigh scattering.");
  });

  it("keeps reasoning when both reasoning and reasoning_content are sent", async () => {
    const { client } = recordingClient(messageWith({ reasoning: "the gateway's", reasoning_content: "the provider's" }));
    expect((await client.chat.completions.create(ask)).choices[0]!.message.reasoning).toBe("the gateway's");
  });

  it("reads reasoning_content when reasoning is null", async () => {
    const { client } = recordingClient(messageWith({ reasoning: null, reasoning_content: "the provider's" }));
    expect((await client.chat.completions.create(ask)).choices[0]!.message.reasoning).toBe("the provider's");
  });

  it("leaves the raw response of withResponse() as the server sent it", async () => {
    const { client } = recordingClient(messageWith({ reasoning_content: "Short waves scatter more." }));
    const { data, response } = await client.chat.completions.create(ask).withResponse();
    expect(data.choices[0]!.message.reasoning).toBe("Short waves scatter more.");
    const raw = (await response.json()) as { choices: { message: Record<string, unknown> }[] };
    expect(raw.choices[0]!.message).not.toHaveProperty("reasoning");
    expect(raw.choices[0]!.message.reasoning_content).toBe("Short waves scatter more.");
  });

  it("leaves a message without reasoning without it", async () => {
    const { client } = recordingClient(messageWith({}));
    expect((await client.chat.completions.create(ask)).choices[0]!.message).not.toHaveProperty("reasoning");
  });

  it("reads reasoning_content as reasoning in a chat answer, and gives client.post() the wire body as sent", async () => {
    const answer = { ...completionBody("Hi"), gateway: "theirs" };
    answer.choices[0]!.message = { role: "assistant", content: "Hi", reasoning_content: "because" } as never;
    const { client } = requestRecordingClient(() => Response.json(answer));
    const completion = await client.chat.completions.create({ model: "m", messages: [] });
    expect((completion.choices[0]!.message as { reasoning?: string }).reasoning).toBe("because");
    // The body's own `gateway` field gives way to the SDK's, which is not enumerable.
    const { gateway: _theirs, ...wire } = answer;
    expect(JSON.parse(JSON.stringify(completion)), "the alias is not part of the wire body").toEqual(wire);
    // The generic helpers are chat's raw form: the pipeline knows nothing about chat answers.
    const raw = await client.post<typeof answer>("/v1/chat/completions", { body: { messages: [] } });
    expect(raw.choices[0]!.message).toEqual({ role: "assistant", content: "Hi", reasoning_content: "because" });
  });
});

describe("streamed reasoning", () => {
  it("reads delta.reasoning_content as delta.reasoning in every chunk", async () => {
    const { client } = recordingClient(streamOf(thinking));
    const reasoning: (string | null | undefined)[] = [];
    for await (const each of await client.chat.completions.create({ ...ask, stream: true })) reasoning.push(each.choices[0]?.delta.reasoning);
    expect(reasoning).toEqual(["Short ", "waves scatter more.", undefined, undefined, undefined]);
  });

  it("adds the reasoning alias of a delta as a non-enumerable property, so JSON.stringify of each chunk is the wire chunk", async () => {
    const { client } = recordingClient(streamOf(thinking));
    const wire = [...thinking.map((delta) => chunk(delta as ChatCompletionChunkDelta)), chunk({}, { finish: "stop" })].map((each) => JSON.stringify(each));
    const written: string[] = [];
    const reasoning: string[] = [];
    for await (const each of await client.chat.completions.create({ ...ask, stream: true })) {
      written.push(JSON.stringify(each));
      const delta = each.choices[0]!.delta;
      if (typeof delta.reasoning === "string") reasoning.push(delta.reasoning);
      expect(Object.keys(delta)).not.toContain("reasoning");
    }
    expect(reasoning).toEqual(["Short ", "waves scatter more."]);
    expect(written).toEqual(wire);
  });

  it("keeps delta.reasoning when a chunk carries both spellings", async () => {
    const { client } = recordingClient(streamOf([{ reasoning: "gateway ", reasoning_content: "provider " }, { reasoning_content: "and more" }]));
    const completion = await (await client.chat.completions.create({ ...ask, stream: true })).finalChatCompletion();
    expect(completion.choices[0]!.message.reasoning).toBe("gateway and more");
  });

  it("finalChatCompletion() joins the reasoning in order, apart from the content", async () => {
    const { client } = recordingClient(streamOf(thinking));
    const { message } = (await (await client.chat.completions.create({ ...ask, stream: true })).finalChatCompletion()).choices[0]!;
    expect(message).toEqual({ role: "assistant", content: "Rayleigh scattering.", reasoning: "Short waves scatter more." });
  });

  it("reasoningStream yields the reasoning pieces of the first choice, and textStream the content, read through tee()", async () => {
    const deltas = [...thinking.slice(0, 2), { reasoning: "" }, { content: "Rayleigh scattering." }];
    const { client } = recordingClient(() =>
      sseResponse([...deltas.map((delta) => sseData(chunk(delta as ChatCompletionChunkDelta))), sseData(chunk({ reasoning: "other choice" }, { index: 1 })), sseData(chunk({}, { finish: "stop" })), sseData(chunk({}, { index: 1, finish: "stop" })), DONE]),
    );
    const [forReasoning, forText] = (await client.chat.completions.create({ ...ask, stream: true })).tee();
    const reasoning: string[] = [];
    const text: string[] = [];
    await Promise.all([
      (async () => {
        for await (const piece of forReasoning.reasoningStream) reasoning.push(piece);
      })(),
      (async () => {
        for await (const piece of forText.textStream) text.push(piece);
      })(),
    ]);
    expect(reasoning).toEqual(["Short ", "waves scatter more."]);
    expect(text).toEqual(["Rayleigh scattering."]);
  });

  it("reasoningStream yields nothing for a reply without reasoning", async () => {
    const { client } = recordingClient(streamOf([{ content: "Hi" }]));
    const pieces: string[] = [];
    for await (const piece of (await client.chat.completions.create({ ...ask, stream: true })).reasoningStream) pieces.push(piece);
    expect(pieces).toEqual([]);
  });

  it("reasoningStream reads the stream, so reading it again after throws", async () => {
    const { client } = recordingClient(streamOf(thinking));
    const stream = await client.chat.completions.create({ ...ask, stream: true });
    for await (const _ of stream.reasoningStream);
    await expect(stream.finalChatCompletion()).rejects.toThrow(/already been consumed/);
  });
});

// Mistral's reasoning models (Magistral) send `content` as a list of parts: a `thinking`
// part holding `text` parts, then the answer's `text` part; later chunks send plain strings.
// The chunk shape is the one braintrust-proxy's packages/proxy/src/providers/mistral.test.ts
// records (model "magistral-medium-latest"); the whole message's, langchain4j's
// MistralAiChatModelReturnThinkingTest.
describe("content sent as a list of parts", () => {
  const thinkingPart = { type: "thinking", thinking: [{ type: "text", text: "17×23 = 17×20 + 17×3" }, { type: "text", text: " = 340 + 51." }] };
  const magistral = [{ role: "assistant", content: [thinkingPart, { type: "text", text: "3" }] }, { content: "9" }, { content: "1" }];

  it("reads a streamed list as the text of its text parts and the thinking as reasoning, losing no character", async () => {
    const { client } = recordingClient(streamOf(magistral));
    const [text, final] = (await client.chat.completions.create({ ...ask, stream: true })).tee();
    expect(await text.text()).toBe("391");
    const { message } = (await final.finalChatCompletion()).choices[0]!;
    expect(message.content).toBe("391");
    expect(message.reasoning).toBe("17×23 = 17×20 + 17×3 = 340 + 51.");
    expect(message.content_parts).toEqual([thinkingPart, { type: "text", text: "3" }]);
  });

  it("keeps the list as the non-enumerable content_parts of each delta, other part types included", async () => {
    const image = { type: "image_url", image_url: { url: "https://example.com/a.png" } };
    const { client } = recordingClient(streamOf([{ content: [thinkingPart, image, { type: "text", text: "3" }] }]));
    const chunks = [];
    for await (const piece of await client.chat.completions.create({ ...ask, stream: true })) chunks.push(piece);
    const delta = chunks[0]!.choices[0]!.delta;
    expect(delta.content).toBe("3");
    expect(delta.reasoning).toBe("17×23 = 17×20 + 17×3 = 340 + 51.");
    expect(delta.content_parts).toEqual([thinkingPart, image, { type: "text", text: "3" }]);
    expect(Object.keys(delta)).toEqual(["content"]);
  });

  it("reads a non-streamed message's list the same way, a thinking string and reasoning_content included", async () => {
    const parts = [{ type: "thinking", thinking: "Add the partial products." }, { type: "text", text: "39" }, { type: "text", text: "1" }];
    const { client } = recordingClient(messageWith({ content: parts }));
    const { message } = (await client.chat.completions.create(ask)).choices[0]!;
    expect(message.content).toBe("391");
    expect(message.reasoning).toBe("Add the partial products.");
    expect(message.content_parts).toEqual(parts);
    const both = recordingClient(messageWith({ content: parts, reasoning_content: "the provider's own" }));
    expect((await both.client.chat.completions.create(ask)).choices[0]!.message.reasoning).toBe("the provider's own");
  });
});

describe("reasoning params", () => {
  it("sends reasoning_effort and reasoning: { effort, max_tokens, exclude } as given", async () => {
    const { client, sent } = recordingClient(messageWith({}));
    await client.chat.completions.create({ ...ask, reasoning_effort: "high" });
    await client.chat.completions.create({ ...ask, reasoning: { effort: "low", max_tokens: 2_000, exclude: true } });
    await client.chat.completions.create({ ...ask, reasoning: { max_tokens: 512 }, stream: true }).catch(() => {});
    expect(sent.map(({ reasoning_effort, reasoning }) => ({ reasoning_effort, reasoning }))).toEqual([
      { reasoning_effort: "high", reasoning: undefined },
      { reasoning_effort: undefined, reasoning: { effort: "low", max_tokens: 2_000, exclude: true } },
      { reasoning_effort: undefined, reasoning: { max_tokens: 512 } },
    ]);
  });

  it("types the efforts", () => {
    const check = (client: ModelGate) => {
      // @ts-expect-error "extreme" is not an effort
      void client.chat.completions.create({ ...ask, reasoning: { effort: "extreme" } });
      // @ts-expect-error max_tokens is a number
      void client.chat.completions.create({ ...ask, reasoning: { max_tokens: "many" } });
    };
    expect(check).toBeTypeOf("function");
  });
});

describe("reasoning from the mock gateway", () => {
  it.each(["reasoning", "reasoning_content"] as const)("gives message.reasoning, streamed or not, when the provider writes %s", async (reasoningField) => {
    const client = mocked({ reasoningField });
    const whole = (await client.chat.completions.create(ask)).choices[0]!.message;
    expect(whole.reasoning).toMatch(/^The question is "Why is the sky blue\?"\./);
    const [forPieces, forCompletion] = (await client.chat.completions.create({ ...ask, stream: true })).tee();
    const pieces: string[] = [];
    const [assembled] = await Promise.all([
      forCompletion.finalChatCompletion(),
      (async () => {
        for await (const piece of forPieces.reasoningStream) pieces.push(piece);
      })(),
    ]);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join("")).toBe(whole.reasoning);
    expect(assembled.choices[0]!.message.reasoning).toBe(whole.reasoning);
    expect(assembled.choices[0]!.message.content).toBe(whole.content);
  });

  it("thinks longer at a higher effort, within reasoning.max_tokens, and shows nothing with exclude", async () => {
    const client = mocked();
    const reasoningOf = async (extra: Partial<ChatCompletionCreateParamsNonStreaming>) => (await client.chat.completions.create({ ...ask, ...extra })).choices[0]!.message.reasoning;
    const low = (await reasoningOf({ reasoning_effort: "low" }))!;
    const high = (await reasoningOf({ reasoning: { effort: "high" } }))!;
    expect(high.length).toBeGreaterThan(low.length);
    expect((await reasoningOf({ reasoning: { max_tokens: 3 } }))?.split(" ")).toHaveLength(3);
    expect(await reasoningOf({ reasoning: { exclude: true } })).toBeUndefined();
  });
});
