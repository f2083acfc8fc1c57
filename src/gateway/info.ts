import { redactValue, type Redact } from "../internal/redact.ts";
import { isRecord } from "../internal/values.ts";
import type { CompletionUsage } from "../types/chat-completion.ts";

/**
 * What the gateway did for one call: on a completion (`completion.gateway`, not enumerable, so
 * `JSON.stringify(completion)` is unchanged), on a stream (`stream.gateway`, filled in as
 * chunks arrive) and on every `APIError` the SDK throws (`error.gateway`, what was known when
 * the call failed).
 */
export interface GatewayInfo {
  /** The model the call asked for, e.g. `"auto"`. */
  requestedModel: string | null;
  /** The model that answered (for a stream, from its first chunk). */
  model: string | null;
  /** The provider that served it, e.g. `"openai"`. */
  provider: string | null;
  /** The generation's id: an `x-generation-id` header, else the completion's `id`. */
  generationID: string | null;
  /** The `x-request-id` response header. */
  requestID: string | null;
  /** HTTP attempts made: retries of every kind included. */
  attempts: number;
  /**
   * What the call cost in USD (`usage.cost`, or an `x-modelgate-cost` header), when it is a
   * finite number from 0; `null` when the gateway said nothing (or nothing that is a cost).
   */
  cost: number | null;
  /** Token counts, when the gateway reported them (for a stream, from its usage chunk). */
  usage: CompletionUsage | null;
}

/**
 * The info known before any body is read: the request's model and the response's headers,
 * cut by `redact` (a server may echo anything in a header, the key included).
 */
export function gatewayInfo(requestBody: unknown, headers: Headers | undefined, attempts: number, redact: Redact = (text) => text): GatewayInfo {
  const header = (name: string) => {
    const value = headers?.get(name);
    return value == null ? null : redact(value);
  };
  // Only a plain decimal number of USD counts: anything else is not something the gateway said.
  const costHeader = headers?.get("x-modelgate-cost");
  const cost = costHeader && /^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(costHeader) ? Number(costHeader) : NaN;
  return {
    requestedModel: isRecord(requestBody) && typeof requestBody.model === "string" ? requestBody.model : null,
    model: null,
    provider: null,
    generationID: header("x-generation-id"),
    requestID: header("x-request-id"),
    attempts,
    cost: Number.isFinite(cost) ? cost : null,
    usage: null,
  };
}

/**
 * Fills in what a completion or a chunk says. The first value seen for each field stays (a
 * header's generation id wins over the body's `id`); usage and its cost come whenever sent.
 * The texts are cut by `redact`: a chunk may echo anything, and a stream's info goes into the
 * errors it throws.
 */
export function learnFrom(info: GatewayInfo, data: Record<string, unknown>, redact: Redact = (text) => text): void {
  info.model ??= textOr(data.model, redact);
  info.provider ??= textOr(data.provider, redact);
  info.generationID ??= textOr(data.id, redact);
  const usage = data.usage;
  if (isRecord(usage)) {
    info.usage = redactValue(usage, redact) as CompletionUsage;
    // A charge is never negative nor infinite: such a number is not a cost (a budget would grow by it).
    if (Number.isFinite(usage.cost) && (usage.cost as number) >= 0) info.cost = usage.cost as number;
  }
}

function textOr(value: unknown, redact: Redact): string | null {
  return typeof value === "string" && value !== "" ? redact(value) : null;
}
