import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from "../../types/index.ts";
import { sampleSchema } from "../schema/sample.ts";
import { NO_PARAMETERS } from "./structured.ts";

/** A tool call id as providers write them: `call_` and a random-looking word, unique per choice. */
export function callId(random: () => number, index: number): string {
  return `call_${Math.floor(random() * 2 ** 32).toString(36).padStart(7, "0")}${index}`;
}

/**
 * The calls a model makes on its own (tools given; `tool_choice` absent, `"auto"` or
 * `"required"` with several tools): the first tool, or the first two in one message when
 * several are offered and `parallel_tool_calls` is not false, as a model that plans ahead
 * does — so a client that runs calls concurrently has two to run. Arguments are generated
 * from each tool's `parameters` (see `sampleSchema`), so they follow the schema as a real
 * model's mostly do, and vary with the seed.
 */
export function autonomousToolCalls(params: ChatCompletionCreateParamsBase, random: () => number, index: number): ChatCompletionMessageToolCall[] {
  const tools = params.tools ?? [];
  const count = tools.length > 1 && params.parallel_tool_calls !== false ? 2 : 1;
  return tools.slice(0, count).map((tool) => ({
    id: callId(random, index),
    type: "function",
    function: { name: tool.function.name, arguments: JSON.stringify(sampleSchema(tool.function.parameters ?? NO_PARAMETERS, random)) },
  }));
}

/**
 * The answer to a conversation that ends with tool results (the `tool` messages after the
 * last assistant turn), quoting each one under the name of the function that produced it, so
 * a test can see that every result reached the model. `undefined` when the conversation does
 * not end with a result.
 */
export function toolResultsReply(messages: ChatCompletionMessageParam[]): string | undefined {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role === "tool") first--;
  if (first === messages.length) return undefined;
  const asked = messages[first - 1];
  const calls = asked?.role === "assistant" ? (asked.tool_calls ?? []) : [];
  const quotes = messages.slice(first).map((message) => {
    const id = message.role === "tool" ? message.tool_call_id : undefined;
    const name = calls.find((call) => call.id === id)?.function.name ?? "the tool";
    return `${name} returned ${textOf(message.content)}`;
  });
  return `Here is what the tools found: ${quotes.join("; ")}.`;
}

/** The text of a message's content: the string, or its text parts joined. */
export function textOf(content: ChatCompletionMessageParam["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}
