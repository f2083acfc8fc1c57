import { ModelGateError } from "../../errors/index.ts";

import { CHAT_ROLES } from "../../types/chat-params.ts";

const ROLES: ReadonlySet<string> = new Set(CHAT_ROLES);

/**
 * Cheap checks of the fields every chat request needs, for callers in plain JavaScript: a
 * mistake is reported here, naming the field, instead of costing a round trip (and possibly a
 * retry) to get a 400 back. Everything else is left to the gateway, which knows each model.
 */
export function assertChatParams(params: unknown): void {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new ModelGateError("chat.completions.create() expects an object of parameters.");
  }
  const { model, messages, stream } = params as Record<string, unknown>;
  if (typeof model !== "string" || model === "") {
    throw new ModelGateError(
      `\`model\` must be a non-empty string (a model id, or "auto" to let the gateway choose); got ${describe(model)}.`,
    );
  }
  if (!Array.isArray(messages)) {
    throw new ModelGateError(`\`messages\` must be an array of messages; got ${describe(messages)}.`);
  }
  messages.forEach((message: unknown, index) => {
    if (typeof message !== "object" || message === null) {
      throw new ModelGateError(`\`messages[${index}]\` must be an object; got ${describe(message)}.`);
    }
    const { role } = message as { role?: unknown };
    if (typeof role !== "string" || !ROLES.has(role)) {
      throw new ModelGateError(
        `\`messages[${index}].role\` must be one of ${[...ROLES].join(", ")}; got ${describe(role)}.`,
      );
    }
  });
  if (stream !== undefined && stream !== null && typeof stream !== "boolean") {
    throw new ModelGateError(`\`stream\` must be a boolean; got ${describe(stream)}.`);
  }
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
