import { describeValue } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import { argumentsText } from "../structured/tool-arguments.ts";
import type { ChatCompletionMessageToolCall } from "../../types/chat-completion.ts";
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from "../../types/chat-params.ts";

/**
 * The name a call gets in `messages` when the model sent none: providers reject a tool call
 * without a name in the history (some an empty one too), and the next step must be a valid
 * request. It is never run, even if a tool has this name.
 */
const UNNAMED_CALL = "unnamed_call";

/** One call of the model's, fit to send back, and what was wrong with it as sent (then it is not run). */
export interface PreparedCall {
  call: ChatCompletionMessageToolCall;
  /** Why the call cannot be run, told to the model as its result. */
  problem?: string;
}

/**
 * The assistant turn that goes back into `messages`, and its calls to run. Whatever the reply
 * holds, the turn is one a gateway accepts: each call an object with `type: "function"`, an
 * `id` not used before in the conversation (`ids`, which this adds to), a string name and
 * string `arguments` (an object sent as the arguments becomes its JSON; `null` or none is
 * `"{}"`). A refusal is kept as the model sent it. Calls that cannot be run as sent carry
 * their `problem`; each still gets its `tool` message, so the model can correct itself.
 */
export function assistantTurn(message: Record<string, unknown>, step: number, ids: Set<string>): { turn: ChatCompletionAssistantMessageParam; calls: PreparedCall[] } {
  const sent = callList(message.tool_calls);
  const calls = sent.map((entry: unknown, index) => prepare(entry, freshID(isRecord(entry) ? entry.id : undefined, step, index, ids)));
  // Everything the reply carried stays on the turn in `messages` (annotations, OpenRouter's
  // reasoning_details, fields the SDK does not know); what goes back is `replayedTurn`'s.
  const turn = { ...message, role: "assistant", content: contentOf(message.content) } as ChatCompletionAssistantMessageParam;
  delete turn.tool_calls;
  if (calls.length > 0) turn.tool_calls = calls.map((prepared) => prepared.call);
  runnerTurns.add(turn);
  return { turn, calls };
}

/** The turns `assistantTurn` made: replayed as their request fields, wherever they are sent again. */
const runnerTurns = new WeakSet<object>();

/** A tool call's fields that are not the provider's own: `index` is the stream's. */
const CALL_FIELDS_NOT_REPLAYED = new Set(["index", "id", "type", "function", "parsed_arguments"]);

/**
 * A message as the next step sends it: an assistant turn the runner made goes back as its
 * request fields (`role`, `content`, `name`, `refusal`, `audio.id`, each call's `id`, `type`,
 * function `name` and `arguments`), with each call's provider fields (Gemini's
 * `extra_content`, which Gemini 3 rejects a step without) and the turn's `reasoning_details`
 * (which OpenRouter asks to get back); never `parsed`, `annotations`, `reasoning` or fields the
 * SDK does not know, which a provider may reject. Any other message is sent as it is.
 */
export function replayedTurn(message: ChatCompletionMessageParam): ChatCompletionMessageParam {
  if (!runnerTurns.has(message) || message.role !== "assistant") return message;
  const turn = message as ChatCompletionAssistantMessageParam & { audio?: unknown };
  const replay: ChatCompletionAssistantMessageParam = { role: "assistant", content: turn.content ?? null };
  if (typeof turn.name === "string") replay.name = turn.name;
  if (typeof turn.refusal === "string") replay.refusal = turn.refusal;
  if (isRecord(turn.audio) && typeof turn.audio.id === "string") (replay as { audio?: { id: string } }).audio = { id: turn.audio.id };
  if (Array.isArray(turn.tool_calls)) {
    replay.tool_calls = turn.tool_calls.map((call) => {
      // Entries, then spread: both define own properties, so a provider's "__proto__" key stays a key.
      const provider = Object.fromEntries(Object.entries(call).filter(([key]) => !CALL_FIELDS_NOT_REPLAYED.has(key)));
      return { id: call.id, type: call.type, function: { name: call.function.name, arguments: call.function.arguments }, ...provider };
    });
  }
  if (Array.isArray(turn.reasoning_details)) replay.reasoning_details = turn.reasoning_details;
  return replay;
}

/**
 * The calls of `tool_calls` as a list: a list as it is; an object whose keys are all indexes
 * (`{ "0": call }`, a list some proxy turned into an object) as the list it stands for; any
 * other object as a lone call not wrapped in a list, still a call the model made.
 */
function callList(calls: unknown): unknown[] {
  if (Array.isArray(calls)) return calls;
  if (!isRecord(calls)) return [];
  const keys = Object.keys(calls);
  if (keys.length === 0 || !keys.every((key) => /^(0|[1-9]\d{0,8})$/.test(key))) return [calls];
  // Object.keys lists index keys in ascending order.
  return keys.map((key) => calls[key]);
}

function prepare(entry: unknown, id: string): PreparedCall {
  if (!isRecord(entry)) {
    return { call: wellFormed({}, {}, id, UNNAMED_CALL, "{}"), problem: `The tool call could not be read: it is ${describeValue(entry)}, not an object. Call the tool again.` };
  }
  const fn = isRecord(entry.function) ? entry.function : undefined;
  if (!fn) {
    const problem = `The tool call has no \`function\` (the tool's name and its arguments)${entry.function === undefined ? "" : `: it is ${describeValue(entry.function)}`}. Call the tool again.`;
    return { call: wellFormed(entry, {}, id, UNNAMED_CALL, "{}"), problem };
  }
  const args = argumentsText(fn.arguments);
  const { name } = fn;
  if (typeof name !== "string" || name === "") {
    const got = name === undefined || name === "" ? "" : `: it is ${describeValue(name)}, not a string`;
    return { call: wellFormed(entry, fn, id, UNNAMED_CALL, args ?? "{}"), problem: `The tool call has no tool name${got}. Call the tool again by its name.` };
  }
  if (args === undefined) {
    return { call: wellFormed(entry, fn, id, name, "{}"), problem: "The call's arguments could not be read as JSON. Call the tool again with a JSON object as its arguments." };
  }
  return { call: wellFormed(entry, fn, id, name, args) };
}

/**
 * The call as it goes back: what the provider sent (it may need its own fields again, such as
 * a signature of the model's thought), with the four fields every gateway requires made valid.
 */
function wellFormed(entry: Record<string, unknown>, fn: Record<string, unknown>, id: string, name: string, args: string): ChatCompletionMessageToolCall {
  const call: Record<string, unknown> = { ...entry, id, type: "function", function: { ...fn, name, arguments: args } };
  // A call of another type holds its payload under the type's name (`custom`): sent back as a
  // function call, it would be a field no function call has.
  const { type } = entry;
  if (typeof type === "string" && type !== "id" && type !== "type" && type !== "function") delete call[type];
  return call as unknown as ChatCompletionMessageToolCall;
}

/** A call id unique in the conversation: the one sent when it is, else one made from the step and the call's place. */
function freshID(sent: unknown, step: number, index: number, ids: Set<string>): string {
  let id = typeof sent === "string" && sent !== "" && !ids.has(sent) ? sent : `call_step${step}_${index}`;
  // A made-up id may be one the provider sent earlier: counted on until it is not.
  for (let n = 2; ids.has(id); n++) id = `call_step${step}_${index}_${n}`;
  ids.add(id);
  return id;
}

/** Text, parts, or nothing: what an assistant message param can hold (anything else is sent as its JSON). */
function contentOf(content: unknown): ChatCompletionAssistantMessageParam["content"] {
  if (typeof content === "string" || content === null || content === undefined) return content ?? null;
  if (Array.isArray(content)) return content as ChatCompletionAssistantMessageParam["content"];
  try {
    return JSON.stringify(content) ?? null;
  } catch {
    return null;
  }
}

/** The tool call ids the conversation already holds (of the assistant turns it was given). */
export function callIDsIn(messages: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) if (isRecord(call) && typeof call.id === "string") ids.add(call.id);
  }
  return ids;
}
