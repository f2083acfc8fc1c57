import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  CompletionUsage,
  FinishReason,
} from "../types/index.ts";
import { estimatePromptTokens } from "./routing.ts";

/** What the mock will answer for one choice. */
export interface PlannedChoice {
  index: number;
  text: string | null;
  toolCalls: ChatCompletionMessageToolCall[];
  finishReason: FinishReason;
}

/** The whole answer, before it is shaped as a completion or as chunks. */
export interface ReplyPlan {
  id: string;
  created: number;
  model: string;
  provider: string;
  choices: PlannedChoice[];
  usage: CompletionUsage;
}

const OPENERS = ["Sure.", "Good question.", "Here is a short answer.", "Happy to help.", "Let me think about that."];
const SENTENCES = [
  "The key idea is to keep things simple and measurable.",
  "Most of the time, the first step is to read what is already there.",
  "A small example usually explains more than a long definition.",
  "Rivers carve valleys slowly, one grain of sand at a time.",
  "Good tools make the right thing easy and the wrong thing hard.",
  "Every answer here comes from a deterministic mock, so tests can rely on it.",
  "Streaming lets the first words arrive long before the last ones.",
  "In short: start small, check often, and keep what works.",
];

/**
 * Plans a deterministic reply: the same request and seed always give the same text. Tools
 * (unless `tool_choice` is "none") get a tool call with arguments made from the tool's JSON
 * schema; a conversation ending in a tool result gets a text reply that quotes it.
 */
export function planReply(
  params: ChatCompletionCreateParamsBase,
  meta: { id: string; model: string; provider: string; seed: number; reply?: string | ((params: ChatCompletionCreateParamsBase) => string) },
): ReplyPlan {
  const last = params.messages[params.messages.length - 1];
  const userText = lastUserText(params);
  const wantsTool = !!params.tools?.length && params.tool_choice !== "none" && last?.role !== "tool";
  const count = params.n ?? 1;
  const choices: PlannedChoice[] = [];
  for (let index = 0; index < count; index++) {
    const random = mulberry32(meta.seed + hash(userText) + index * 7919);
    if (wantsTool) {
      const tool = pickTool(params);
      const callId = `call_${Math.floor(random() * 1e9).toString(36)}${index}`;
      choices.push({
        index,
        text: null,
        toolCalls: [{ id: callId, type: "function", function: { name: tool.function.name, arguments: JSON.stringify(argumentsFor(tool)) } }],
        finishReason: "tool_calls",
      });
      continue;
    }
    const text =
      typeof meta.reply === "function"
        ? meta.reply(params)
        : meta.reply ?? (last?.role === "tool" ? toolResultReply(String(last.content)) : composeText(userText, random));
    choices.push({ index, text, toolCalls: [], finishReason: "stop" });
  }
  const completionTokens = choices.reduce((sum, choice) => sum + wordCount(choice.text ?? "") + choice.toolCalls.length * 8, 0);
  const promptTokens = estimatePromptTokens(params);
  return {
    id: meta.id,
    created: 1_767_225_600,
    model: meta.model,
    provider: meta.provider,
    choices,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** The plan as a non-streamed `ChatCompletion`. */
export function toCompletion(plan: ReplyPlan): ChatCompletion {
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    provider: plan.provider,
    choices: plan.choices.map((choice) => ({
      index: choice.index,
      message: {
        role: "assistant",
        content: choice.text,
        ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
      },
      finish_reason: choice.finishReason,
    })),
    usage: plan.usage,
  };
}

/**
 * The plan as the chunks a provider would stream: a role chunk, then content in pieces of one
 * to three words (tool-call arguments in a few fragments), choices interleaved when `n` > 1,
 * a finishing chunk per choice, and a usage-only chunk when asked for.
 */
export function toChunks(plan: ReplyPlan, includeUsage: boolean, seed: number): ChatCompletionChunk[] {
  const chunk = (choices: ChatCompletionChunk["choices"]): ChatCompletionChunk => ({
    id: plan.id,
    object: "chat.completion.chunk",
    created: plan.created,
    model: plan.model,
    provider: plan.provider,
    choices,
  });
  const random = mulberry32(seed);
  const perChoice = plan.choices.map((choice) => {
    const deltas: ChatCompletionChunk["choices"] = [{ index: choice.index, delta: { role: "assistant", content: "" }, finish_reason: null }];
    if (choice.text !== null) {
      for (const piece of splitIntoPieces(choice.text, random)) {
        deltas.push({ index: choice.index, delta: { content: piece }, finish_reason: null });
      }
    }
    choice.toolCalls.forEach((call, callIndex) => {
      deltas.push({
        index: choice.index,
        delta: { tool_calls: [{ index: callIndex, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] },
        finish_reason: null,
      });
      for (const fragment of splitEvenly(call.function.arguments, 3)) {
        deltas.push({ index: choice.index, delta: { tool_calls: [{ index: callIndex, function: { arguments: fragment } }] }, finish_reason: null });
      }
    });
    deltas.push({ index: choice.index, delta: {}, finish_reason: choice.finishReason });
    return deltas;
  });
  const chunks: ChatCompletionChunk[] = [];
  for (let step = 0; perChoice.some((deltas) => step < deltas.length); step++) {
    for (const deltas of perChoice) if (step < deltas.length) chunks.push(chunk([deltas[step]!]));
  }
  if (includeUsage) chunks.push({ ...chunk([]), usage: plan.usage });
  return chunks;
}

function lastUserText(params: ChatCompletionCreateParamsBase): string {
  for (let i = params.messages.length - 1; i >= 0; i--) {
    const message = params.messages[i]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
  }
  return "";
}

function composeText(userText: string, random: () => number): string {
  const topic = userText.trim().split(/\s+/).slice(0, 8).join(" ");
  const sentences = [OPENERS[Math.floor(random() * OPENERS.length)]!];
  if (topic) sentences.push(`You asked: "${topic}"${/[.!?]$/.test(topic) ? "" : "."}`);
  const count = 2 + Math.floor(random() * 2);
  for (let i = 0; i < count; i++) sentences.push(SENTENCES[Math.floor(random() * SENTENCES.length)]!);
  return sentences.join(" ");
}

function toolResultReply(result: string): string {
  return `Based on the tool result ${result}, here is the answer you asked for.`;
}

function pickTool(params: ChatCompletionCreateParamsBase): ChatCompletionTool {
  const tools = params.tools!;
  const choice = params.tool_choice;
  const named = typeof choice === "object" && choice !== null ? tools.find((tool) => tool.function.name === choice.function.name) : undefined;
  return named ?? tools[0]!;
}

/** Arguments that satisfy the tool's JSON schema: required and optional properties filled with plausible values. */
function argumentsFor(tool: ChatCompletionTool): Record<string, unknown> {
  const schema = tool.function.parameters as { properties?: Record<string, JSONSchemaLike>; required?: string[] } | undefined;
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (schema?.required && !schema.required.includes(name) && !property.enum) continue;
    args[name] = sampleValue(name, property);
  }
  return args;
}

interface JSONSchemaLike {
  type?: string | string[];
  enum?: unknown[];
  items?: JSONSchemaLike;
  properties?: Record<string, JSONSchemaLike>;
}

function sampleValue(name: string, schema: JSONSchemaLike): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return schema.items ? [sampleValue(name, schema.items)] : [];
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleValue(key, value)]));
    default:
      return /city|location|place/i.test(name) ? "Lisbon" : `sample ${name}`;
  }
}

function splitIntoPieces(text: string, random: () => number): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; ) {
    const take = 1 + Math.floor(random() * 3);
    pieces.push(words.slice(i, i + take).join(""));
    i += take;
  }
  return pieces;
}

function splitEvenly(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A tiny seeded PRNG: deterministic replies without a dependency. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
