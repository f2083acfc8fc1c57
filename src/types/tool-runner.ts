import type { RequestOptions } from "../pipeline/options.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageToolCall, CompletionUsage, GatewayInfo } from "./chat-completion.ts";
import type { RunnableTool } from "../schemas/tool.ts";
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionTool } from "./chat-params.ts";
import type { ChatCompletionSnapshot, HelperEventEmitter, HelperFinalValues, ToolRunnerEvents } from "./helper-events.ts";

/** Why a tool run ended: `"done"` when the model answered without calling a tool. */
export type ToolRunStopReason = "done" | "max_steps" | "max_cost" | "repeated_call";

/**
 * A function in openai's runnable shape with a `parse`, as openai's `runTools()` takes it
 * (openai's type of the same name and type parameters): the runner calls
 * `function(args, runner, toolContext)`, where `args` is what `parse` returned for the call's
 * arguments (JSON text), `runner` is the object `runTools()` returned, and `toolContext` the
 * `runTools()` param of that name.
 */
export interface RunnableFunctionWithParse<Args extends object, ToolContext = unknown> {
  /** Runs the call: its return value (a string as it is, anything else as JSON) becomes the tool message. */
  function: (args: Args, runner: ToolRun, toolContext: ToolContext) => unknown;
  /** Turns the arguments' JSON text into `function`'s `args` (`JSON.parse`, a schema's parse); what it throws is told to the model as the call's result. */
  parse: (input: string) => Args | Promise<Args>;
  /** The arguments, as a JSON Schema object. */
  parameters: Record<string, unknown>;
  /** What the function does; the model reads it. */
  description?: string | undefined;
  /** The name the model calls it by. @default `function.name` */
  name?: string | undefined;
  strict?: boolean | undefined;
}

/** A function in openai's runnable shape without `parse`: `function` gets the arguments' JSON text as it came (openai's type of the same name). */
export interface RunnableFunctionWithoutParse<ToolContext = unknown> {
  /** Runs the call with the arguments' JSON text: its return value (a string as it is, anything else as JSON) becomes the tool message. */
  function: (args: string, runner: ToolRun, toolContext: ToolContext) => unknown;
  /** The arguments, as a JSON Schema object. */
  parameters: Record<string, unknown>;
  /** What the function does; the model reads it. */
  description?: string | undefined;
  /** The name the model calls it by. @default `function.name` */
  name?: string | undefined;
  strict?: boolean | undefined;
}

/**
 * openai's `RunnableFunction<Args, ToolContext>`: with `parse` when `Args` is an object type,
 * without it when `Args` is `string`.
 */
export type RunnableFunction<Args extends object | string, ToolContext = unknown> = Args extends string
  ? RunnableFunctionWithoutParse<ToolContext>
  : Args extends object
    ? RunnableFunctionWithParse<Args, ToolContext>
    : never;

/** A tool in openai's runnable shape with `parse`: `{ type: "function", function: { function, parse, parameters, … } }`. */
export interface RunnableToolFunctionWithParse<Args extends object, ToolContext = unknown> {
  type: "function";
  function: RunnableFunctionWithParse<Args, ToolContext>;
}

/** A tool in openai's runnable shape without `parse`. */
export interface RunnableToolFunctionWithoutParse<ToolContext = unknown> {
  type: "function";
  function: RunnableFunctionWithoutParse<ToolContext>;
}

/** openai's `RunnableToolFunction<Args, ToolContext>`: with `parse` when `Args` is an object type, without it when `Args` is `string`. */
export type RunnableToolFunction<Args extends object | string, ToolContext = unknown> = Args extends string
  ? RunnableToolFunctionWithoutParse<ToolContext>
  : Args extends object
    ? RunnableToolFunctionWithParse<Args, ToolContext>
    : never;

/**
 * Any tool in openai's runnable shape whose function takes `ToolContext` (openai's type of the
 * same name): what `runTools()` accepts, whatever each function's arguments are.
 */
export interface RunnableToolFunctionWithContext<ToolContext = unknown> {
  type: "function";
  function: {
    // A method, so that a function of any arguments fits (methods are compared bivariantly).
    /** Runs the call: `args` is what `parse` returned, else the arguments' JSON text. */
    function(args: never, runner: ToolRun, toolContext: ToolContext): unknown;
    /** Turns the arguments' JSON text into `function`'s `args`; what it throws is told to the model. */
    parse?(input: string): unknown;
    /** The arguments, as a JSON Schema object. */
    parameters: Record<string, unknown>;
    /** What the function does; the model reads it. */
    description?: string | undefined;
    /** The name the model calls it by. @default `function.name` */
    name?: string | undefined;
    strict?: boolean | null | undefined;
  };
}

/**
 * A tool made by openai's `zodFunction({ name, parameters, function })`: run like a
 * `RunnableToolFunction` whose `parse` is the schema's and whose `function` is the one given.
 */
export interface OpenAIParseableTool extends ChatCompletionTool {
  readonly $brand: "auto-parseable-tool";
  /** The `function` given to `zodFunction()`, if any: what the runner calls. */
  $callback: ((args: never) => unknown) | undefined;
  /** The helper's own parse of the arguments' JSON text: what `parsed_arguments` holds. */
  $parseRaw(args: string): unknown;
}

/** A tool `runTools()` can run: a `tool()` tool with `run`, or one in openai's runnable shapes (whose functions take `ToolContext` as their third argument). */
export type ToolRunTool<ToolContext = unknown> = RunnableTool | RunnableToolFunctionWithContext<ToolContext> | OpenAIParseableTool;

/** Params of `runTools()`: those of `create()`, with tools the runner can call, and `toolContext` for them. */
export interface ToolRunParams<ToolContext = unknown> extends Omit<ChatCompletionCreateParamsBase, "tools"> {
  tools: readonly ToolRunTool<ToolContext>[];
  /**
   * openai's `toolContext`: given to every function in openai's runnable shape as its third
   * argument (`function(args, runner, toolContext)`), never sent to the gateway: a database
   * handle, the user the run acts for, what the model must not see.
   */
  toolContext?: ToolContext | undefined;
}

/** Options of `runTools()`: those of every call (`signal` reaches the running tools too), and the stop conditions. */
export interface ToolRunOptions extends RequestOptions {
  /** The most chat completions the run makes. @default 10 */
  maxSteps?: number | undefined;
  /** openai's name for `maxSteps` (which wins when both are given). */
  maxChatCompletions?: number | undefined;
  /**
   * The most the run may cost, in USD. The run stops (`"max_cost"`) before a step whose worst
   * case (as for `create()`'s `maxCost`: the prompt, bounded from above, plus the reply limit
   * the gateway applies, at the model's catalogue prices) would pass what is left, and once
   * what was spent reaches it: a step counts for the cost the gateway reported, else for its
   * worst case. With `model: "auto"` each step sends what is left as `route.max_cost`, and
   * the gateway's 400 saying no model fits ends the run with `"max_cost"` too.
   */
  maxCost?: number | undefined;
  /**
   * openai's option: awaited after each step, once that step's tool messages are in
   * `runner.messages` (and after the final reply), with the step's completion and the object
   * `runTools()` returned. Messages it pushes onto `runner.messages` go out with the next
   * request. A throw or a rejection ends the run with that error.
   */
  afterCompletion?: ((completion: ChatCompletion, runner: ToolRun) => void | Promise<void>) | undefined;
}

/** One call a step made, and what came of it. */
export interface ToolRunCall {
  /**
   * The call as it went back into `messages`: as the model made it, with a unique `id`,
   * `type: "function"`, a name (`"unnamed_call"` when it had none) and `arguments` as JSON
   * text (an object the model sent becomes its JSON).
   */
  call: ChatCompletionMessageToolCall;
  /** What the tool returned (as sent to the model: a string as is, anything else as JSON). */
  result?: unknown;
  /** Why the call failed (sent to the model as the call's result, so it can correct itself). */
  error?: string;
  /**
   * The value thrown behind `error`, as it was thrown (not redacted: it is the tool's own), so
   * a tool's bug can be debugged from the result: what `run` threw, what the schema's check
   * threw, what serializing the result threw, or the arguments' JSON syntax error. Present
   * (possibly `undefined`, for `throw undefined`) only when something was thrown.
   */
  cause?: unknown;
  /** How long the tool ran, in milliseconds. */
  ms: number;
}

/** One step of a run: one chat completion and the calls it asked for. */
export interface ToolRunStep {
  completion: ChatCompletion;
  /** The model that answered. */
  model: string;
  /** What the step cost in USD, as the gateway reported it; `null` when it did not. */
  cost: number | null;
  gateway: GatewayInfo | undefined;
  toolCalls: ToolRunCall[];
}

/** What a run ends with. */
export interface ToolRunResult {
  stopReason: ToolRunStopReason;
  /** The last assistant message; `null` when the run stopped before its first step. */
  message: ChatCompletionMessage | null;
  /** The whole conversation, ready to continue (every tool call has its `tool` message). */
  messages: ChatCompletionMessageParam[];
  steps: ToolRunStep[];
  /** Token counts summed over the steps. */
  usage: CompletionUsage;
  /** The cost summed over the steps, in USD; `null` when the gateway reported none. */
  cost: number | null;
}

/** The progress of a run, for a UI: iterate the object `runTools()` returns. */
export type ToolRunEvent =
  | { type: "step.start"; step: number }
  | { type: "chunk"; step: number; chunk: ChatCompletionChunk }
  | { type: "tool_call"; step: number; call: ChatCompletionMessageToolCall }
  | ({ type: "tool_result"; step: number } & ToolRunCall)
  | { type: "step.end"; step: number; completion: ChatCompletion; cost: number | null };

/**
 * What `runTools()` returns: await it for the result, or iterate it for the events as they
 * happen (then await it for the same result, nothing run twice). The events are a live view:
 * an iterator gets every event but the chunks from the first, whenever it is made, and the
 * `"chunk"` events from when it is made on. Chunks nobody iterates are not kept, and a chunk
 * is let go once every iterator there has read it, so a long streamed answer is held once
 * (in the result), not again as its chunks.
 *
 * It also has openai's runner surface: `on()`/`off()`/`once()` with openai's runner events
 * (`message`, `functionToolCall`, `finalContent`, …; with `stream: true` also the chunk
 * events of `chat.completions.stream()`), `done()`, `abort()`, the final values and
 * `messages`. It is a thenable (`then`, `catch`, `finally`), not a `Promise` instance.
 */
export interface ToolRun extends Promise<ToolRunResult>, AsyncIterable<ToolRunEvent>, HelperEventEmitter<ToolRunnerEvents>, HelperFinalValues {
  /** The conversation so far (the request's messages, then each reply and tool result): the run's own list, live. */
  readonly messages: ChatCompletionMessageParam[];
  /** Every completion of the run so far. */
  allChatCompletions(): ChatCompletion[];
  /**
   * With `stream: true`, the step's completion as its chunks have built it so far (openai's
   * getter of the same name); `undefined` between steps and without streaming.
   */
  readonly currentChatCompletionSnapshot: ChatCompletionSnapshot | undefined;
  /**
   * With `stream: true`, the chunks of every step as the bridge's body (as openai's streaming
   * runner writes them), for `ChatCompletionStream.fromReadableStream()` on the far side. Call
   * it before awaiting anything: made after chunks have gone by, or for a run without
   * `stream: true`, the body is the bridge's error frame (the far side throws a `ModelGateError`).
   */
  toReadableStream(): ReadableStream<Uint8Array>;
}
