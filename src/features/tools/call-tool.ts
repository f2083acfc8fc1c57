import { abortError } from "../../errors/connection-errors.ts";
import type { Redact } from "../../internal/redact.ts";
import { isRecord } from "../../internal/values.ts";
import type { Validation } from "../../schemas/schema-source.ts";
import { argumentsValue } from "../structured/tool-arguments.ts";
import { describeIssue, readValidation } from "../structured/validation.ts";
import type { ToolRunCall } from "../../types/tool-runner.ts";
import type { PreparedCall } from "./assistant-turn.ts";
import type { OpenAIFunction, RunnerTool } from "./offered-tools.ts";

/** How many issues a failed check quotes to the model. */
const MAX_ISSUES = 5;

/** What `callTool` needs besides the call. */
export interface CallContext {
  signal: AbortSignal;
  step: number;
  /** Cuts the API key out of the error texts the SDK writes. */
  redact: Redact;
  /** What an openai-shaped function gets as its second argument: the object `runTools()` returned. */
  runner: unknown;
  /** openai's `toolContext` param: what an openai-shaped function gets as its third argument. */
  toolContext: unknown;
  /** The function `tool_choice` forces, if any: a call of another tool is not run. */
  forced: string | undefined;
}

/**
 * What came of a call before it is written down: a result, or an error text and (when something
 * was thrown) the thrown value. `verbatim`: the tool message is the error text as it is, without
 * our "Error: " in front (openai's own sentences, which a model tuned on openai's runner knows).
 */
type Outcome = { result: unknown } | { error: string; thrown?: { value: unknown }; verbatim?: true };

/**
 * Runs one call the model made and says what came of it: the record for `steps`, and the
 * `tool` message's content. Nothing the model got wrong is thrown: a call that could not be
 * read, an unknown tool, arguments that are not a JSON object or that the schema rejects, a
 * tool that throws (whatever it throws), and a result that cannot be sent as JSON each become
 * the call's `error`, sent back as its result so the model can correct itself; a thrown value
 * is kept as the record's `cause`. Only the caller's abort rejects, at once, even if the tool
 * ignores `signal`; and no tool starts after it.
 */
export async function callTool({ call, problem }: PreparedCall, tools: Map<string, RunnerTool>, context: CallContext): Promise<{ outcome: ToolRunCall; content: string }> {
  const started = performance.now();
  let outcome: Outcome;
  if (problem !== undefined) {
    outcome = { error: problem };
  } else {
    outcome = await runOneCall(call, tools, context);
  }
  const ms = Math.round((performance.now() - started) * 10) / 10;
  if ("result" in outcome) {
    const { result } = outcome;
    if (typeof result === "string") return { outcome: { call, result, ms }, content: result };
    try {
      const json = JSON.stringify(result);
      // A tool that returns nothing sends "null"; a symbol or a function (or a toJSON() giving
      // nothing) has no JSON at all: "null" would tell the model something the tool never said.
      if (json !== undefined || result === undefined) return { outcome: { call, result, ms }, content: json ?? "null" };
      outcome = { error: `The tool's result cannot be sent as JSON (${typeof result === "object" ? "its toJSON() gave nothing" : `it is a ${typeof result}`}).` };
    } catch (reason) {
      outcome = { error: `The tool's result cannot be sent as JSON (${describe(reason)}).`, thrown: { value: reason } };
    }
  }
  const error = context.redact(outcome.error);
  // The thrown value as it is (not redacted): it is the tool's own, kept so its bug can be found.
  const record: ToolRunCall = outcome.thrown ? { call, error, cause: outcome.thrown.value, ms } : { call, error, ms };
  return { outcome: record, content: "verbatim" in outcome ? error : `Error: ${error}` };
}

async function runOneCall(call: PreparedCall["call"], tools: Map<string, RunnerTool>, context: CallContext): Promise<Outcome> {
  const { name, arguments: text } = call.function;
  const tool = tools.get(name);
  if (tool === undefined) return unknownTool(name, tools);
  // The request forced another function: openai's runner's sentence, and the call is not run.
  if (context.forced !== undefined && context.forced !== name) return { error: `Invalid tool_call: ${JSON.stringify(name)}. ${JSON.stringify(context.forced)} requested. Please try again`, verbatim: true };
  if ("openai" in tool) return runOpenAIFunction(tool.openai, text, context);
  const { run } = tool;
  if (!run) return unknownTool(name, tools);
  let args: unknown;
  try {
    args = argumentsValue(text, JSON.parse);
  } catch (error) {
    // JSON.parse's own error quotes the model's text, which may echo the key: unlike a tool's
    // throw, it is the SDK's, so it is kept with its message redacted.
    const parseError = new SyntaxError(context.redact(describe(error)));
    return { error: `The arguments are not valid JSON (${parseError.message}). Call the tool again with a JSON object as its arguments.`, thrown: { value: parseError } };
  }
  // Arguments are named: a function is always called with an object.
  if (!isRecord(args)) return { error: "The arguments must be a JSON object of named arguments. Call the tool again with one." };
  if (tool.schema.validate) {
    let checked: Validation;
    try {
      checked = readValidation(await tool.schema.validate(args));
    } catch (error) {
      return { error: `The arguments were rejected: ${describe(error)}`, thrown: { value: error } };
    }
    if (checked.issues) {
      const listed = checked.issues.slice(0, MAX_ISSUES).map(describeIssue);
      return { error: `The arguments do not match the tool's schema: ${listed.join("; ")}. Call the tool again with corrected arguments.` };
    }
    args = checked.value;
  }
  // Checking the arguments may have taken a while (an async refinement): the caller may have left.
  if (context.signal.aborted) throw abortError(context.signal);
  try {
    return { result: await run(args, { signal: context.signal, step: context.step, call }) };
  } catch (error) {
    if (context.signal.aborted) throw error;
    return { error: `The tool failed: ${describe(error)}`, thrown: { value: error } };
  }
}

/** A call of a name no tool has: openai's runner's sentence, word for word (a model may have been tuned on it). */
function unknownTool(name: string, tools: Map<string, RunnerTool>): Outcome {
  const options = [...tools.keys()].map((known) => JSON.stringify(known)).join(", ");
  return { error: `Invalid tool_call: ${JSON.stringify(name)}. Available options are: ${options}. Please try again`, verbatim: true };
}

/**
 * A function in openai's runnable shape, called as openai's runner calls it: `function(args,
 * runner, toolContext)`, `args` being what `parse` made of the arguments' text, else that text.
 * What a `parse` throws is told to the model as its own message, as openai's runner tells it.
 */
async function runOpenAIFunction(fn: OpenAIFunction, text: string, context: CallContext): Promise<Outcome> {
  let args: unknown = text;
  if (fn.parse) {
    try {
      args = await fn.parse(text);
    } catch (error) {
      // As openai's runner tells it: the parser's own message (a zod error lists the issues).
      return { error: describe(error), thrown: { value: error }, verbatim: true };
    }
  }
  if (context.signal.aborted) throw abortError(context.signal);
  try {
    return { result: await fn.function(args, context.runner, context.toolContext) };
  } catch (error) {
    if (context.signal.aborted) throw error;
    return { error: `The tool failed: ${describe(error)}`, thrown: { value: error } };
  }
}

/**
 * What a thrown value says, whatever it is: an Error, a string, an object without a prototype,
 * `undefined`, a symbol. Never throws itself: a message behind a getter that throws, a Proxy
 * whose traps throw, a `toString` that throws still give a text.
 */
function describe(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message === "" ? `${thrown.name} (without a message)` : String(thrown.message);
    if (typeof thrown === "string") return thrown;
    if (isRecord(thrown) && typeof thrown.message === "string") return thrown.message;
    if (thrown === undefined) return "it threw undefined";
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    try {
      return `it threw ${Object.prototype.toString.call(thrown)}, whose message cannot be read`;
    } catch {
      return "it threw a value whose message cannot be read";
    }
  }
}
