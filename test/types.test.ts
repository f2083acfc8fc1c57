import { describe, expectTypeOf, it } from "vitest";
import {
  ModelGate,
  type APIPromise,
  type ChatCompletion,
  type ChatCompletionChunk,
  type Stream,
} from "../src/index.ts";

// These assertions are checked by `tsc --noEmit` (part of `npm test`); the calls are never
// executed, so no request is made.
declare const client: ModelGate;
declare const maybeStream: boolean;

describe("create() overloads", () => {
  it("types a plain call as a ChatCompletion and a stream: true call as a Stream of chunks", () => {
    const typeOnly = () => {
      const plain = client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] });
      expectTypeOf(plain).toEqualTypeOf<APIPromise<ChatCompletion>>();
      const streamed = client.chat.completions.create({ model: "auto", messages: [], stream: true });
      expectTypeOf(streamed).toEqualTypeOf<APIPromise<Stream<ChatCompletionChunk>>>();
      const explicitFalse = client.chat.completions.create({ model: "auto", messages: [], stream: false });
      expectTypeOf(explicitFalse).toEqualTypeOf<APIPromise<ChatCompletion>>();
      const either = client.chat.completions.create({ model: "auto", messages: [], stream: maybeStream });
      expectTypeOf(either).toEqualTypeOf<APIPromise<Stream<ChatCompletionChunk> | ChatCompletion>>();
    };
    void typeOnly;
  });

  it("rejects a wrong role and a missing model at compile time", () => {
    const typeOnly = () => {
      // @ts-expect-error "bot" is not a role
      client.chat.completions.create({ model: "auto", messages: [{ role: "bot", content: "hi" }] });
      // @ts-expect-error model is required
      client.chat.completions.create({ messages: [{ role: "user", content: "hi" }] });
    };
    void typeOnly;
  });

  it("types stream helpers on chunk streams", () => {
    const typeOnly = async (stream: Stream<ChatCompletionChunk>) => {
      expectTypeOf(await stream.text()).toEqualTypeOf<string>();
      expectTypeOf(await stream.finalChatCompletion()).toEqualTypeOf<ChatCompletion>();
      for await (const chunk of stream) expectTypeOf(chunk.choices[0]!.delta.content).toEqualTypeOf<string | null | undefined>();
    };
    void typeOnly;
  });
});
