import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage, FinishReason } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";
import { tokenCost } from "../billing/costs.ts";
import type { ReplyScript } from "../http/faults.ts";
import { caption, generatedImage, replyOutput, spokenReply, videoURL, type PlannedAudio, type ReplyOutput } from "./beyond-text.ts";
import { hash, mulberry32, pick } from "../random.ts";
import { planReasoning, type PlannedReasoning } from "./reasoning.ts";
import { mockPromptTokens } from "./prompt-tokens.ts";
import { choiceTokens, replyLimit, withinLimit } from "./reply-limit.ts";
import { planStructured, structuredTarget, type StructuredScript } from "./structured.ts";
import { autonomousToolCalls, callId, textOf, toolResultsReply } from "./tool-replies.ts";

/** A fixed reply text, or a function of the request that returns one. */
export type MockReply = string | ((params: ChatCompletionCreateParamsBase) => string);

/** What the mock will answer for one choice. */
export interface PlannedChoice {
  index: number;
  /** `null` when the choice calls a tool, refuses or speaks instead. */
  text: string | null;
  /** Why the model declined to answer (a scripted structured refusal). */
  refusal?: string;
  toolCalls: ChatCompletionMessageToolCall[];
  finishReason: FinishReason;
  /** The text or the tool arguments are generated JSON: streamed a few characters at a time, counted four characters a token. */
  json?: boolean;
  /** What a reasoning model thought first (sent unless excluded, billed either way). */
  reasoning?: PlannedReasoning;
  /** Generated images (`message.images`), as URLs. */
  images?: string[];
  /** Generated videos (`message.videos`), as URLs. */
  videos?: string[];
  /** A spoken reply (`message.audio`); `text` is then `null`, the words being its transcript. */
  audio?: PlannedAudio;
}

/** Token counts with ModelGate's `cost`: the charge in USD. */
export type MockUsage = CompletionUsage & { cost: number };

/** The whole answer, before it is shaped as a completion or as chunks (see `wire.ts`). */
export interface ReplyPlan {
  id: string;
  created: number;
  model: string;
  provider: string;
  choices: PlannedChoice[];
  usage: MockUsage;
}

/** Where the answer comes from besides the request. */
export interface ReplyContext {
  id: string;
  /** The served model: its prices make `usage.cost`, its capabilities what it answers with. */
  model: MockModel;
  seed: number;
  reply?: MockReply;
  /** The scripted way the reply goes wrong, asked for only when the reply is structured (so only such a reply uses a script up). */
  takeScript?: () => StructuredScript | undefined;
  /** A scripted reply (`gateway.inject({ type: "reply" })`), answered exactly instead of a planned one. */
  script?: ReplyScript;
  /** The number of the next video the gateway makes, counted from 1. */
  nextVideo?: () => number;
}

/** A fixed `created` time: the mock's output must not change from one run to the next. */
const CREATED = 1_767_225_600;

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
 * Plans a deterministic reply: the same request and seed always give the same answer, and
 * choice `i` of `n` uses seed + i so the choices differ. Tools (unless `tool_choice` is
 * "none", and unless the conversation already ends with tool results) get tool calls whose
 * arguments follow the tools' JSON schemas (see `autonomousToolCalls`); a conversation
 * ending with tool results gets a text that quotes each one. Every choice is cut (finish
 * reason `length`) at the reply limit a real gateway applies (see `replyLimit`: the request's
 * `max_completion_tokens` / `max_tokens`, the model's `max_output_tokens`, the context left
 * after the prompt), whatever it holds: text, JSON, tool calls, a transcript, reasoning (see
 * `withinLimit`), so `usage.completion_tokens` never passes it. A `script` is answered as it
 * is (see `scriptedChoice`).
 *
 * Structured requests (see `structuredTarget`) get JSON generated from their schema instead:
 * a forced tool call's arguments, or the content for a `json_schema` or `json_object`
 * response format unless the `reply` option fixes the text.
 *
 * Beyond text (see `replyOutput`): speech replaces the text by audio whose transcript it is,
 * an image or a video comes with a short caption. A reasoning model thinks first (see
 * `planReasoning`), and its thinking counts against the reply's limit, as reasoning tokens do.
 */
export function planReply(params: ChatCompletionCreateParamsBase, context: ReplyContext): ReplyPlan {
  const { model } = context;
  const userText = lastUserText(params.messages);
  const resultsReply = toolResultsReply(params.messages);
  const callsTool = (params.tools?.length ?? 0) > 0 && params.tool_choice !== "none" && resultsReply === undefined;
  const promptTokens = mockPromptTokens(params);
  const limit = replyLimit(params, model, promptTokens);
  const target = context.script ? undefined : structuredTarget(params);
  // A forced call is structured unless the conversation ends with a tool result (answered in
  // text, as before); a JSON response format is, unless a tool is called first or `reply` fixes the text.
  const structured = target?.kind === "tool" ? callsTool : target !== undefined && !callsTool && context.reply === undefined;
  const script = structured ? context.takeScript?.() : undefined;
  const reasons = model.capabilities.includes("reasoning") && !context.script;
  const output = replyOutput(params, model.capabilities);
  const choices: PlannedChoice[] = [];
  for (let index = 0; index < (params.n ?? 1); index++) {
    const random = mulberry32(context.seed + index + hash(userText));
    if (context.script) {
      choices.push(scriptedChoice(context.script, random, index));
      continue;
    }
    // Its own sequence, so a model that reasons answers what one that does not would.
    const reasoning = reasons ? planReasoning(params, userText, mulberry32(context.seed + index + hash(`reasoning ${userText}`)), limit) : undefined;
    const left = limit - (reasoning?.tokens ?? 0);
    let choice: PlannedChoice;
    if (structured && target) {
      const { call, refusal, ...answer } = planStructured(target, random, script, left);
      const toolCalls: ChatCompletionMessageToolCall[] = call ? [{ id: callId(random, index), type: "function", function: call }] : [];
      choice = { index, ...answer, ...(refusal === undefined ? {} : { refusal }), toolCalls, json: true };
    } else if (callsTool) {
      choice = { index, text: null, toolCalls: autonomousToolCalls(params, random, index), finishReason: "tool_calls" };
    } else {
      const full = typeof context.reply === "function" ? context.reply(params) : (context.reply ?? resultsReply ?? defaultText(output, userText, random));
      choice = textChoice(params, context, { index, full, output, limit: left, random });
    }
    if (reasoning) choice.reasoning = reasoning;
    choices.push(withinLimit(choice, limit));
  }
  const completionTokens = choices.reduce((sum, choice) => sum + choiceTokens(choice), 0);
  const reasoningTokens = choices.reduce((sum, choice) => sum + (choice.reasoning?.tokens ?? 0), 0);
  return {
    id: context.id,
    created: CREATED,
    model: model.id,
    provider: model.provider,
    choices,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(reasons ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
      cost: context.script?.cost ?? tokenCost(model.pricing, promptTokens, completionTokens),
    },
  };
}

/** The words of a reply nobody fixed: a caption beside an image or a video, else a composed answer. */
function defaultText(output: ReplyOutput, userText: string, random: () => number): string {
  return output === "image" || output === "video" ? caption(output, userText) : composeText(userText, random);
}

/**
 * A reply of `full` cut to `limit` words (finish reason `length` when cut), with what the
 * reply is besides text: the words spoken instead of written, an image, or a video.
 */
function textChoice(
  params: ChatCompletionCreateParamsBase,
  context: ReplyContext,
  { index, full, output, limit, random }: { index: number; full: string; output: ReplyOutput; limit: number; random: () => number },
): PlannedChoice {
  const words = full.match(/\S+\s*/g) ?? [];
  const text = words.length > limit ? words.slice(0, limit).join("").trimEnd() : full;
  const choice: PlannedChoice = { index, text, toolCalls: [], finishReason: text === full ? "stop" : "length" };
  if (output === "audio") {
    // Validation made sure `audio` came with the audio modality.
    choice.audio = spokenReply(text, params.audio!.format, random, CREATED);
    choice.text = null;
  }
  if (output === "image") choice.images = [generatedImage()];
  if (output === "video") choice.videos = [videoURL(context.nextVideo?.() ?? 1)];
  return choice;
}

/**
 * A scripted reply as it was given: its calls with fresh ids and their arguments untouched,
 * its content (`null` beside calls when it has none), no limit applied.
 */
function scriptedChoice(script: ReplyScript, random: () => number, index: number): PlannedChoice {
  const toolCalls = (script.toolCalls ?? []).map(
    (call): ChatCompletionMessageToolCall => ({ id: callId(random, index), type: "function", function: { name: call.name, arguments: call.arguments } }),
  );
  const text = script.content ?? (toolCalls.length > 0 ? null : "");
  return { index, text, toolCalls, finishReason: toolCalls.length > 0 ? "tool_calls" : "stop" };
}

function lastUserText(messages: ChatCompletionMessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") return textOf(messages[i]!.content);
  }
  return "";
}

/** An opener, the user's first words quoted back, and two or three sentences from the bank. */
function composeText(userText: string, random: () => number): string {
  const topic = userText.trim().split(/\s+/).slice(0, 8).join(" ");
  const sentences = [pick(OPENERS, random)];
  // A quote that already ends a sentence ("...rivers?") gets no second full stop.
  if (topic) sentences.push(`You asked: "${topic}"${/[.!?]$/.test(topic) ? "" : "."}`);
  const count = 2 + Math.floor(random() * 2);
  for (let i = 0; i < count; i++) sentences.push(pick(SENTENCES, random));
  return sentences.join(" ");
}
