import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import { CHAT_ROLES } from "../../types/chat-params.ts";

const ROLES: ReadonlySet<string> = new Set(CHAT_ROLES);

/**
 * Cheap checks of the fields every chat request needs, for callers in plain JavaScript: a
 * mistake is reported here, naming the field, instead of costing a round trip (and possibly a
 * retry) to get a 400 back. Everything else is left to the gateway, which knows each model.
 */
export function assertChatParams(params: unknown): void {
  if (!isRecord(params)) throw invalidArgument("params", "an object such as { model, messages }", params);
  const { model, messages, stream } = params;
  if (typeof model !== "string" || model === "") {
    throw invalidArgument("model", 'a non-empty string (a model id, or "auto" to let the gateway choose)', model);
  }
  if (!Array.isArray(messages)) {
    throw invalidArgument("messages", "an array of messages", messages);
  }
  messages.forEach((message: unknown, index) => {
    if (typeof message !== "object" || message === null) {
      throw invalidArgument(`messages[${index}]`, "an object", message);
    }
    const { role } = message as { role?: unknown };
    if (typeof role !== "string" || !ROLES.has(role)) {
      throw invalidArgument(`messages[${index}].role`, `one of ${CHAT_ROLES.join(", ")}`, role);
    }
  });
  if (stream !== undefined && stream !== null && typeof stream !== "boolean") {
    throw invalidArgument("stream", "a boolean", stream);
  }
}
