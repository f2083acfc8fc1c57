// How chat completions read their answers: chat's own rules, kept out of the generic pipeline.
import { learnFrom, type GatewayInfo } from "../../gateway/info.ts";
import { APIConnectionError } from "../../errors/connection-errors.ts";
import { errorFromBody, type ErrorContext } from "../../errors/from-body.ts";
import { isRecord } from "../../internal/values.ts";
import type { RequestSpec } from "../../pipeline/request.ts";
import type { EndRules } from "../../streaming/chunk-events.ts";
import { readResponseMessage } from "../../streaming/response-message.ts";

/**
 * A non-streamed chat answer as `create()` gives it: a provider's `reasoning_content` read as
 * `message.reasoning`, a `content` sent as a list of parts read as its text (the list kept as
 * `message.content_parts`), and what the gateway did kept in `gateway`. All but the text are
 * added as non-enumerable properties, so `JSON.stringify(completion)` is the wire body but for
 * such a `content`.
 */
export function decodeChatAnswer(data: unknown, gateway: GatewayInfo, context: ErrorContext): unknown {
  // A lone choice object instead of a list is read as a list of one, as in a stream.
  if (isRecord(data) && isRecord(data.choices)) data.choices = [data.choices];
  // An empty body, `null` or an object without choices passes for no answer, never for one.
  if (!isRecord(data) || !Array.isArray(data.choices)) throw new APIConnectionError("The answer has no `choices`: it was cut, or is no chat completion.");
  for (const choice of data.choices) {
    // A choice that carries an `error` (OpenRouter's `choices[].error`) is that error, as in a stream.
    if (isRecord(choice) && choice.error) throw errorFromBody(undefined, choice, context);
    const message: unknown = isRecord(choice) ? choice.message : undefined;
    // Read as a streamed delta is: `reasoning_content`, a list of content parts.
    if (isRecord(message)) readResponseMessage(message);
  }
  // Always the SDK's own: a `gateway` field in the body is the server's word, and budgets read
  // cost and attempts from this one (a body saying `"gateway": { "cost": 0 }` would pass them).
  learnFrom(gateway, data);
  Object.defineProperty(data, "gateway", { value: gateway, configurable: true, enumerable: false });
  return data;
}

/**
 * The events a whole chat completion answered to `stream: true` stands for (a proxy's cache, a
 * provider that does not stream; API.md, Stream): one `chat.completion.chunk` whose choices carry
 * the message as `delta` (tool calls given their position as `index` where they have none),
 * `finish_reason` and `logprobs`, with the completion's `usage` and other fields, then `[DONE]`.
 * `undefined` for JSON that is no completion (no `choices` list).
 */
export function wholeCompletionEvents(data: unknown): string | undefined {
  if (!isRecord(data) || !Array.isArray(data.choices)) return undefined;
  const choices = data.choices.map((choice: unknown) => {
    if (!isRecord(choice)) return choice;
    const { message, ...rest } = choice;
    const delta: Record<string, unknown> = isRecord(message) ? { ...message } : {};
    if (Array.isArray(delta.tool_calls)) delta.tool_calls = delta.tool_calls.map((call: unknown, index) => (isRecord(call) ? { index, ...call } : call));
    return { ...rest, delta };
  });
  return `data: ${JSON.stringify({ ...data, object: "chat.completion.chunk", choices })}\n\ndata: [DONE]\n\n`;
}

/**
 * What a streamed chat answer must have shown before a close without `[DONE]` counts as its
 * end, read from the request (an object whose `stream` is `true`): the usage chunk when
 * `stream_options.include_usage` asked for it; and the `audio.format` given to each choice's
 * first audio fragment; and with `n`, choices 0 to n − 1 all finished.
 */
export function chatStreamRules(body: { stream_options?: unknown; audio?: unknown; n?: unknown }): EndRules {
  const format = (body.audio as { format?: unknown } | null | undefined)?.format;
  return {
    requireUsage: (body.stream_options as { include_usage?: unknown } | null | undefined)?.include_usage === true,
    audioFormat: typeof format === "string" ? format : undefined,
    choiceCount: typeof body.n === "number" ? body.n : undefined,
  };
}

/**
 * How the answer to a chat request is read, by what the request asked for: with `stream: true`,
 * as a stream of chunks under its end rules (a whole completion sent instead read as a stream of
 * one chunk); otherwise as a whole completion.
 */
export function chatAnswerReading(body: unknown): Pick<RequestSpec, "response" | "streamRules" | "wholeAnswer" | "decode"> {
  if ((body as { stream?: unknown } | null | undefined)?.stream !== true) return { decode: decodeChatAnswer };
  return { response: "sse", streamRules: chatStreamRules(body as object), wholeAnswer: wholeCompletionEvents };
}
