// `parse()`'s implementation, loaded on its first call through `loadStructured()`.
import type { APIPromise, Outcome } from "../../pipeline/api-promise.ts";
import type { RequestOptions } from "../../pipeline/options.ts";
import { outcomeOf } from "../../pipeline/outcome-of.ts";
import type { Completions } from "../../resources/chat/completions.ts";
import type { Requester } from "../../resources/requester.ts";
import { sdk } from "../../streaming/lazy/shared.ts";
import type { Stream } from "../../streaming/stream.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsBase } from "../../types/index.ts";
import { parseCompletion } from "./parse-completion.ts";
import { planRequest } from "./plan.ts";
import { structuredStream } from "./structured-stream.ts";

export { install } from "./pieces.ts";

/**
 * `client.chat.completions.parse()`: sends the request the way `structuredOutput` says, through
 * `create()` (so auth, retries, timeouts, budgets and errors are the same), and reads the answer.
 */
export async function parseOutcome(client: Requester, completions: Completions, params: unknown, options: unknown): Promise<Outcome<unknown>> {
  // `structuredOutput` is parse()'s own; anything that is not an object goes on to create(), which names the mistake.
  const { structuredOutput, ...requestOptions } = sdk.isRecord(options) ? options : { structuredOutput: undefined };
  const plan = planRequest(params, structuredOutput, client.redact);
  const call: APIPromise<ChatCompletion | Stream<ChatCompletionChunk>> = completions.create(
    plan.body as ChatCompletionCreateParamsBase,
    (sdk.isRecord(options) ? requestOptions : options) as RequestOptions,
  );
  return outcomeOf(call, plan.stream, (data) =>
    plan.stream ? structuredStream(data as Stream<ChatCompletionChunk>, plan) : parseCompletion(data as ChatCompletion, plan),
  );
}
