import { redactNothing, redactValue, type Redact } from "../internal/redact.ts";
import { isRecord } from "../internal/values.ts";
import type { CompletionUsage, GatewayInfo } from "../types/chat-completion.ts";

// Declared in src/types/ with the completion that carries it (the two refer to each other).
export type { GatewayInfo };

/**
 * The info known before any body is read: the request's model and the response's headers,
 * cut by `redact` (a server may echo anything in a header, the key included).
 */
export function gatewayInfo(requestBody: unknown, headers: Headers | undefined, attempts: number, redact: Redact = redactNothing): GatewayInfo {
  const header = (name: string) => headerText(headers, name, redact);
  // Only a plain decimal number of USD counts: anything else is not something the gateway said.
  const costHeader = headers?.get("x-modelgate-cost");
  const cost = costHeader && /^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(costHeader) ? Number(costHeader) : NaN;
  return {
    // The caller's own text, yet cut like the rest: it goes into errors, which never show the key.
    requestedModel: isRecord(requestBody) && typeof requestBody.model === "string" ? redact(requestBody.model) : null,
    model: null,
    provider: null,
    generationID: header("x-generation-id"),
    requestID: requestIDOf(headers, redact),
    attempts,
    cost: Number.isFinite(cost) ? cost : null,
    usage: null,
  };
}

/**
 * The `x-request-id` response header, cut by `redact`: the one reading of it for
 * `gateway.requestID` and `withResponse().requestID` (a proxy may echo the key in it).
 */
export function requestIDOf(headers: Headers | undefined, redact: Redact): string | null {
  return headerText(headers, "x-request-id", redact);
}

function headerText(headers: Headers | undefined, name: string, redact: Redact): string | null {
  const value = headers?.get(name);
  return value == null ? null : redact(value);
}

/**
 * Fills in what a completion or a chunk says. The first value seen for each field stays (a
 * header's generation id wins over the body's `id`); usage and its cost come whenever sent.
 * The texts are cut by `redact`: a chunk may echo anything, and a stream's info goes into the
 * errors it throws.
 */
export function learnFrom(info: GatewayInfo, data: Record<string, unknown>, redact?: Redact): void {
  info.model ??= textOr(data.model, redact);
  info.provider ??= textOr(data.provider, redact);
  info.generationID ??= textOr(data.id, redact);
  const usage = data.usage;
  if (isRecord(usage)) {
    // Without a redactor (a whole answer, the caller's own data) there is nothing to cut: kept as it came.
    info.usage = (redact ? redactValue(usage, redact) : usage) as CompletionUsage;
    // A charge is never negative nor infinite: such a number is not a cost (a budget would grow by it).
    if (Number.isFinite(usage.cost) && (usage.cost as number) >= 0) info.cost = usage.cost as number;
  }
}

function textOr(value: unknown, redact: Redact | undefined): string | null {
  return typeof value === "string" && value !== "" ? (redact ? redact(value) : value) : null;
}
