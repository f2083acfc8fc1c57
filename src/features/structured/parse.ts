// `parse()`'s implementation, loaded on its first call through `loadStructured()`.
import type { RequestOptions } from "../../client/options.ts";
import { isRecord } from "../../internal/values.ts";
import type { APIPromise, Outcome } from "../../pipeline/api-promise.ts";
import { outcomeOf } from "../../pipeline/outcome-of.ts";
import type { Completions } from "../../resources/chat/completions.ts";
import type { Requester } from "../../resources/requester.ts";
import { sendableTools } from "./strict-mode.ts";
import type { Stream } from "../../streaming/stream.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsBase } from "../../types/index.ts";
import { parseCompletion } from "./parse-completion.ts";
import { planRequest } from "./plan.ts";
import { structuredStream } from "./structured-stream.ts";

// What `chat.completions.stream()`'s helper builds on, loaded beside it (features/chat-stream/
// stream-helper.ts): the request's plan, a done event's check, and the parser of deltas.
export { parseCompletion, planRequest };
export { PartialJSONParser } from "./partial-json.ts";


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
  return outcomeOf(call, (data) =>
    plan.stream ? structuredStream(data as Stream<ChatCompletionChunk>, plan) : parseCompletion(data as ChatCompletion, plan),
  );
}

/**
 * `create()` given `tool()` tools: the same call, with each of them as it is sent (closed, with
 * `strict` set: see `sendableTools()`). Loaded here because the tools' schemas are read here.
 */
export function createWithTools(completions: Completions, params: ChatCompletionCreateParamsBase, options: unknown): Promise<Outcome<unknown>> {
  const body = { ...params, tools: sendableTools(params.tools) } as ChatCompletionCreateParamsBase;
  return outcomeOf(completions.create(body, options as RequestOptions));
}
