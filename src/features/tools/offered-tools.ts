import { ModelGateError } from "../../errors/index.ts";
import { isRecord } from "../../internal/values.ts";
import { toolInternals } from "../../schemas/tool-internals.ts";
import type { ToolInternals } from "../../schemas/tool.ts";
import type { ChatCompletionTool } from "../../types/index.ts";
import { openAIParser } from "../structured/openai-helpers.ts";

/** A function in openai's runnable shape, as the runner calls it: `function(args, runner, toolContext)`. */
export interface OpenAIFunction {
  readonly function: (args: unknown, runner: unknown, toolContext: unknown) => unknown;
  /** Makes `args` from the arguments' JSON text; without it, `args` is that text. */
  readonly parse: ((input: string) => unknown) | undefined;
}

/** A tool the runner can call: a `tool()` tool's internals, or an openai-shaped function. */
export type RunnerTool = ToolInternals | { readonly openai: OpenAIFunction };

/** The tools `runTools()` was given: by name, and as the request sends them. */
export interface OfferedTools {
  byName: Map<string, RunnerTool>;
  wire: ChatCompletionTool[];
}

const NEEDS_A_FUNCTION =
  'runTools() runs the tools itself, so each needs a `run` function: define %s with tool({ name, parameters, run }) (or in openai\'s shape: { type: "function", function: { function, parameters } }).';

/**
 * Reads the tools given to `runTools()`. Three shapes run: `tool()` tools with `run` (called
 * as modelgate calls them: checked arguments and a context), openai's runnable functions
 * `{ type: "function", function: { function, parse?, parameters, name?, description? } }`
 * (named after the JavaScript function when `name` is absent), and tools made by openai's
 * `zodFunction({ ..., function })`; the last two are called as openai calls them.
 * @throws ModelGateError for a tool the runner cannot call, or two tools of one name.
 */
export function offeredTools(given: unknown[]): OfferedTools {
  const byName = new Map<string, RunnerTool>();
  const wire: ChatCompletionTool[] = [];
  for (const offer of given) {
    const read = readTool(offer);
    if (byName.has(read.name)) throw new ModelGateError(`runTools(): two tools are named "${read.name}"; the model could not tell them apart.`);
    byName.set(read.name, read.tool);
    wire.push(read.wire);
  }
  return { byName, wire };
}

function readTool(offer: unknown): { name: string; tool: RunnerTool; wire: ChatCompletionTool } {
  const fn = isRecord(offer) && isRecord(offer.function) ? offer.function : undefined;
  const internals = toolInternals(offer);
  if (internals?.run && typeof fn?.name === "string") return { name: fn.name, tool: internals, wire: offer as ChatCompletionTool };
  // zodFunction() marks its tools with `$brand`, `$parseRaw` and `$callback`, not enumerable (JSON leaves them out).
  const parse = openAIParser(offer, "auto-parseable-tool");
  if (parse && typeof fn?.name === "string") {
    const { $callback } = offer as { $callback?: unknown };
    if (typeof $callback !== "function") throw new ModelGateError(NEEDS_A_FUNCTION.replace("%s", `"${fn.name}" (zodFunction() was given no \`function\`)`));
    return { name: fn.name, tool: { openai: { function: $callback as OpenAIFunction["function"], parse } }, wire: offer as ChatCompletionTool };
  }
  if (fn && typeof fn.function === "function") {
    const name = typeof fn.name === "string" && fn.name !== "" ? fn.name : fn.function.name;
    if (!name) throw new ModelGateError('runTools(): a tool in openai\'s shape needs a name: give `function.name`, or a named function.');
    if (fn.parse !== undefined && typeof fn.parse !== "function") throw new ModelGateError(`runTools() "${name}": \`parse\` must be a function.`);
    const definition: Record<string, unknown> = { name, parameters: fn.parameters };
    if (fn.description !== undefined) definition.description = fn.description;
    if (fn.strict !== undefined) definition.strict = fn.strict;
    const parse = fn.parse as OpenAIFunction["parse"];
    return { name, tool: { openai: { function: fn.function as OpenAIFunction["function"], parse } }, wire: { type: "function", function: definition as unknown as ChatCompletionTool["function"] } };
  }
  throw new ModelGateError(NEEDS_A_FUNCTION.replace("%s", typeof fn?.name === "string" ? `"${fn.name}"` : "every tool"));
}
