import { sdk } from "../../streaming/lazy/shared.ts";
import type { ToolInternals } from "../tool.ts";
import type { ChatCompletionMessageToolCall } from "../../types/chat-completion.ts";
import type { ToolRunCall } from "../../types/tool-runner.ts";

/** How many issues a failed check quotes to the model. */
const MAX_ISSUES = 5;

/**
 * Runs one call the model made and says what came of it. Nothing the model got wrong is
 * thrown: an unknown tool, arguments that are not JSON or that the schema rejects, and a tool
 * that throws each become the call's `error`, sent back as its result so the model can
 * correct itself. Only the caller's abort rejects, at once, even if the tool ignores `signal`.
 */
export async function callTool(
  call: ChatCompletionMessageToolCall,
  tools: Map<string, ToolInternals>,
  context: { signal: AbortSignal; step: number },
): Promise<ToolRunCall> {
  const started = performance.now();
  const outcome = await untilAborted(outcomeOf(call, tools, context), context.signal);
  return { call, ...outcome, ms: Math.round((performance.now() - started) * 10) / 10 };
}

async function outcomeOf(call: ChatCompletionMessageToolCall, tools: Map<string, ToolInternals>, context: { signal: AbortSignal; step: number }): Promise<{ result?: unknown; error?: string }> {
  const name = call?.function?.name;
  const tool = typeof name === "string" ? tools.get(name) : undefined;
  if (!tool?.run) return { error: `There is no tool named ${JSON.stringify(name)}. The tools are: ${[...tools.keys()].join(", ")}.` };
  let args: unknown;
  try {
    const text = call.function.arguments;
    args = text === undefined || text === null || text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return { error: `The arguments are not valid JSON (${(error as Error).message}). Call the tool again with a JSON object as its arguments.` };
  }
  if (tool.schema.validate) {
    let checked: Awaited<ReturnType<NonNullable<typeof tool.schema.validate>>>;
    try {
      checked = await tool.schema.validate(args);
    } catch (error) {
      return { error: `The arguments were rejected: ${(error as Error)?.message ?? String(error)}` };
    }
    if (checked.issues) {
      const listed = checked.issues.slice(0, MAX_ISSUES).map((issue) => (issue.path?.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message));
      return { error: `The arguments do not match the tool's schema: ${listed.join("; ")}. Call the tool again with corrected arguments.` };
    }
    args = checked.value;
  }
  try {
    return { result: await tool.run(args, { signal: context.signal, step: context.step, call }) };
  } catch (error) {
    if (context.signal.aborted) throw error;
    return { error: `The tool failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What the model reads as the call's result: a string as it is, anything else as JSON. */
export function toolMessageContent(outcome: ToolRunCall): string {
  if (outcome.error !== undefined) return `Error: ${outcome.error}`;
  if (typeof outcome.result === "string") return outcome.result;
  try {
    return JSON.stringify(outcome.result) ?? "null";
  } catch (error) {
    return `Error: the tool's result cannot be sent as JSON (${(error as Error).message}).`;
  }
}

/** Settles with `promise`, or rejects with `APIUserAbortError` as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(sdk.abortError(signal));
  return sdk.untilAborted(promise, signal).catch((error: unknown) => {
    throw signal.aborted ? sdk.abortError(signal) : error;
  });
}
