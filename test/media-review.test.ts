import { describe, expect, it } from "vitest";
import { ModelGate, ModelGateError, decodeDataURL } from "../src/index.ts";
import { completionBody } from "./fixtures/chunks.ts";

// The defects a hostile review of the beyond-text features reproduced, one test each.

function clientWith(respond: (request: { url: string; body: unknown; headers: Headers }) => Response) {
  const sent: { url: string; body: unknown; headers: Headers }[] = [];
  const client = new ModelGate({
    apiKey: "sk-media-review-0123456789",
    baseURL: "https://gateway.test",
    maxRetries: 0,
    fetch: async (url, init) => {
      const request = { url: String(url), body: init?.body, headers: new Headers(init?.headers) };
      sent.push(request);
      return respond(request);
    },
  });
  return { client, sent };
}
const wav = () => new Response(new Uint8Array([82, 73, 70, 70]), { headers: { "content-type": "audio/wav" } });

describe("beyond text: edges found by review", () => {
  it("rejects bad options and headers of speech and text transcriptions with a ModelGateError naming them", async () => {
    const { client, sent } = clientWith(wav);
    for (const options of ["oops", null, 42, { headers: 5 }, { headers: "x" }]) {
      const error = await client.audio.speech.create({ model: "s", input: "hi", voice: "alloy" }, options as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/^`(options|headers)` must be/);
    }
    const text = await client.audio.transcriptions.create({ model: "t", file: new Blob([new Uint8Array(4)]), response_format: "text" }, "oops" as never).catch((caught: unknown) => caught);
    expect((text as Error).message).toMatch(/^`options` must be/);
    expect(sent).toHaveLength(0);
  });

  it("checks that embeddings come one per input, at their indexes, and sorts them; a sparse input is refused", async () => {
    const vector = (index: number) => ({ object: "embedding", index, embedding: [index, 1] });
    const twice = clientWith(() => Response.json({ object: "list", data: [vector(0), vector(0)], model: "e", usage: { prompt_tokens: 1, total_tokens: 1 } }));
    await expect(twice.client.embeddings.create({ model: "e", input: ["a", "b"] })).rejects.toThrow(/indexes are 0, 0/);
    const reversed = clientWith(() => Response.json({ object: "list", data: [vector(1), vector(0)], model: "e", usage: { prompt_tokens: 1, total_tokens: 1 } }));
    const sorted = await reversed.client.embeddings.create({ model: "e", input: ["a", "b"] });
    expect(sorted.data.map((entry) => entry.index)).toEqual([0, 1]);
    // eslint-disable-next-line no-sparse-arrays
    await expect(reversed.client.embeddings.create({ model: "e", input: ["a", , "b"] as string[] })).rejects.toThrow(/^`input` must be/);
  });

  it("reads reasoning_content as reasoning in a chat answer with a gateway field, and gives client.post() the wire body as sent", async () => {
    const answer = { ...completionBody("Hi"), gateway: "theirs" };
    answer.choices[0]!.message = { role: "assistant", content: "Hi", reasoning_content: "because" } as never;
    const { client } = clientWith(() => Response.json(answer));
    const completion = await client.chat.completions.create({ model: "m", messages: [] });
    expect((completion.choices[0]!.message as { reasoning?: string }).reasoning).toBe("because");
    expect(JSON.parse(JSON.stringify(completion)), "the alias is not part of the wire body").toEqual(answer);
    // The generic helpers are chat's raw form: the pipeline knows nothing about chat answers.
    const raw = await client.post<typeof answer>("/v1/chat/completions", { body: { messages: [] } });
    expect(raw.choices[0]!.message).toEqual({ role: "assistant", content: "Hi", reasoning_content: "because" });
  });

  it("reads data: URLs as a URL parser does: no fragment, no surrounding spaces, no tabs or line breaks", () => {
    const text = (url: string) => new TextDecoder().decode(decodeDataURL(url).bytes);
    expect(text("data:text/plain,hello#frag")).toBe("hello");
    expect(text("data:;base64,aGk=#frag")).toBe("hi");
    expect(text(" data:,lead ")).toBe("lead");
    expect(text("data:,a\tb\nc")).toBe("abc");
  });

  it("names an uploaded Blob by its type, and sends a list as repeated name[] fields", async () => {
    const { client, sent } = clientWith(() => Response.json({ text: "ok" }));
    await client.audio.transcriptions.create({ model: "t", file: new Blob([new Uint8Array(4)], { type: "audio/wav" }), timestamp_granularities: ["word", "segment"] } as never);
    const form = sent[0]!.body as FormData;
    expect((form.get("file") as File).name).toBe("audio.wav");
    expect(form.getAll("timestamp_granularities[]")).toEqual(["word", "segment"]);
  });
});
