import { isRecord } from "../../internal/values.ts";

// `traceContent: true` only: messages as OpenTelemetry's GenAI conventions write them in
// `gen_ai.input.messages` and `gen_ai.output.messages` (a role and a list of typed parts).

type Part = Record<string, unknown>;

/** The parts of one chat message: its text or content parts, its tool calls, a tool's result. */
function partsOf(message: Record<string, unknown>): Part[] {
  const { content } = message;
  const parts: Part[] = [];
  if (typeof content === "string") parts.push(message.role === "tool" ? { type: "tool_call_response", id: message.tool_call_id, response: content } : { type: "text", content });
  // Text parts in the conventions' form; any other part (an image, audio) as it was sent.
  else if (Array.isArray(content)) for (const part of content) parts.push(isRecord(part) && part.type === "text" ? { type: "text", content: part.text } : (part as Part));
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call.function) ? call.function : {};
      parts.push({ type: "tool_call", id: call.id, name: fn.name, arguments: fn.arguments });
    }
  }
  return parts;
}

/** A request's `messages`, in the conventions' form. */
export function inputMessages(messages: unknown[]): Part[] {
  return messages.map((message) => (isRecord(message) ? { role: message.role, parts: partsOf(message) } : { parts: [] }));
}

/** The choices of a completion, in the conventions' form (one output message each). */
export function outputMessages(choices: unknown[]): Part[] {
  return choices.filter(isRecord).map((choice) => {
    const message = isRecord(choice.message) ? choice.message : {};
    return { role: message.role ?? "assistant", parts: partsOf(message), finish_reason: choice.finish_reason };
  });
}
