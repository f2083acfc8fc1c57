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

// ---- Structured outputs: `parsed` is typed by the schema, whatever library made it. ----
import { z } from "zod";
import * as valibot from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type as arkType } from "arktype";
import { jsonSchema, tool, type DeepPartial, type ParsedChatCompletion, type ParsedToolCall, type StructuredStream } from "../src/index.ts";

const WeatherSchema = z.object({ city: z.string(), celsius: z.number() });
type Weather = { city: string; celsius: number };
const userMessage = [{ role: "user" as const, content: "Weather?" }];

const parsedFromZod = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: WeatherSchema });
expectTypeOf(parsedFromZod.choices[0].message.parsed).toEqualTypeOf<Weather | null>();
const parsedFromArk = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: arkType({ city: "string", celsius: "number" }) });
expectTypeOf(parsedFromArk.choices[0].message.parsed).toEqualTypeOf<Weather | null>();
const valibotWeather = toStandardJsonSchema(valibot.object({ city: valibot.string(), celsius: valibot.number() }));
const parsedFromValibot = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: valibotWeather });
expectTypeOf(parsedFromValibot.choices[0].message.parsed).toEqualTypeOf<Weather | null>();
const parsedFromJSONSchema = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: jsonSchema<Weather>({ type: "object" }) });
expectTypeOf(parsedFromJSONSchema.choices[0].message.parsed).toEqualTypeOf<Weather | null>();
// OpenAI's own form gives unchecked JSON; no response_format gives null.
const parsedRaw = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: { type: "json_schema", json_schema: { name: "w", schema: {} } } });
expectTypeOf(parsedRaw.choices[0].message.parsed).toEqualTypeOf<unknown>();
const parsedNothing = await client.chat.completions.parse({ model: "auto", messages: userMessage });
expectTypeOf(parsedNothing.choices[0].message.parsed).toEqualTypeOf<null>();
// A Valibot schema without its JSON Schema adapter cannot be sent, so it does not compile.
// @ts-expect-error no ~standard.jsonSchema
void client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: valibot.object({ city: valibot.string() }) });
// @ts-expect-error not a structured-output mode
void client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: WeatherSchema }, { structuredOutput: "xml" });

// With `stream: true`: a StructuredStream, whose partials are deep-partial and whose final completion is parsed.
const structuredStream = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: WeatherSchema, stream: true });
expectTypeOf(structuredStream).toMatchTypeOf<StructuredStream<Weather>>();
expectTypeOf(structuredStream.partialObjectStream).toEqualTypeOf<AsyncIterable<DeepPartial<Weather>>>();
expectTypeOf((await structuredStream.finalChatCompletion()).choices[0].message.parsed).toEqualTypeOf<Weather | null>();
expectTypeOf(structuredStream).toMatchTypeOf<Stream<ChatCompletionChunk>>();
// A schema without a transform gives the two-parameter StructuredStream an editor shows, exactly.
expectTypeOf(structuredStream).toEqualTypeOf<StructuredStream<Weather, import("../src/index.ts").ParsedFunctionToolCall>>();
// With a transform, the partials are of what the model writes (the schema's input), the answer of its output.
const transformed = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: z.object({ size: z.string().transform((text) => text.length) }), stream: true });
expectTypeOf(transformed.partialObjectStream).toEqualTypeOf<AsyncIterable<{ size?: string }>>();
expectTypeOf((await transformed.finalChatCompletion()).choices[0].message.parsed).toEqualTypeOf<{ size: number } | null>();
expectTypeOf(parsedFromZod).toMatchTypeOf<ChatCompletion>();
expectTypeOf(parsedFromZod).toMatchTypeOf<ParsedChatCompletion<Weather>>();

// tool(): `run` gets the schema's output; calls of the tool carry typed `parsed_arguments`, told apart by name.
const getWeather = tool({
  name: "get_weather",
  parameters: z.object({ city: z.string() }),
  run: async (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string }>();
    return { celsius: 21 };
  },
});
const getTime = tool({ name: "get_time", parameters: arkType({ zone: "string" }) });
const withTools = await client.chat.completions.parse({ model: "auto", messages: userMessage, tools: [getWeather, getTime] });
const call = withTools.choices[0].message.tool_calls![0];
if (call.function.name === "get_weather") expectTypeOf(call.function.parsed_arguments).toEqualTypeOf<{ city: string }>();
else expectTypeOf(call.function.parsed_arguments).toEqualTypeOf<{ zone: string }>();
// Each call is one named type an editor shows as such, its arguments once.
expectTypeOf(call).toEqualTypeOf<ParsedToolCall<"get_weather", { city: string }> | ParsedToolCall<"get_time", { zone: string }>>();
// A tool() definition is a tool for create() as well.
void client.chat.completions.create({ model: "auto", messages: userMessage, tools: [getWeather] });

// Objects made by openai's helpers type `parsed` and `parsed_arguments` as openai's own parse() does (or better).
import { zodFunction, zodResponseFormat } from "openai/helpers/zod";
const fromOpenAIHelpers = await client.chat.completions.parse({
  model: "auto",
  messages: userMessage,
  response_format: zodResponseFormat(WeatherSchema, "weather"),
  tools: [zodFunction({ name: "lookup", parameters: z.object({ query: z.string() }) })],
});
expectTypeOf(fromOpenAIHelpers.choices[0].message.parsed).toEqualTypeOf<Weather | null>();
expectTypeOf(fromOpenAIHelpers.choices[0].message.tool_calls![0].function.parsed_arguments).toEqualTypeOf<{ query: string }>();
const streamedFromOpenAIHelpers = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: zodResponseFormat(WeatherSchema, "weather"), stream: true });
expectTypeOf((await streamedFromOpenAIHelpers.finalChatCompletion()).choices[0].message.parsed).toEqualTypeOf<Weather | null>();

// Found by review: no tools in "tool" mode still types the calls; tuples stay tuples when partial;
// a `stream` known only at run time gives the union; the new error classes are statics.
const toolMode = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: WeatherSchema }, { structuredOutput: "tool" });
expectTypeOf(toolMode.choices[0].message.tool_calls).toEqualTypeOf<import("../src/index.ts").ParsedFunctionToolCall[] | undefined>();
expectTypeOf<DeepPartial<[string, number]>>().toEqualTypeOf<[string?, number?]>();
expectTypeOf<DeepPartial<{ list: { a: number }[] }>>().toEqualTypeOf<{ list?: { a?: number }[] }>();
const either = await client.chat.completions.parse({ model: "auto", messages: userMessage, response_format: WeatherSchema, stream: maybeStream });
expectTypeOf(either).toEqualTypeOf<ParsedChatCompletion<Weather> | StructuredStream<Weather, import("../src/index.ts").ParsedFunctionToolCall>>();
expectTypeOf(ModelGate.StructuredOutputError).toEqualTypeOf<typeof import("../src/index.ts").StructuredOutputError>();
expectTypeOf(ModelGate.BudgetExceededError).toEqualTypeOf<typeof import("../src/index.ts").BudgetExceededError>();

// runTools() takes tool() tools with `run` only: a plain wire tool or a tool without `run` does not compile.
const withoutRun = tool({ name: "no_run", parameters: z.object({ a: z.string() }) });
const plainTool = { type: "function" as const, function: { name: "plain", parameters: {} } };
// @ts-expect-error a tool() without run cannot be run
void client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [withoutRun] });
// @ts-expect-error a plain tool cannot be run
void client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [plainTool] });
const ranTools = await client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [getWeather, getTime as never] });
expectTypeOf(ranTools.stopReason).toEqualTypeOf<"done" | "max_steps" | "max_cost" | "repeated_call">();

// Beyond text: the endpoints' results follow their params, and the media fields are typed.
type Endpoints = typeof import("../src/index.ts");
declare const file: Blob;
expectTypeOf(client.embeddings.create({ model: "e", input: "a" })).toEqualTypeOf<APIPromise<import("../src/index.ts").CreateEmbeddingResponse>>();
expectTypeOf((await client.embeddings.create({ model: "e", input: ["a"], encoding_format: "base64" })).data[0]!.embedding).toEqualTypeOf<string>();
expectTypeOf((await client.embeddings.create({ model: "e", input: ["a"], encoding_format: "float" })).data[0]!.embedding).toEqualTypeOf<number[]>();
expectTypeOf(client.images.generate({ model: "i", prompt: "p" })).toEqualTypeOf<APIPromise<import("../src/index.ts").ImagesResponse>>();
expectTypeOf(client.audio.speech.create({ model: "s", input: "hi", voice: "alloy" })).toEqualTypeOf<APIPromise<Response>>();
expectTypeOf(client.audio.transcriptions.create({ model: "t", file })).toEqualTypeOf<APIPromise<import("../src/index.ts").Transcription>>();
expectTypeOf(client.audio.transcriptions.create({ model: "t", file, response_format: "verbose_json" })).toEqualTypeOf<APIPromise<import("../src/index.ts").Transcription>>();
expectTypeOf(client.audio.transcriptions.create({ model: "t", file, response_format: "srt" })).toEqualTypeOf<APIPromise<string>>();
// @ts-expect-error a file is required
void client.audio.transcriptions.create({ model: "t" });
expectTypeOf(stream.reasoningStream).toEqualTypeOf<AsyncIterable<string>>();
expectTypeOf<ChatCompletion["choices"][number]["message"]["reasoning"]>().toEqualTypeOf<string | null | undefined>();
expectTypeOf<ChatCompletion["choices"][number]["message"]["images"]>().toEqualTypeOf<import("../src/index.ts").ChatCompletionImage[] | undefined>();
expectTypeOf<ChatCompletionChunk["choices"][number]["delta"]["audio"]>().toEqualTypeOf<import("../src/index.ts").ChatCompletionAudioDelta | undefined>();
expectTypeOf<Endpoints["decodeDataURL"]>().toEqualTypeOf<(url: string) => import("../src/index.ts").DecodedDataURL>();

// The nested type paths openai's docs use name the same types as the flat ones.
expectTypeOf<ModelGate.Chat.ChatCompletionCreateParams>().toEqualTypeOf<ModelGate.ChatCompletionCreateParams>();
expectTypeOf<ModelGate.Chat.Completions.ChatCompletionMessageParam>().toEqualTypeOf<ModelGate.ChatCompletionMessageParam>();
expectTypeOf<ModelGate.Chat.Completions.ChatCompletionTool>().toEqualTypeOf<ModelGate.ChatCompletionTool>();
expectTypeOf<ModelGate.Chat.Completions.ChatCompletionChunk>().toEqualTypeOf<ModelGate.ChatCompletionChunk>();

// ---- openai's helpers: chat.completions.stream() and the runner surface of runTools(). ----

import type {
  APIUserAbortError,
  ChatCompletionMessageParam,
  ChatCompletionSnapshot,
  ChatCompletionStream,
  ChatCompletionTokenLogprob,
  CompletionUsage,
  ModelGateError,
  ParsedChatCompletionMessage,
  ToolRun,
} from "../src/index.ts";

// stream() returns the stream itself (no promise), typed by the schema; on/off/once chain.
const plainStream = client.chat.completions.stream({ model: "auto", messages: userMessage });
expectTypeOf(plainStream).toEqualTypeOf<ChatCompletionStream<null>>();
const weatherStream = client.chat.completions.stream({ model: "auto", messages: userMessage, response_format: WeatherSchema });
expectTypeOf(weatherStream).toMatchTypeOf<ChatCompletionStream<Weather>>();
expectTypeOf(weatherStream.on("content", () => {})).toEqualTypeOf(weatherStream);
expectTypeOf(plainStream.off("end", () => {}).once("connect", () => {})).toEqualTypeOf<ChatCompletionStream<null>>();
// Each event's listener gets what openai's gives.
weatherStream
  .on("content", (delta, snapshot) => expectTypeOf<[string, string]>([delta, snapshot]))
  .on("chunk", (chunk, snapshot) => {
    expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
    expectTypeOf(snapshot).toEqualTypeOf<ChatCompletionSnapshot>();
  })
  .on("content.delta", (event) => {
    expectTypeOf(event.delta).toEqualTypeOf<string>();
    expectTypeOf(event.parsed).toEqualTypeOf<DeepPartial<Weather> | null | undefined>();
  })
  .on("content.done", (event) => expectTypeOf(event.parsed).toEqualTypeOf<Weather | null>())
  .on("refusal.done", (event) => expectTypeOf(event.refusal).toEqualTypeOf<string>())
  .on("tool_calls.function.arguments.delta", (event) => expectTypeOf(event.arguments_delta).toEqualTypeOf<string>())
  .on("tool_calls.function.arguments.done", (event) => expectTypeOf(event.parsed_arguments).toEqualTypeOf<unknown>())
  .on("logprobs.content.delta", (event) => expectTypeOf(event.snapshot).toEqualTypeOf<ChatCompletionTokenLogprob[]>())
  .on("logprobs.refusal.done", (event) => expectTypeOf(event.refusal).toEqualTypeOf<ChatCompletionTokenLogprob[]>())
  .on("message", (message) => expectTypeOf(message).toEqualTypeOf<ChatCompletionMessageParam>())
  .on("chatCompletion", (completion) => expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<Weather | null>())
  .on("finalMessage", (message) => expectTypeOf(message).toMatchTypeOf<ParsedChatCompletionMessage<Weather>>())
  .on("totalUsage", (usage) => expectTypeOf(usage).toEqualTypeOf<CompletionUsage>())
  .on("error", (error) => expectTypeOf(error).toEqualTypeOf<ModelGateError>())
  .on("abort", (error) => expectTypeOf(error).toEqualTypeOf<APIUserAbortError>());
// @ts-expect-error not one of openai's events
plainStream.on("contents", () => {});
// @ts-expect-error content.delta's listener gets an event object, not a number
plainStream.on("content.delta", (event: number) => event);
// emitted() resolves with the event's first argument.
expectTypeOf(plainStream.emitted("content")).toEqualTypeOf<Promise<string>>();
expectTypeOf(plainStream.emitted("end")).toEqualTypeOf<Promise<void>>();
expectTypeOf(plainStream.emitted("error")).toEqualTypeOf<Promise<ModelGateError>>();
// The final values, parsed as parse() does; the chunks for `for await`; the bridge body.
expectTypeOf((await weatherStream.finalChatCompletion()).choices[0].message.parsed).toEqualTypeOf<Weather | null>();
expectTypeOf(weatherStream.finalContent()).toEqualTypeOf<Promise<string | null>>();
expectTypeOf(weatherStream.totalUsage()).toEqualTypeOf<Promise<CompletionUsage>>();
expectTypeOf(weatherStream.done()).toEqualTypeOf<Promise<void>>();
expectTypeOf(weatherStream.response).toEqualTypeOf<Response | undefined>();
expectTypeOf(weatherStream.controller).toEqualTypeOf<AbortController>();
expectTypeOf(weatherStream.toReadableStream()).toEqualTypeOf<ReadableStream<Uint8Array>>();
for await (const chunk of weatherStream) expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
expectTypeOf<typeof import("../src/index.ts").ChatCompletionStream.fromReadableStream>().returns.toEqualTypeOf<ChatCompletionStream<null>>();
// tool() tools type the calls of the final completion.
const toolStream = client.chat.completions.stream({ model: "auto", messages: userMessage, tools: [getWeather] });
expectTypeOf((await toolStream.finalChatCompletion()).choices[0].message.tool_calls![0]!.function.parsed_arguments).toEqualTypeOf<{ city: string }>();

// runTools(): openai's runner surface beside the result and our events.
const runner = client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [getWeather] }, { maxChatCompletions: 3 });
expectTypeOf(runner).toEqualTypeOf<ToolRun>();
expectTypeOf(runner.on("functionToolCall", (fn) => expectTypeOf(fn).toEqualTypeOf<{ name: string; arguments: string }>())).toEqualTypeOf<ToolRun>();
runner
  .on("functionToolCallResult", (content) => expectTypeOf(content).toEqualTypeOf<string>())
  .on("content", (content) => expectTypeOf(content).toEqualTypeOf<string>())
  .on("chatCompletion", (completion) => expectTypeOf(completion).toEqualTypeOf<ChatCompletion>())
  .on("finalContent", (content) => expectTypeOf(content).toEqualTypeOf<string>());
expectTypeOf(runner.messages).toEqualTypeOf<ChatCompletionMessageParam[]>();
expectTypeOf(runner.allChatCompletions()).toEqualTypeOf<ChatCompletion[]>();
// openai's `ended`, `errored` and `aborted`, on both helpers, read-only.
expectTypeOf([runner.ended, runner.errored, runner.aborted, plainStream.ended, plainStream.errored, plainStream.aborted]).toEqualTypeOf<boolean[]>();
// @ts-expect-error read-only, as openai's getters
plainStream.errored = true;
expectTypeOf(runner.finalContent()).toEqualTypeOf<Promise<string | null>>();
expectTypeOf(runner.finalFunctionToolCall()).toEqualTypeOf<Promise<{ name: string; arguments: string } | undefined>>();
expectTypeOf(runner.finalFunctionToolCallResult()).toEqualTypeOf<Promise<string | undefined>>();
expectTypeOf((await runner).stopReason).toEqualTypeOf<"done" | "max_steps" | "max_cost" | "repeated_call">();
// Tools in openai's runnable shapes run too: a function with parse, one without, and zodFunction()'s.
void client.chat.completions.runTools({
  model: "auto",
  messages: userMessage,
  tools: [
    { type: "function", function: { function: (args: { city: string }, run: ToolRun) => [args.city, run.messages.length], parse: JSON.parse, parameters: {}, description: "d" } },
    { type: "function", function: { function: (args: string) => args.length, parameters: {} } },
    zodFunction({ name: "get_time", parameters: z.object({ zone: z.string() }), function: (args) => args.zone }),
  ],
});
// @ts-expect-error openai's runnable shape needs its parameters
void client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [{ type: "function", function: { function: () => 1 } }] });

// openai's runnable types take openai's type parameters, `<Args, ToolContext>`, and `toolContext` types the functions' third argument.
import type {
  RunnableFunction,
  RunnableFunctionWithParse,
  RunnableFunctionWithoutParse,
  RunnableToolFunction,
  RunnableToolFunctionWithContext,
  RunnableToolFunctionWithParse,
  RunnableToolFunctionWithoutParse,
} from "../src/index.ts";
type Tenant = { tenantID: string };
const withContext: RunnableToolFunction<{ city: string }, Tenant> = {
  type: "function",
  function: { name: "get_weather", description: "d", parameters: {}, parse: JSON.parse, function: (args, _run, context) => `${args.city} for ${context.tenantID}` },
};
expectTypeOf(withContext).toEqualTypeOf<RunnableToolFunctionWithParse<{ city: string }, Tenant>>();
expectTypeOf<RunnableToolFunction<string>>().toEqualTypeOf<RunnableToolFunctionWithoutParse<unknown>>();
expectTypeOf<RunnableFunction<{ a: number }, Tenant>>().toEqualTypeOf<RunnableFunctionWithParse<{ a: number }, Tenant>>();
expectTypeOf<RunnableFunction<string, Tenant>>().toEqualTypeOf<RunnableFunctionWithoutParse<Tenant>>();
expectTypeOf<Parameters<RunnableFunctionWithParse<{ a: number }, Tenant>["function"]>>().toEqualTypeOf<[args: { a: number }, runner: ToolRun, toolContext: Tenant]>();
expectTypeOf<Parameters<RunnableFunctionWithoutParse<Tenant>["function"]>[0]>().toEqualTypeOf<string>();
// openai's example habit: a list of RunnableToolFunction<any>, each cast to its own arguments.
const listed: RunnableToolFunction<any>[] = [withContext as RunnableToolFunction<{ city: string }>];
void client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: listed });
void client.chat.completions.runTools({ model: "auto", messages: userMessage, tools: [withContext], toolContext: { tenantID: "t1" } });
void client.chat.completions.runTools({
  model: "auto",
  messages: userMessage,
  toolContext: { tenantID: "t1" },
  tools: [{ type: "function", function: { parameters: {}, function: (_args: string, _run, context) => expectTypeOf(context).toEqualTypeOf<{ tenantID: string }>() } }],
});
expectTypeOf<RunnableToolFunctionWithContext<Tenant>["function"]["parameters"]>().toEqualTypeOf<Record<string, unknown>>();
// openai's events() iterator and currentChatCompletionSnapshot on the runner.
for await (const [message] of runner.events("message")) expectTypeOf(message).toEqualTypeOf<ChatCompletionMessageParam>();
expectTypeOf(runner.currentChatCompletionSnapshot?.choices[0]?.message.content).toEqualTypeOf<string | null | undefined>();
// afterCompletion(completion, runner), as openai's option.
void client.chat.completions.runTools(
  { model: "auto", messages: userMessage, tools: [getWeather] },
  {
    afterCompletion: async (completion, run) => {
      expectTypeOf(completion).toEqualTypeOf<ChatCompletion>();
      expectTypeOf(run).toEqualTypeOf<ToolRun>();
    },
  },
);

// Middleware: `(request, next, context) => Promise<Response>`, as a client option and a call option.
import type { Middleware, MiddlewareContext, MiddlewareNext, RequestOptions } from "../src/index.ts";
expectTypeOf<Middleware>().toEqualTypeOf<(request: Request, next: MiddlewareNext, context: MiddlewareContext) => Promise<Response>>();
expectTypeOf<MiddlewareNext>().toEqualTypeOf<(request: Request) => Promise<Response>>();
expectTypeOf<MiddlewareContext>().toEqualTypeOf<{
  method: string;
  path: string;
  attempt: number;
  stream: boolean;
  signal: AbortSignal;
  idempotencyKey: string | undefined;
  options: RequestOptions;
}>();
expectTypeOf<ModelGate.Middleware>().toEqualTypeOf<Middleware>();
const logged: Middleware = async (request, next, { attempt, path }) => {
  expectTypeOf(attempt).toEqualTypeOf<number>();
  expectTypeOf(path).toEqualTypeOf<string>();
  return next(request);
};
const tenantClient = new ModelGate({ apiKey: "k", baseURL: "https://gateway.test", middleware: [logged] });
void tenantClient.chat.completions.create({ model: "auto", messages: userMessage }, { middleware: [logged, async () => new Response("{}")] });
// @ts-expect-error a middleware resolves to a Response
void new ModelGate({ middleware: [async () => "not a response"] });
// @ts-expect-error middleware is a list
void new ModelGate({ middleware: logged });
// withOptions takes any client option and gives a client.
expectTypeOf(tenantClient.withOptions({ defaultHeaders: { "x-tenant": "acme", "x-team": null }, defaultQuery: { team: null } })).toEqualTypeOf<ModelGate>();
// @ts-expect-error not a client option
void tenantClient.withOptions({ nonsense: true });

// Uploads and the endpoints openai's examples use beside chat (issue 20).
declare const readStream: import("node:fs").ReadStream;
declare const fetched: Response;
declare const chunks: AsyncIterable<Uint8Array>;
expectTypeOf<Endpoints["toFile"]>().returns.toEqualTypeOf<Promise<File>>();
expectTypeOf(await import("../src/index.ts").then(({ toFile }) => toFile(readStream, "talk.mp3", { type: "audio/mpeg" }))).toEqualTypeOf<File>();
void import("../src/index.ts").then(({ toFile }) => [toFile(fetched), toFile(chunks, "a.wav"), toFile(new Uint8Array(1), "b.bin"), toFile("text", "c.txt")]);
// A Node fs.ReadStream, a Response and an async iterable of bytes are files as they are.
expectTypeOf(client.audio.transcriptions.create({ model: "t", file: readStream })).toEqualTypeOf<APIPromise<import("../src/index.ts").Transcription>>();
void client.audio.transcriptions.create({ model: "t", file: fetched });
void client.audio.transcriptions.create({ model: "t", file: chunks });
// @ts-expect-error a path is not a file (read it with fs.createReadStream)
void client.audio.transcriptions.create({ model: "t", file: "talk.mp3" });
expectTypeOf(client.audio.translations.create({ model: "t", file: readStream })).toEqualTypeOf<APIPromise<import("../src/index.ts").Translation>>();
expectTypeOf(client.audio.translations.create({ model: "t", file, response_format: "vtt" })).toEqualTypeOf<APIPromise<string>>();
// @ts-expect-error translations have no language: the answer is English
void client.audio.translations.create({ model: "t", file, language: "de" });
// images.edit and a streamed images.generate follow `stream`, as chat does.
expectTypeOf(client.images.edit({ image: readStream, prompt: "p" })).toEqualTypeOf<APIPromise<import("../src/index.ts").ImagesResponse>>();
expectTypeOf(client.images.edit({ image: [file, fetched], mask: file, prompt: "p", stream: true })).toEqualTypeOf<
  APIPromise<Stream<import("../src/index.ts").ImageEditStreamEvent>>
>();
expectTypeOf(client.images.generate({ model: "i", prompt: "p", stream: true, partial_images: 2 })).toEqualTypeOf<
  APIPromise<Stream<import("../src/index.ts").ImageGenStreamEvent>>
>();
expectTypeOf(client.images.generate({ model: "i", prompt: "p", stream: maybeStream })).toEqualTypeOf<
  APIPromise<import("../src/index.ts").ImagesResponse | Stream<import("../src/index.ts").ImageGenStreamEvent>>
>();
// @ts-expect-error an edit needs a picture
void client.images.edit({ prompt: "p" });
declare const imageEvent: import("../src/index.ts").ImageGenStreamEvent;
if (imageEvent.type === "image_generation.completed") expectTypeOf(imageEvent.usage.total_tokens).toEqualTypeOf<number>();
else expectTypeOf(imageEvent.partial_image_index).toEqualTypeOf<number>();
// The legacy function-calling params and fields are typed.
void client.chat.completions.create({
  model: "m",
  messages: [
    { role: "assistant", content: null, function_call: { name: "weather", arguments: "{}" } },
    { role: "function", name: "weather", content: "sunny" },
  ],
  functions: [{ name: "weather", parameters: { type: "object" } }],
  function_call: { name: "weather" },
});
expectTypeOf<ChatCompletion["choices"][number]["message"]["function_call"]>().toEqualTypeOf<ModelGate.ChatCompletionFunctionCall | null | undefined>();
expectTypeOf<ChatCompletionChunk["choices"][number]["delta"]["function_call"]>().toEqualTypeOf<{ name?: string; arguments?: string } | undefined>();
expectTypeOf<ModelGate.Chat.Completions.ChatCompletionFunctionMessageParam>().toEqualTypeOf<ModelGate.ChatCompletionFunctionMessageParam>();
// @ts-expect-error function_call takes "none", "auto" or { name }
void client.chat.completions.create({ model: "m", messages: [], function_call: "required" });

// What the SDK reads beyond OpenAI's shapes (API.md, Stream): `delta` stays required, the parts
// a `content` came as are a readonly non-enumerable extra, and the fields a tool loop sends back
// (reasoning_details, a call's extra_content) fit a request's assistant message.
expectTypeOf<ChatCompletionChunk["choices"][number]["delta"]>().toEqualTypeOf<import("../src/index.ts").ChatCompletionChunkDelta>();
// Required: an object without `delta` is no choice.
expectTypeOf<{} extends Pick<ChatCompletionChunk["choices"][number], "delta"> ? "optional" : "required">().toEqualTypeOf<"required">();
expectTypeOf<ChatCompletion["choices"][number]["message"]["content_parts"]>().toEqualTypeOf<readonly import("../src/index.ts").ChatCompletionResponseContentPart[] | undefined>();
expectTypeOf<ChatCompletionChunk["choices"][number]["delta"]["content_parts"]>().toEqualTypeOf<readonly import("../src/index.ts").ChatCompletionResponseContentPart[] | undefined>();
declare const replied: ChatCompletion;
const backAgain: import("../src/index.ts").ChatCompletionMessageParam = {
  role: "assistant",
  content: replied.choices[0]!.message.content,
  tool_calls: replied.choices[0]!.message.tool_calls,
  reasoning_details: replied.choices[0]!.message.reasoning_details,
};
void backAgain;
expectTypeOf<NonNullable<ChatCompletionChunk["x_groq"]>["usage"]>().toEqualTypeOf<import("../src/index.ts").CompletionUsage | null | undefined>();
