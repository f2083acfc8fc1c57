// `parse()`'s implementation, loaded on its first call through `loadStructured()`.
import { isRecord, outcomeOf, sendableTools, type APIPromise, type Completions, type Outcome, type RequestOptions, type Requester, type Stream } from "../core.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsBase } from "../types/index.ts";
import { parseCompletion } from "./parse-completion.ts";
import { planRequest } from "./plan.ts";
import { structuredStream } from "./structured-stream.ts";


/**
 * `client.chat.completions.parse()`: sends the request the way `structuredOutput` says, through
 * `create()` (so auth, retries, timeouts, budgets and errors are the same), and reads the answer.
 */
export async function parseOutcome(client: Requester, completions: Completions, params: unknown, options: unknown): Promise<Outcome<unknown>> {
  // The options go on to create() as they came (it ignores `structuredOutput`, parse()'s own, and
  // names any mistake): a copy would keep only own enumerable fields, and an inherited or getter
  // `maxCost` would be dropped, the call sent without its budget.
  const callOptions = isRecord(options) ? options : {};
  const plan = planRequest(params, callOptions.structuredOutput, client.redact);
  // Checked by create() before any reply is read: a signal the pipeline takes.
  plan.signals.push(callOptions.signal as AbortSignal | null | undefined);
  const call: APIPromise<ChatCompletion | Stream<ChatCompletionChunk>> = completions.create(plan.body as ChatCompletionCreateParamsBase, options as RequestOptions);
  return outcomeOf(call, plan.stream, (data) =>
    plan.stream ? structuredStream(data as Stream<ChatCompletionChunk>, plan) : parseCompletion(data as ChatCompletion, plan),
  );
}

/**
 * `create()` given `tool()` tools: the same call, with each of them as it is sent (closed, with
 * `strict` set: see `sendableTools()`). Loaded here because the tools' schemas are read here.
 */
export function createWithTools(completions: Completions, params: ChatCompletionCreateParamsBase, options: unknown): Promise<Outcome<unknown>> {
  const body = { ...params, tools: sendableTools(params.tools) } as ChatCompletionCreateParamsBase;
  return outcomeOf(completions.create(body, options as RequestOptions), params.stream === true);
}
