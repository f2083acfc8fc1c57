import type { RequestOptions } from "../pipeline/options.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageToolCall, CompletionUsage, GatewayInfo } from "./chat-completion.ts";
import type { RunnableTool } from "../schemas/tool.ts";
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from "./chat-params.ts";

/** Why a tool run ended: `"done"` when the model answered without calling a tool. */
export type ToolRunStopReason = "done" | "max_steps" | "max_cost" | "repeated_call";

/** Params of `runTools()`: those of `create()`, with `tool()` tools that have `run` (the runner calls it). */
export interface ToolRunParams extends Omit<ChatCompletionCreateParamsBase, "tools"> {
  tools: readonly RunnableTool[];
}

/** Options of `runTools()`: those of every call (`signal` reaches the running tools too), and the stop conditions. */
export interface ToolRunOptions extends RequestOptions {
  /** The most chat completions the run makes. @default 10 */
  maxSteps?: number | undefined;
  /**
   * The most the run may cost, in USD. The run stops (`"max_cost"`) before a step whose worst
   * case (as for `create()`'s `maxCost`: the prompt, bounded from above, plus the reply limit
   * the gateway applies, at the model's catalogue prices) would pass what is left, and once
   * what was spent reaches it: a step counts for the cost the gateway reported, else for its
   * worst case. With `model: "auto"` each step sends what is left as `route.max_cost`, and
   * the gateway's 400 saying no model fits ends the run with `"max_cost"` too.
   */
  maxCost?: number | undefined;
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
 */
export interface ToolRun extends Promise<ToolRunResult>, AsyncIterable<ToolRunEvent> {}
