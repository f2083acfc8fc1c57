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
  // `structuredOutput` is parse()'s own; anything that is not an object goes on to create(), which names the mistake.
  const { structuredOutput, ...requestOptions } = isRecord(options) ? options : { structuredOutput: undefined };
  const plan = planRequest(params, structuredOutput, client.redact);
  // Checked by create() before any reply is read: a signal the pipeline takes.
  plan.signals.push(requestOptions.signal as AbortSignal | null | undefined);
  const call: APIPromise<ChatCompletion | Stream<ChatCompletionChunk>> = completions.create(
    plan.body as ChatCompletionCreateParamsBase,
    (isRecord(options) ? requestOptions : options) as RequestOptions,
  );
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
