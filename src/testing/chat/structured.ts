import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionTool, FinishReason } from "../../types/index.ts";
import { isRecord } from "../../internal/values.ts";
import type { MockFault } from "../http/faults.ts";
import { sampleSchema } from "../schema/sample.ts";
import { violateSchema } from "../schema/violate.ts";

/** How the next structured reply goes wrong, as scripted with `gateway.inject({ type: "structured", as })`. */
export type StructuredScript = Extract<MockFault, { type: "structured" }>["as"];

/** What a structured request asks for: JSON content that follows `schema`, or a forced call of `tool`. */
export type StructuredTarget = { kind: "content"; schema: unknown } | { kind: "tool"; tool: ChatCompletionTool };

/** A structured answer for one choice: JSON content, or a call whose arguments are JSON, or a refusal. */
export interface StructuredAnswer {
  text: string | null;
  refusal?: string;
  /** The forced call's name and arguments; the caller gives it an id. */
  call?: { name: string; arguments: string };
  finishReason: FinishReason;
}

/** What `json_object` gets when no instruction holds a schema: a small object, as a model asked for "JSON" writes. */
const SMALL_OBJECT = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };
/** Arguments of a function declared without `parameters`: OpenAI reads that as taking none. */
export const NO_PARAMETERS = { type: "object", properties: {}, additionalProperties: false };
/** A mock token of JSON is four characters: JSON has no spaces to count words by. */
export const JSON_CHARS_PER_TOKEN = 4;
const REFUSAL = "I'm sorry, but I can't help with that request.";
/** What follows the cut of an `invalid-json` reply: a model that lost the thread and went on in prose. */
const PROSE = "\n\nSorry, I lost my place in that JSON. In short: it depends on what you need.";
/** How many `{` of an instruction are tried as the start of a schema before giving up. */
const MAX_SCHEMA_STARTS = 32;

/**
 * What the request asks to be structured, if anything: a forced tool call (`tool_choice`
 * naming a function, or `"required"` with a single tool) first, then a `json_schema`
 * response format (its `schema`), then `json_object` (a JSON Schema found in a system or
 * developer message, as the SDK's `"json_object"` mode puts one there, or else a small object).
 */
export function structuredTarget(params: ChatCompletionCreateParamsBase): StructuredTarget | undefined {
  const tools = params.tools ?? [];
  const choice = params.tool_choice;
  // A named function only: an `allowed_tools` choice forces no one tool.
  const named = typeof choice === "object" && choice !== null && "function" in choice ? tools.find((tool) => tool.function.name === choice.function.name) : undefined;
  const forced = named ?? (choice === "required" && tools.length === 1 ? tools[0] : undefined);
  if (forced) return { kind: "tool", tool: forced };
  const format = params.response_format;
  if (format?.type === "json_schema") return { kind: "content", schema: format.json_schema.schema ?? SMALL_OBJECT };
  if (format?.type === "json_object") return { kind: "content", schema: schemaInInstructions(params.messages) ?? SMALL_OBJECT };
  return undefined;
}

/**
 * The answer for `target`: JSON generated from its schema (see `sampleSchema`), as content
 * with finish reason `stop` or as the forced call's arguments with `tool_calls`, unless
 * `script` says how it goes wrong (see `MockFault`). JSON longer than `limit` mock tokens is
 * cut there, with finish reason `length`, as a real token limit cuts it.
 */
export function planStructured(target: StructuredTarget, random: () => number, script: StructuredScript | undefined, limit: number): StructuredAnswer {
  if (script === "refusal") return { text: null, refusal: REFUSAL, finishReason: "stop" };
  const schema = target.kind === "tool" ? (target.tool.function.parameters ?? NO_PARAMETERS) : target.schema;
  let value = sampleSchema(schema, random);
  if (script === "schema-violation") value = violateSchema(schema, value);
  // `undefined` only for a value JSON cannot hold, which a schema cannot ask for; "null" keeps the type honest.
  let json = JSON.stringify(value) ?? "null";
  let finishReason: FinishReason = target.kind === "tool" ? "tool_calls" : "stop";
  if (script === "invalid-json") {
    json = cutInString(json) + PROSE;
    finishReason = "stop";
  } else if (script === "length") {
    json = json.slice(0, Math.max(1, Math.floor(json.length / 2)));
    finishReason = "length";
  } else if (Math.ceil(json.length / JSON_CHARS_PER_TOKEN) > limit) {
    json = json.slice(0, limit * JSON_CHARS_PER_TOKEN);
    finishReason = "length";
  }
  if (target.kind === "tool") return { text: null, call: { name: target.tool.function.name, arguments: json }, finishReason };
  return { text: json, finishReason };
}

/**
 * `json` cut a few characters into its first string value (or its first string, or halfway
 * when it has none), so that what follows can never close it into valid JSON.
 */
function cutInString(json: string): string {
  const value = json.indexOf(':"');
  const quote = value >= 0 ? value + 1 : json.indexOf('"');
  if (quote < 0) return json.slice(0, Math.floor(json.length / 2));
  const end = json.indexOf('"', quote + 1);
  return json.slice(0, Math.min(quote + 4, end > 0 ? end : json.length));
}

/**
 * The first JSON Schema written into a system or developer message: the first `{ ... }`
 * (braces balanced, those inside JSON strings not counted) that parses as JSON and has a
 * schema keyword. Only the first `MAX_SCHEMA_STARTS` braces are tried, so a long prompt full
 * of braces costs little.
 */
export function schemaInInstructions(messages: ChatCompletionMessageParam[]): Record<string, unknown> | undefined {
  let starts = 0;
  for (const message of messages) {
    if (message.role !== "system" && message.role !== "developer") continue;
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    for (let start = text.indexOf("{"); start >= 0 && starts < MAX_SCHEMA_STARTS; start = text.indexOf("{", start + 1), starts++) {
      // A brace that is never closed (prose, a template) may still hold a balanced schema after it.
      const end = balancedEnd(text, start);
      if (end < 0) continue;
      try {
        const value: unknown = JSON.parse(text.slice(start, end + 1));
        if (looksLikeSchema(value)) return value;
      } catch {
        // Prose in braces, or a template: the next brace may open the schema.
      }
    }
  }
  return undefined;
}

/** The index of the `}` that closes the `{` at `start`, or -1 when the text ends first. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return at;
  }
  return -1;
}

const SCHEMA_KEYWORDS = ["$schema", "type", "properties", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "items", "$defs", "definitions"];

function looksLikeSchema(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && SCHEMA_KEYWORDS.some((keyword) => Object.hasOwn(value, keyword));
}
