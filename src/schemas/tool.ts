import { argumentError, invalidArgument } from "../errors/invalid-argument.ts";
import { resolveSchema, type ResolvedSchema } from "./schema-source.ts";
import { NAME_PATTERN, TOOL_INTERNALS } from "./tool-internals.ts";
import type { SchemaOutput, StructuredSchema } from "./standard-schema.ts";
import type { ChatCompletionMessageToolCall } from "../types/chat-completion.ts";
import type { ChatCompletionTool, FunctionDefinition } from "../types/chat-params.ts";

/** What a tool's `run` gets besides its arguments. */
export interface ToolRunContext {
  /** Aborted when the caller aborts the run: pass it on to `fetch` and the like. */
  signal: AbortSignal;
  /** The step (chat completion) of the run that asked for this call, from 1. */
  step: number;
  /** The call as the model made it. */
  call: ChatCompletionMessageToolCall;
}

/** The implementation behind a `tool()` definition: its schema and, if given, `run`. */
export interface ToolInternals<Args = unknown, Result = unknown> {
  readonly schema: ResolvedSchema;
  // A method, so that a tool of any arguments is a `Tool` (methods are compared bivariantly).
  run?(args: Args, context: ToolRunContext): Result | Promise<Result>;
}

/** A `tool()` tool with `run`: what `runTools()` takes (it calls `run` itself). */
export interface RunnableTool<Name extends string = string, Args = unknown, Result = unknown> extends Tool<Name, Args, Result> {
  readonly [TOOL_INTERNALS]: ToolInternals<Args, Result> & {
    // A method, so that a tool of any arguments is a `RunnableTool` (methods are compared bivariantly).
    /** The `run` given to `tool()`: what the runner calls with the checked arguments. */
    run(args: Args, context: ToolRunContext): Result | Promise<Result>;
  };
}

/**
 * A function tool made by `tool()`: the wire definition `{ type: "function", function }` that
 * `tools` takes, carrying its schema (for `parsed_arguments` and for checking arguments) and
 * its `run` out of sight, on a property `JSON.stringify` skips. `function.parameters` is the
 * library's JSON Schema; the SDK sends it closed, with `strict` set (see `ToolDefinition.strict`).
 */
export interface Tool<Name extends string = string, Args = unknown, Result = unknown> extends ChatCompletionTool {
  function: FunctionDefinition & { name: Name; parameters: Record<string, unknown> };
  readonly [TOOL_INTERNALS]: ToolInternals<Args, Result>;
}

/** What `tool()` takes. */
export interface ToolDefinition<Name extends string, Parameters extends StructuredSchema, Result> {
  /** The function's name, as the model calls it: 1–64 of `[A-Za-z0-9_-]`. */
  name: Name;
  /** What the tool does and when to use it: the model reads this to decide. */
  description?: string | undefined;
  /** The arguments: a Standard Schema with JSON Schema (Zod 4, ArkType, Valibot through its adapter) or `jsonSchema(...)`. */
  parameters: Parameters;
  /**
   * Runs a call: gets the validated arguments, returns a string (sent as is) or any JSON value.
   * Used by `runTools()`; a tool without it can still be offered to `create()` and `parse()`.
   */
  run?: ((args: SchemaOutput<Parameters>, context: ToolRunContext) => Result | Promise<Result>) | undefined;
  /**
   * Ask for arguments that follow the schema exactly (OpenAI's strict mode). When it is not
   * given, the tool is sent (by `create()`, `parse()` and `runTools()`) with `strict: true`
   * whenever strict mode can take its schema as sent: every object closed (an object schema
   * silent on `additionalProperties` goes out with `additionalProperties: false`) and requiring
   * all its properties, every keyword one strict mode supports; else `strict: false`.
   */
  strict?: boolean | undefined;
}

/**
 * Defines a function tool from a schema: offered in `tools` (of `create()`, `parse()` or
 * `runTools()`, which send it closed and, unless `strict` is given, strict whenever strict mode
 * takes its schema), its calls get `parsed_arguments` in `parse()`, and `runTools()` runs it.
 *
 * ```ts
 * const getWeather = tool({
 *   name: "get_weather",
 *   description: "Current weather in a city",
 *   parameters: z.object({ city: z.string() }),
 *   run: async ({ city }) => ({ city, celsius: 21 }),
 * });
 * ```
 * @throws ModelGateError when the name is not 1–64 of `[A-Za-z0-9_-]`, or `parameters` is not a
 *   schema the SDK can send as JSON Schema (the message says what is missing).
 */
export function tool<const Name extends string, Parameters extends StructuredSchema, Result = unknown>(
  definition: ToolDefinition<Name, Parameters, Result> & { run: NonNullable<ToolDefinition<Name, Parameters, Result>["run"]> },
): RunnableTool<Name, SchemaOutput<Parameters>, Awaited<Result>>;
export function tool<const Name extends string, Parameters extends StructuredSchema, Result = unknown>(
  definition: ToolDefinition<Name, Parameters, Result>,
): Tool<Name, SchemaOutput<Parameters>, Awaited<Result>>;
export function tool<const Name extends string, Parameters extends StructuredSchema, Result = unknown>(
  definition: ToolDefinition<Name, Parameters, Result>,
): Tool<Name, SchemaOutput<Parameters>, Awaited<Result>> {
  if (typeof definition !== "object" || definition === null) {
    throw invalidArgument("definition", "an object such as { name, description, parameters, run }", definition, "tool()");
  }
  const { name, description, parameters, run, strict } = definition as Partial<ToolDefinition<Name, Parameters, Result>>;
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw invalidArgument("name", "1–64 letters, digits, _ or -", name, "tool()");
  }
  const where = `tool() "${name}"`;
  if (run !== undefined && typeof run !== "function") throw invalidArgument("run", "a function", run, where);
  if (description !== undefined && typeof description !== "string") throw invalidArgument("description", "a string", description, where);
  if (strict !== undefined && typeof strict !== "boolean") throw invalidArgument("strict", "true or false", strict, where);
  const schema = resolveSchema(parameters);
  if (typeof schema === "string") throw argumentError("parameters", schema, where);
  // Arguments are named: a function's parameters are an object (ArkType roots a recursive one in a $ref).
  const root = schema.jsonSchema;
  const rootType = root.type;
  const isObject = rootType === "object" || (rootType === undefined && ("properties" in root || "$ref" in root));
  if (!isObject) {
    const got = `a schema ${rootType === undefined ? "that is not an object schema" : `of type ${JSON.stringify(rootType)}`}`;
    throw argumentError("parameters", `must describe an object (arguments are passed by name); got ${got}`, where);
  }
  const definitionOnWire: ChatCompletionTool = {
    type: "function",
    function: {
      name,
      ...(description === undefined ? {} : { description }),
      parameters: schema.jsonSchema,
      ...(strict === undefined ? {} : { strict }),
    },
  };
  Object.defineProperty(definitionOnWire, TOOL_INTERNALS, { value: { schema, run } });
  return definitionOnWire as Tool<Name, SchemaOutput<Parameters>, Awaited<Result>>;
}
