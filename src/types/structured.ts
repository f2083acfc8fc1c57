import type { RequestOptions } from "../pipeline/options.ts";
import type { SchemaOutput, StructuredSchema } from "../schemas/standard-schema.ts";
import type { Stream } from "../streaming/stream.ts";
import type { Tool } from "../schemas/tool.ts";
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageToolCall } from "./chat-completion.ts";
import type { ChatCompletionCreateParamsBase, ChatCompletionTool, ResponseFormat } from "./chat-params.ts";

/**
 * How `parse()` gets the schema to the model:
 * - `"json_schema"`: `response_format: { type: "json_schema", json_schema: { name, schema, strict } }`,
 *   for models with native structured outputs (with `model: "auto"`, `"structured_outputs"` is
 *   added to `route.capabilities`);
 * - `"tool"`: the schema as one forced function call whose arguments are the answer, for models
 *   that call tools but lack structured outputs;
 * - `"json_object"`: `response_format: { type: "json_object" }` and a system message holding the
 *   schema, for models that only promise some JSON.
 *
 * In every mode the reply is validated locally against the caller's schema.
 */
export type StructuredOutputMode = "json_schema" | "tool" | "json_object";

/** Options of `chat.completions.create()`: those of every call, and a budget. */
export interface ChatRequestOptions extends RequestOptions {
  /**
   * The most this call may cost, in USD. With a model id, the SDK reads the model's prices
   * from the catalogue (`models.list()`, cached per client, revalidated after 5 minutes) and
   * lowers the reply limit the gateway applies (`max_completion_tokens` when sent, else
   * `max_tokens`, sent when neither was) until the worst case fits — `n` times the prompt
   * (bounded from above) plus the reply, on the dearest of `model` and its `models` — or
   * throws `BudgetExceededError` without sending when even the prompt may not fit or a model
   * has no price. With `model: "auto"` it sends `route.max_cost` and the gateway picks a model
   * that fits; when none does, its 400 is thrown as `BudgetExceededError` (the 400 as `cause`).
   * The wait for the catalogue ends with the call's `timeout` (else the client's) or `signal`.
   */
  maxCost?: number | undefined;
}

/** Options of `parse()`: those of `create()`, and how the schema reaches the model. */
export interface ParseOptions extends ChatRequestOptions {
  /** @default "json_schema" */
  structuredOutput?: StructuredOutputMode | undefined;
}

/**
 * `parse()`'s `response_format`: a Standard Schema with JSON Schema (Zod 4, ArkType, Valibot
 * through `toStandardJsonSchema()`), `jsonSchema(...)`, or OpenAI's `{ type: "json_schema" }` /
 * `{ type: "json_object" }` (then `parsed` is the reply's JSON, unchecked).
 */
export type ParseResponseFormat = StructuredSchema | Extract<ResponseFormat, { type: "json_schema" | "json_object" }>;

/**
 * The type of `parsed` for a `response_format`: the schema's output, what its `$parseRaw`
 * returns for an object made by openai's `zodResponseFormat()` (its `__output`, a type-only
 * field), `unknown` for raw JSON Schema, `null` without one.
 */
export type ParsedOutput<Format> = Format extends StructuredSchema
  ? SchemaOutput<Format>
  : Format extends { readonly __output: infer Output }
    ? Output
    : Format extends { type: "json_schema" | "json_object" }
      ? unknown
      : null;

/** The JSON the model writes for a `response_format` (before validation transforms it): what partial objects grow into. */
export type ParsedInput<Format> = Format extends { readonly "~standard": { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly input: infer Input }
    ? Input
    : unknown
  : ParsedOutput<Format>;

/** Params of `parse()`: those of `create()`, with a schema as `response_format` and `tool()` tools. */
export interface ChatCompletionParseParams<Format = ParseResponseFormat | undefined, Tools extends readonly ChatCompletionTool[] = ChatCompletionTool[]>
  extends Omit<ChatCompletionCreateParamsBase, "response_format" | "tools"> {
  /** The shape of the answer: a schema, `jsonSchema(...)`, or OpenAI's `json_schema`/`json_object` form. */
  response_format?: Format | undefined;
  /** Functions the model may call; calls of `tool()` and `zodFunction()` tools, and of strict ones, get `parsed_arguments`. */
  tools?: Tools | undefined;
}

/** A tool call in `parse()`'s result; for a `tool()` tool, with its validated arguments. */
export interface ParsedFunctionToolCall<Name extends string = string, Args = unknown> extends ChatCompletionMessageToolCall {
  function: {
    name: Name;
    arguments: string;
    /**
     * The arguments, parsed: validated by the schema of a `tool()` tool, read by the `$parseRaw`
     * of a tool made by openai's `zodFunction()`, or `JSON.parse`d for a tool with
     * `function.strict: true`; absent for other tools.
     */
    parsed_arguments?: Args;
  };
}

/** The tool calls `parse()` can return for a list of tools: one variant per `tool()` tool. */
export type ParsedToolCallOf<Tools extends readonly unknown[]> = [Tools[number]] extends [never]
  ? ParsedFunctionToolCall // no tools given: a call may still come (the answer function of the "tool" mode)
  : ToolCallFor<Tools[number]>;

// A tool made by openai's `zodFunction()` carries its name and arguments as type-only fields.
type ToolCallFor<T> =
  T extends Tool<infer Name, infer Args>
    ? ParsedToolCall<Name, Args>
    : T extends { readonly __name: infer Name extends string; readonly __arguments: infer Args }
      ? ParsedToolCall<Name, Args>
      : ParsedFunctionToolCall;

/** A call of a `tool()` (or openai `zodFunction()`) tool in `parse()`'s result: `parsed_arguments` is always there, typed by the tool's schema. */
export interface ParsedToolCall<Name extends string = string, Args = unknown> extends ParsedFunctionToolCall<Name, Args> {
  function: {
    name: Name;
    arguments: string;
    /** The arguments, parsed and validated by the tool's schema. */
    parsed_arguments: Args;
  };
}

/** The assistant message of a `parse()` result. */
export interface ParsedChatCompletionMessage<T, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall> extends Omit<ChatCompletionMessage, "tool_calls"> {
  /** The validated answer; `null` when the model refused (`refusal` is set) or no `response_format` was given. */
  parsed: T | null;
  tool_calls?: Call[];
}

/** A choice of a `parse()` result. */
export interface ParsedChoice<T, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall> extends Omit<ChatCompletionChoice, "message"> {
  message: ParsedChatCompletionMessage<T, Call>;
}

/** What `parse()` resolves to: a `ChatCompletion` whose messages carry `parsed`. */
export interface ParsedChatCompletion<T, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall> extends Omit<ChatCompletion, "choices"> {
  choices: ParsedChoice<T, Call>[];
}

/** Every property optional, all the way down: a value still being written. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? number extends T["length"]
    ? DeepPartial<T[number]>[]
    : { [Index in keyof T]?: DeepPartial<T[Index]> } // a tuple keeps its positions
  : T extends object
    ? { [Key in keyof T]?: DeepPartial<T[Key]> }
    : T;

/**
 * What `parse({ ..., stream: true })` resolves to: the chunks, as from `create()`, plus the
 * answer as it grows and, at the end, validated.
 */
export interface StructuredStream<T, Call extends ChatCompletionMessageToolCall = ParsedFunctionToolCall> extends StructuredStreamOf<T, Call, T> {}

/**
 * A `StructuredStream` whose partials have a type of their own: the JSON the model writes
 * (`Input`, the schema's input) before the schema transforms it into `T`. Not exported: a user
 * names `StructuredStream<T, Call>`, and sees this only for a schema whose input and output
 * differ (a Zod `.transform()`, say), where the partials must not claim the output's type.
 */
interface StructuredStreamOf<T, Call extends ChatCompletionMessageToolCall, Input> extends Stream<ChatCompletionChunk> {
  /**
   * The answer parsed so far (deep-partial), each time it changes. A string may still grow, but
   * a number, `true`, `false` or `null` appears only once complete, and a key only once its
   * name is. A change is yielded before the SDK waits on the network for more (chunks that
   * arrived together share one partial), and the last state before the stream ends, whole, cut
   * or failed, is always yielded. What did not change is the same object as in the previous
   * partial (`===`), and a partial is never mutated once yielded. Ends after the whole answer;
   * throws `StructuredOutputError` when the reply is malformed, rejected by the schema or cut,
   * as `finalChatCompletion()` does, and the stream's own error when it breaks off or fails.
   */
  readonly partialObjectStream: AsyncIterable<DeepPartial<Input>>;
  /** The whole reply with `parsed` validated, whether or not the chunks or partials were read first. */
  finalChatCompletion(): Promise<ParsedChatCompletion<T, Call>>;
}

/**
 * What `parse({ ..., stream: true })` resolves to for a `response_format` and tools: a
 * `StructuredStream<Answer, Call>` (the hover a user reads) whenever partials of the schema's
 * input and of its output are the same type, which is every schema without a transform.
 */
export type StructuredStreamFor<Format, Tools extends readonly unknown[]> =
  SameType<DeepPartial<ParsedInput<Format>>, DeepPartial<ParsedOutput<Format>>> extends true
    ? StructuredStream<ParsedOutput<Format>, ParsedToolCallOf<Tools>>
    : StructuredStreamOf<ParsedOutput<Format>, ParsedToolCallOf<Tools>, ParsedInput<Format>>;

// Each assignable to the other (tuples, so a union is not split into its members).
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
