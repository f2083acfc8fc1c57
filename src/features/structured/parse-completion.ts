import { ModelGateError } from "../../errors/index.ts";
import { StructuredOutputError } from "../../errors/structured-output-error.ts";
import { redactThrown } from "../../internal/redact-thrown.ts";
import { redactValue, type Redact } from "../../internal/redact.ts";
import { isRecord } from "../../internal/values.ts";
import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import type { ResolvedSchema, SchemaIssue, Validation } from "../../schemas/schema-source.ts";
import { argumentsText, argumentsValue } from "./tool-arguments.ts";
import { describeIssue, readValidation, SchemaResultError, schemaIssues } from "./validation.ts";
import type { ChatCompletion, ChatCompletionChoice } from "../../types/index.ts";
import type { ParsedChatCompletion } from "../../types/structured.ts";
import { PartialJSONParser } from "./partial-json.ts";
import type { AnswerPlan, RequestPlan } from "./plan.ts";

/**
 * Adds `parsed` to every choice of a reply, and `parsed_arguments` to the calls of the tools
 * that have a way to parse them (see `toolParsers()`): the one place a reply is checked, for
 * `parse()` and for a structured stream's end.
 * @throws StructuredOutputError when an answer is cut by the token limit, is not JSON, or is
 *   rejected by its schema; a tool call's arguments likewise.
 */
export async function parseCompletion(completion: ChatCompletion, plan: RequestPlan): Promise<ParsedChatCompletion<unknown>> {
  if (!isRecord(completion) || !Array.isArray(completion.choices)) {
    throw new ModelGateError("The reply has no `choices` to parse.");
  }
  for (const choice of completion.choices) {
    const message = choice?.message as (ChatCompletionChoice["message"] & { parsed?: unknown }) | undefined;
    if (!isRecord(message)) throw new ModelGateError("A choice of the reply has no `message` to parse.");
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const schema = plan.tools.get(call?.function?.name);
      if (!schema) continue;
      const what = `The arguments of the "${call.function.name}" call`;
      const args = readArguments(call.function.arguments, what, completion, plan);
      (call.function as { parsed_arguments?: unknown }).parsed_arguments = await check(args.value, args.text, schema, what, completion, plan);
    }
    message.parsed = plan.answer ? await readAnswer(choice, plan, completion) : null;
  }
  return completion as unknown as ParsedChatCompletion<unknown>;
}

async function readAnswer(choice: ChatCompletionChoice, plan: RequestPlan, completion: ChatCompletion): Promise<unknown> {
  const answer = plan.answer as AnswerPlan;
  const { message } = choice;
  // A refusal is an answer, not a failure: `parsed` is null and `refusal` says why.
  if (typeof message.refusal === "string" && message.refusal !== "") return null;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  // In "tool" mode the answer is the arguments of the forced call, read as any call's are.
  const answerCall = answer.toolName === undefined ? undefined : calls.find((call) => call?.function?.name === answer.toolName);
  const text = answer.toolName === undefined ? message.content : answerCall?.function.arguments;
  if (choice.finish_reason === "length") {
    const problem = 'The reply was cut by the token limit (finish_reason "length") before the answer was complete';
    throw fail(`${problem}: raise max_tokens (or max_completion_tokens).`, [{ message: problem }], text, completion, plan);
  }
  if (answerCall) {
    const args = readArguments(text, "The answer", completion, plan);
    // An answer that is not an object travels as `{ value }`.
    return check(answer.wrapped ? (args.value as { value?: unknown }).value : args.value, args.text, answer.schema, "The answer", completion, plan);
  }
  // A reply that calls the caller's own tools instead of answering yet: no answer to parse,
  // the calls are what to act on (with `parsed_arguments` for `tool()` tools).
  if (answer.toolName === undefined && (text === null || text === undefined || text === "") && calls.length > 0) return null;
  if (typeof text !== "string" || text.trim() === "") {
    const problem = answer.toolName === undefined ? "The reply has no content to parse" : `The model did not call the "${answer.toolName}" function with the answer`;
    throw fail(`${problem}.`, [{ message: problem }], text, completion, plan);
  }
  return check(parseJSON(text, "The answer", completion, plan), text, answer.schema, "The answer", completion, plan);
}

/**
 * A call's arguments as `runTools()` reads them (see `argumentsText()`, `argumentsValue()`): an
 * object as its JSON, none or blank text as `{}`, and always a JSON object of named arguments.
 * The `StructuredOutputError` says why they cannot be read.
 */
function readArguments(given: unknown, what: string, completion: ChatCompletion, plan: RequestPlan): { text: string; value: Record<string, unknown> } {
  const text = argumentsText(given);
  if (text === undefined) {
    const problem = `${what} cannot be read: the call's arguments are a value JSON cannot hold`;
    throw fail(`${problem}.`, [{ message: problem }], null, completion, plan);
  }
  const value = argumentsValue(text, (json) => parseJSON(json, what, completion, plan));
  if (!isRecord(value)) {
    const notNamed = `${what} is not a JSON object: a function's arguments are named`;
    throw fail(`${notNamed}.`, [{ message: notNamed }], text, completion, plan);
  }
  return { text, value };
}

/** `text` parsed as JSON; the `StructuredOutputError` says where it stops being JSON. */
function parseJSON(text: unknown, what: string, completion: ChatCompletion, plan: RequestPlan): unknown {
  try {
    if (typeof text !== "string") throw new SyntaxError(`expected JSON text, got ${text === null ? "null" : typeof text}`);
    const parser = new PartialJSONParser();
    parser.push(text);
    return parser.end();
  } catch (error) {
    const problem = `${what} is not valid JSON: ${(error as Error).message}`;
    throw fail(`${problem}.`, [{ message: problem }], text, completion, plan);
  }
}

/**
 * `value` as `schema` returns it; the `StructuredOutputError` lists the schema's issues. An
 * openai helper's `$parseRaw` gets the value as JSON text (the JSON the model wrote, without a
 * Markdown fence or the `{ value }` wrapper of "tool" mode). The schema's own code may take
 * its time (an async refinement that asks a service): the call's abort ends the wait at once,
 * with `APIUserAbortError`.
 */
async function check(value: unknown, text: unknown, schema: ResolvedSchema, what: string, completion: ChatCompletion, plan: RequestPlan): Promise<unknown> {
  const { parseRaw, validate } = schema;
  if (!parseRaw && !validate) return value;
  const result = await unlessAborted(verdict(value, text, schema, what, completion, plan), ...plan.signals);
  if (!result.issues) return result.value;
  const listed = result.issues.slice(0, 3).map(describeIssue).join("; ");
  const others = result.issues.length - 3 + (result.omitted ?? 0);
  const more = others > 0 ? ` (and ${others} more)` : "";
  throw fail(`${what} does not match the schema: ${listed}${more}.`, result.issues, text, completion, plan, result.cause);
}

/** What the schema says of `value`: its value or its issues (with what it threw, if it threw them). */
async function verdict(value: unknown, text: unknown, { parseRaw, validate }: ResolvedSchema, what: string, completion: ChatCompletion, plan: RequestPlan): Promise<Validation & { cause?: unknown }> {
  try {
    return parseRaw ? { value: await parseRaw(JSON.stringify(value)) } : readValidation(await (validate as NonNullable<typeof validate>)(value));
  } catch (error) {
    // openai's helpers throw the schema's own error for a value it rejects (a ZodError, with `issues`).
    // Read as returned issues are (the first ones: a thrown list's length is the schema's to claim).
    const thrown: unknown[] = isRecord(error) && Array.isArray(error.issues) ? error.issues : [];
    if (isRecord(thrown[0]) && typeof thrown[0].message === "string") return { ...schemaIssues(thrown), cause: error };
    // A schema whose own code throws (a transform, a refinement) rejects this value all the same;
    // one whose validate returns no Standard Schema result leaves it unchecked.
    const problem =
      error instanceof SchemaResultError
        ? `${what} could not be checked: ${error.message}`
        : `${what} was rejected by the schema, which threw: ${error instanceof Error ? error.message : String(error)}`;
    throw fail(`${problem}.`, [{ message: problem }], text, completion, plan, error);
  }
}

/**
 * The error, with the API key cut out of everything it carries: a model can echo anything
 * (a prompt that held the key, a header it saw), as a value or as a record key (`issues[].path`),
 * and schema libraries quote the values they reject, in issues and in what they throw (`cause`).
 */
function fail(message: string, issues: SchemaIssue[], content: unknown, completion: ChatCompletion, plan: RequestPlan, cause?: unknown): Error {
  const { redact } = plan;
  return new StructuredOutputError(redact(message), {
    issues: issues.map((issue) => redactIssue(issue, redact)),
    content: typeof content === "string" ? redact(content) : null,
    completion: withGateway(redactValue(completion, redact) as ChatCompletion, completion, redact),
    cause: redactThrown(cause, redact),
  });
}

function redactIssue(issue: SchemaIssue, redact: Redact): SchemaIssue {
  const message = redact(issue.message);
  if (!issue.path) return { message };
  return { message, path: issue.path.map((segment) => (typeof segment === "string" ? redact(segment) : segment)) };
}

/** The copy keeps what the gateway did (not enumerable, as on the original): the call was made and charged. */
function withGateway(copy: ChatCompletion, original: ChatCompletion, redact: Redact): ChatCompletion {
  if (original.gateway) Object.defineProperty(copy, "gateway", { value: redactValue(original.gateway, redact), configurable: true });
  return copy;
}
