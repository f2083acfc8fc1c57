// Compile-time assertions about the public types, checked by `tsc --noEmit` (the first step of
// `npm test`); vitest does not collect this file (`*.test-d.ts` is outside its `*.test.ts`
// include), so nothing here runs and nothing here counts as a run-time test. A wrong assertion
// fails the type check with the line that broke.
import { expectTypeOf } from "vitest";
import {
  ModelGate,
  type APIPromise,
  type ChatCompletion,
  type ChatCompletionChunk,
  type Stream,
} from "../src/index.ts";

declare const client: ModelGate;
declare const maybeStream: boolean;
declare const stream: Stream<ChatCompletionChunk>;

// create() resolves to a ChatCompletion without `stream: true`, to a Stream of chunks with it.
expectTypeOf(client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] })).toEqualTypeOf<
  APIPromise<ChatCompletion>
>();
expectTypeOf(client.chat.completions.create({ model: "auto", messages: [], stream: true })).toEqualTypeOf<
  APIPromise<Stream<ChatCompletionChunk>>
>();
expectTypeOf(client.chat.completions.create({ model: "auto", messages: [], stream: false })).toEqualTypeOf<
  APIPromise<ChatCompletion>
>();
// A `stream` only known at run time gives the union, so the caller has to narrow it.
expectTypeOf(client.chat.completions.create({ model: "auto", messages: [], stream: maybeStream })).toEqualTypeOf<
  APIPromise<Stream<ChatCompletionChunk> | ChatCompletion>
>();

// A wrong role and a missing model do not compile. (Each `@ts-expect-error` fails the type
// check if the line below it stops being an error.)
// @ts-expect-error "bot" is not a role
void client.chat.completions.create({ model: "auto", messages: [{ role: "bot", content: "hi" }] });
// @ts-expect-error model is required
void client.chat.completions.create({ messages: [{ role: "user", content: "hi" }] });

// The helpers of a chunk stream are typed by what they assemble.
expectTypeOf(stream.text()).toEqualTypeOf<Promise<string>>();
expectTypeOf(stream.finalChatCompletion()).toEqualTypeOf<Promise<ChatCompletion>>();
for await (const chunk of stream) {
  expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
  expectTypeOf(chunk.choices[0]!.delta.content).toEqualTypeOf<string | null | undefined>();
}
