import { describe, expect, it } from "vitest";
import { jsonSchema } from "../../src/index.ts";
import { providerCase } from "./corpus.ts";
import { printedText, QUESTION, useReplay } from "../fixtures/provider-replay.ts";

// OpenAI itself: a structured-output stream ending with a usage chunk whose `choices` is empty,
// and a streamed refusal with logprobs. Recordings: openai-node's ChatCompletionStream snapshots.

const replay = useReplay();
const structured = providerCase("openai/structured-stream");
const refusal = providerCase("openai/refusal-stream");

interface Weather {
  city: string;
  units: "c" | "f";
}
const WEATHER = jsonSchema<Weather>(structured.schema!, { name: "weather" });
const REFUSAL = "I'm sorry, but I can't assist with that request.";

const streamed = () => replay.client().chat.completions.create({ model: "auto", messages: QUESTION, stream: true });

describe("OpenAI: a structured answer, streamed", () => {
  it("prints the JSON text through the README's loop, the usage chunk without choices included", async () => {
    replay.serve(structured.answer);
    expect(await printedText(await streamed())).toBe('{"city":"San Francisco","units":"f"}');
  });

  it("finalChatCompletion() takes the usage from the chunk with empty choices", async () => {
    replay.serve(structured.answer);
    const completion = await (await streamed()).finalChatCompletion();
    expect(completion).toMatchObject({ id: "chatcmpl-9rnyXoOvZN6Ec33DKStiqSdEB76Ba", model: "gpt-4o-so", system_fingerprint: "fp_6dc10860e8", usage: { prompt_tokens: 71, completion_tokens: 10, total_tokens: 81 } });
    expect(completion.choices).toHaveLength(1);
  });

  // How many partials there are depends on how the bytes were read (API.md lets changes that
  // arrived together merge); the last one is fixed.
  it("parse({ stream: true }) ends its partial objects with the whole value, validated at the end", async () => {
    replay.serve(structured.answer);
    const stream = await replay.client().chat.completions.parse({ model: "auto", messages: QUESTION, response_format: WEATHER, stream: true });
    const partials = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect(partials.at(-1)).toEqual({ city: "San Francisco", units: "f" });
    expect((await stream.finalChatCompletion()).choices[0]!.message.parsed).toEqual({ city: "San Francisco", units: "f" });
  });

  it("chat.completions.stream() with the schema emits content.done with the parsed value", async () => {
    replay.serve(structured.answer);
    const done: unknown[] = [];
    const helper = replay.client().chat.completions.stream({ model: "auto", messages: QUESTION, response_format: WEATHER }).on("content.done", ({ parsed }) => done.push(parsed));
    expect((await helper.finalMessage()).parsed).toEqual({ city: "San Francisco", units: "f" });
    expect(done).toEqual([{ city: "San Francisco", units: "f" }]);
  });
});

describe("OpenAI: a refusal, streamed", () => {
  it("prints nothing: a refusal is not content", async () => {
    replay.serve(refusal.answer);
    expect(await printedText(await streamed())).toBe("");
  });

  it("finalChatCompletion() has the refusal, content null, and the refusal's logprobs joined", async () => {
    replay.serve(refusal.answer);
    const choice = (await (await streamed()).finalChatCompletion()).choices[0]!;
    expect(choice.message).toMatchObject({ content: null, refusal: REFUSAL });
    expect(choice.logprobs?.refusal?.map((token) => token.token).join("")).toBe(REFUSAL);
    expect(choice.logprobs?.content).toBeNull();
  });

  it("parse({ stream: true }) ends with parsed null and the refusal", async () => {
    replay.serve(refusal.answer);
    const stream = await replay.client().chat.completions.parse({ model: "auto", messages: QUESTION, response_format: WEATHER, stream: true });
    const message = (await stream.finalChatCompletion()).choices[0]!.message;
    expect(message.parsed).toBeNull();
    expect(message.refusal).toBe(REFUSAL);
  });

  it("chat.completions.stream() emits refusal.done and no content.done", async () => {
    replay.serve(refusal.answer);
    const events: string[] = [];
    const helper = replay
      .client()
      .chat.completions.stream({ model: "auto", messages: QUESTION, response_format: WEATHER })
      .on("refusal.done", ({ refusal: text }) => events.push(`refusal: ${text}`))
      .on("content.done", () => events.push("content"));
    await helper.done();
    expect(events).toEqual([`refusal: ${REFUSAL}`]);
  });
});
