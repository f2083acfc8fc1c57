import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from "../../types/index.ts";
import { isRecord } from "../../internal/values.ts";
import { RequestRejected } from "../http/error-response.ts";

// OpenAI's deprecated function calling (`functions`, `function_call`, `role: "function"`),
// which programs written before tools still send. The mock serves it through its tools: the
// request is read as the tools request it stands for, and the reply's one tool call is given
// back in the legacy shape.

const FUNCTION_CHOICES = ["none", "auto"];

/**
 * Checks the legacy fields of a chat request as OpenAI does, each refusal a 400 naming its
 * field: `functions` (a list of `{ name, description?, parameters? }`, not beside `tools`) and
 * `function_call` (`"none"`, `"auto"` or `{ name }` of one of them).
 */
export function checkLegacyFunctions(body: Record<string, unknown>): void {
  const { functions, function_call: choice } = body;
  if (functions == null) {
    if (choice != null) throw new RequestRejected("`function_call` needs `functions` to choose from.", "function_call");
    return;
  }
  if (body.tools != null) throw new RequestRejected("Send `tools` or the deprecated `functions`, not both.", "functions");
  if (!Array.isArray(functions) || functions.length === 0) throw new RequestRejected("`functions` must be a non-empty array.", "functions");
  const names = functions.map((fn, index) => {
    const path = `functions[${index}]`;
    if (!isRecord(fn) || typeof fn.name !== "string" || !/^[\w-]{1,64}$/.test(fn.name)) {
      throw new RequestRejected(`\`${path}.name\` must be 1 to 64 letters, digits, _ or -.`, `${path}.name`);
    }
    if (fn.parameters != null && !isRecord(fn.parameters)) throw new RequestRejected(`\`${path}.parameters\` must be a JSON schema object.`, `${path}.parameters`);
    return fn.name;
  });
  if (choice == null || (typeof choice === "string" && FUNCTION_CHOICES.includes(choice))) return;
  const name = isRecord(choice) ? choice.name : undefined;
  if (typeof name !== "string" || !names.includes(name)) {
    throw new RequestRejected('`function_call` must be "none", "auto", or `{ name }` of a function in `functions`.', "function_call");
  }
}

/** The checks of a legacy message: a `function` result names its function; an assistant's `function_call` has a name and arguments. */
export function checkLegacyMessage(message: Record<string, unknown>, path: string): void {
  if (message.role === "function" && typeof message.name !== "string") {
    throw new RequestRejected(`\`${path}.name\` is required in a function message: the function whose result it is.`, `${path}.name`);
  }
  const call = message.function_call;
  if (message.role === "assistant" && call != null && !(isRecord(call) && typeof call.name === "string" && typeof call.arguments === "string")) {
    throw new RequestRejected(`\`${path}.function_call\` needs a string \`name\` and \`arguments\`.`, `${path}.function_call`);
  }
}

/**
 * The tools request a legacy request stands for, or `undefined` for a request without
 * `functions`: each function a tool, `function_call` the `tool_choice`, one call per reply (as
 * the legacy form has room for), and the conversation's calls and results as tool calls and
 * tool results (a result answers the latest call of its function's name).
 */
export function fromLegacyFunctions(params: ChatCompletionCreateParamsBase): ChatCompletionCreateParamsBase | undefined {
  const { functions, function_call: choice, ...rest } = params;
  if (!functions) return undefined;
  const callIds = new Map<string, string>();
  const messages = params.messages.map((message, index): ChatCompletionMessageParam => {
    if (message.role === "assistant" && message.function_call) {
      const id = `call_legacy${index}`;
      callIds.set(message.function_call.name, id);
      const { function_call: call, ...assistant } = message;
      return { ...assistant, tool_calls: [{ id, type: "function", function: call }] };
    }
    if (message.role === "function") return { role: "tool", tool_call_id: callIds.get(message.name) ?? `call_legacy_${message.name}`, content: message.content ?? "" };
    return message;
  });
  const toolChoice: ChatCompletionToolChoiceOption | undefined = typeof choice === "object" ? { type: "function", function: { name: choice.name } } : choice;
  return {
    ...rest,
    messages,
    tools: functions.map((fn) => ({ type: "function", function: fn })),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
    parallel_tool_calls: false,
  };
}

/** A completion's tool calls in the legacy shape: `message.function_call` and `finish_reason: "function_call"`. */
export function toLegacyCompletion(completion: Omit<ChatCompletion, "gateway">): Omit<ChatCompletion, "gateway"> {
  for (const choice of completion.choices) {
    const { tool_calls: calls, ...message } = choice.message;
    if (!calls?.length) continue;
    choice.message = { ...message, function_call: calls[0]!.function };
    if (choice.finish_reason === "tool_calls") choice.finish_reason = "function_call";
  }
  return completion;
}

/** Streamed tool calls in the legacy shape: `delta.function_call` fragments (the name first) and `finish_reason: "function_call"`. */
export function toLegacyChunks(chunks: ChatCompletionChunk[]): ChatCompletionChunk[] {
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      const { tool_calls: calls, ...delta } = choice.delta;
      if (calls?.length) {
        const { name, arguments: args } = calls[0]!.function ?? {};
        choice.delta = { ...delta, function_call: { ...(name === undefined ? {} : { name }), arguments: args ?? "" } };
      }
      if (choice.finish_reason === "tool_calls") choice.finish_reason = "function_call";
    }
  }
  return chunks;
}
