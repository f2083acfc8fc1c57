import { ModelGateError } from "../../errors/index.ts";
import { argumentError, invalidArgument } from "../../errors/invalid-argument.ts";
import { redactThrown } from "../../internal/redact-thrown.ts";
import { redactNothing, type Redact } from "../../internal/redact.ts";
import { isRecord } from "../../internal/values.ts";
import { assertChatParams } from "../../resources/chat/validate.ts";
import { resolveSchema, type ResolvedSchema } from "../../schemas/schema-source.ts";
import { closeSchema, sendableTools } from "./strict-mode.ts";
import { openAIParser, toolParsers } from "./openai-helpers.ts";
import type { StructuredOutputMode } from "../../types/structured.ts";

/** Where the answer is, and how to check it. */
export interface AnswerPlan {
  schema: ResolvedSchema;
  /** The forced function whose arguments are the answer (`"tool"` mode); else the answer is the content. */
  toolName: string | undefined;
  /** The schema was sent wrapped as `{ value }`: function arguments must be an object. */
  wrapped: boolean;
}

/** What `parse()` sends, and how it reads the reply. */
export interface RequestPlan {
  /** The params for `create()`. */
  body: unknown;
  stream: boolean;
  /** `undefined` when no `response_format` was given (`parsed` is then `null`). */
  answer: AnswerPlan | undefined;
  /** How the calls of each offered tool get `parsed_arguments`, by tool name (see `toolParsers()`). */
  tools: Map<string, ResolvedSchema>;
  /** Cuts the API key out of an error's text (a model may echo anything, the key included). */
  redact: Redact;
  /**
   * The call's signals (the caller's, a stream's controller): checking the reply stops waiting
   * on the schema when one aborts. None from `planRequest()`: its callers add theirs.
   */
  signals: (AbortSignal | null | undefined)[];
}

const MODES: readonly StructuredOutputMode[] = ["json_schema", "tool", "json_object"];

/** The capability a routed model needs for each mode, added to `route.capabilities` for `model: "auto"`. */
const CAPABILITY: Record<StructuredOutputMode, string> = { json_schema: "structured_outputs", tool: "tools", json_object: "json" };

const DEFAULT_NAME = "response";

/**
 * Turns `parse()`'s params into `create()`'s for the chosen mode. Params that are not even an
 * object go to `create()` as they are, which names the mistake.
 */
export function planRequest(params: unknown, mode: unknown = "json_schema", redact: Redact = redactNothing): RequestPlan {
  if (!MODES.includes(mode as StructuredOutputMode)) throw invalidArgument("structuredOutput", `one of ${MODES.map((name) => `"${name}"`).join(", ")}`, mode);
  // The caller's params are checked as the caller wrote them, before a mode adds to them.
  assertChatParams(params);
  if (!isRecord(params)) return { body: params, stream: false, answer: undefined, tools: new Map(), redact, signals: [] };
  if (params.tools != null && !Array.isArray(params.tools)) throw invalidArgument("tools", "an array of tools", params.tools);
  // Read off the caller's own objects: openai's helpers keep `$parseRaw` where a copy loses it.
  const tools = readSchema("tools", redact, () => toolParsers(params.tools));
  const stream = params.stream === true;
  const format = params.response_format;
  // `tool()` tools go out closed, with `strict` set (see `sendableTools()`).
  const offered = readSchema("tools", redact, () => sendableTools(params.tools));
  const body: Record<string, unknown> = { ...params };
  if (offered !== params.tools) body.tools = offered;
  if (format === undefined || format === null) return { body, stream, answer: undefined, tools, redact, signals: [] };

  const given = readSchema("response_format", redact, () => readFormat(format));
  delete body.response_format;
  const name = given.schema.name ?? DEFAULT_NAME;
  // A schema object's JSON Schema goes out closed; a `json_schema` form as it was written.
  const sent = given.sendAsGiven ? { schema: given.schema.jsonSchema, strict: false } : readSchema("response_format", redact, () => closeSchema(given.schema.jsonSchema));
  const schema = sent.schema;
  let answer: AnswerPlan = { schema: given.schema, toolName: undefined, wrapped: false };

  if (mode === "json_schema") {
    body.response_format = given.sendAsGiven ? format : { type: "json_schema", json_schema: { name, schema, strict: sent.strict } };
  } else if (mode === "json_object") {
    body.response_format = { type: "json_object" };
    if (Array.isArray(params.messages)) body.messages = [{ role: "system", content: readSchema("response_format", redact, () => schemaInstruction(schema)) }, ...params.messages];
  } else {
    const others: unknown[] = Array.isArray(offered) ? offered : [];
    if (others.some((offer) => isRecord(offer) && isRecord(offer.function) && offer.function.name === name)) {
      throw argumentError("tools", `already has a function named "${name}", the name structuredOutput "tool" sends the schema under: name the schema otherwise (jsonSchema(schema, { name }))`);
    }
    if (params.tool_choice !== undefined && params.tool_choice !== null) {
      throw argumentError("tool_choice", 'cannot be given with structuredOutput "tool", which forces the call of the answer function');
    }
    // Function arguments are always an object: any other answer travels as `{ value }`.
    const wrapped = schema.type !== "object";
    // Closed (again, for a schema object: closing is idempotent), and `strict` judged on what is sent.
    const parameters = readSchema("response_format", redact, () => closeSchema(wrapped ? wrapInObject(schema) : schema));
    body.tools = [
      ...others,
      { type: "function", function: { name, description: "Give the answer: call this function with the answer as its arguments.", parameters: parameters.schema, strict: parameters.strict } },
    ];
    body.tool_choice = { type: "function", function: { name } };
    answer = { schema: given.schema, toolName: name, wrapped };
  }

  if (params.model === "auto") addCapability(body, params.route, CAPABILITY[mode as StructuredOutputMode]);
  return { body, stream, answer, tools, redact, signals: [] };
}

/**
 * What `read` makes of a schema the caller gave under `param`; when reading it throws (a getter
 * or a Proxy trap of the caller's that throws, a nesting deeper than the stack can walk), the
 * ModelGateError that says so, with what was thrown as its `cause`, the key cut out of both.
 * The SDK's own errors (a schema it cannot send) pass as they are.
 */
function readSchema<T>(param: string, redact: Redact, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ModelGateError) throw error;
    const cause = redactThrown(error, redact);
    const said = cause instanceof Error ? cause.message : String(cause);
    const problem = error instanceof RangeError ? `is nested too deeply to be read (${said})` : `cannot be read, reading it threw: ${said}`;
    const failure = new ModelGateError(`\`${param}\` ${problem}.`, { cause });
    (failure as { param: string }).param = param;
    throw failure;
  }
}

/**
 * `{ value: schema }` as a JSON Schema. The schema's definitions move up to the new root and
 * its references follow, so that `#/$defs/...` still resolves and `#` (a recursive root)
 * points at `value`.
 */
function wrapInObject(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema, $defs, definitions, ...inner } = schema;
  const moved = (reference: string) =>
    reference === "#" || (reference.startsWith("#/") && !reference.startsWith("#/$defs/") && !reference.startsWith("#/definitions/"))
      ? `#/properties/value${reference.slice(1)}`
      : reference;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isRecord(node)) return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? moved(value) : rewrite(value)]));
  };
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: "object",
    properties: { value: rewrite(inner) },
    required: ["value"],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs: rewrite($defs) }),
    ...(definitions === undefined ? {} : { definitions: rewrite(definitions) }),
  };
}

/**
 * The schema behind a `response_format`, and whether it is sent as the caller wrote it. A
 * `json_schema` form made by openai's helpers is sent as it is too (openai's helper has already
 * made it strict), and its answer read by its own `$parseRaw`.
 */
function readFormat(format: unknown): { schema: ResolvedSchema; sendAsGiven: boolean } {
  if ((typeof format === "object" || typeof format === "function") && format !== null && "~standard" in format) {
    const schema = resolveSchema(format);
    if (typeof schema === "string") throw argumentError("response_format", schema);
    return { schema, sendAsGiven: false };
  }
  if (isRecord(format) && format.type === "json_schema" && isRecord(format.json_schema)) {
    const { name, schema } = format.json_schema;
    const parseRaw = openAIParser(format, "auto-parseable-response-format");
    return {
      schema: { jsonSchema: isRecord(schema) ? schema : {}, validate: undefined, parseRaw, name: typeof name === "string" ? name : undefined },
      sendAsGiven: true,
    };
  }
  if (isRecord(format) && format.type === "json_object") {
    return { schema: { jsonSchema: { type: "object" }, validate: undefined, name: undefined }, sendAsGiven: true };
  }
  throw invalidArgument(
    "response_format",
    'a Standard Schema with JSON Schema (Zod 4, ArkType, Valibot through toStandardJsonSchema()), jsonSchema(...), or { type: "json_schema", json_schema: { name, schema } }',
    format,
  );
}

/** The system message of the `"json_object"` mode: models without schema support still read one. */
function schemaInstruction(schema: Record<string, unknown>): string {
  return `Answer with one JSON value, and nothing else, that follows this JSON Schema:\n${JSON.stringify(schema)}`;
}

function addCapability(body: Record<string, unknown>, route: unknown, capability: string): void {
  if (route !== undefined && route !== null && !isRecord(route)) throw invalidArgument("route", "an object of routing filters", route);
  const given = isRecord(route) ? route.capabilities : undefined;
  if (given != null && !Array.isArray(given)) throw invalidArgument("route.capabilities", 'an array of capability names such as ["vision"]', given);
  const capabilities = given ?? [];
  if (!capabilities.includes(capability)) body.route = { ...route, capabilities: [...capabilities, capability] };
}
