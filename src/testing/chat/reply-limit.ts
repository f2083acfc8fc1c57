// The mock's reply limit: how many tokens a choice holds, and the cut that keeps it within the
// limit a real gateway applies. One file, so the count that bills a reply and the cut that
// bounds it cannot disagree.
import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";
import type { PlannedChoice } from "./replies.ts";
import { JSON_CHARS_PER_TOKEN } from "./structured.ts";

/** A tool call is counted (and cut) by its name and arguments, four characters a token. */
const CALL_CHARS_PER_TOKEN = 4;

/**
 * The most tokens each choice may hold, as a provider bounds a reply: the limit the request
 * sends (`max_completion_tokens`, else `max_tokens`), the model's `max_output_tokens`, and
 * the room its context leaves after the prompt (`promptTokens`), whichever is least. Never
 * below 0 (a prompt larger than the context is refused before this, see `chooseModel`).
 */
export function replyLimit(params: ChatCompletionCreateParamsBase, model: MockModel, promptTokens: number): number {
  const asked = params.max_completion_tokens ?? params.max_tokens ?? Infinity;
  return Math.max(0, Math.min(asked, model.max_output_tokens, model.context_length - promptTokens));
}

/**
 * The mock tokens of a choice: a word of text (or of a refusal, a transcript, the reasoning),
 * or four characters of generated JSON or of a tool call (its name and arguments).
 */
export function choiceTokens(choice: PlannedChoice): number {
  const textTokens = (choice.json ? jsonTokens(choice.text ?? "") : words(choice.text ?? "")) + words(choice.refusal ?? "") + words(choice.audio?.transcript ?? "");
  const callTokens = choice.toolCalls.reduce((sum, call) => sum + callTokensOf(call.function.name, call.function.arguments), 0);
  return (choice.reasoning?.tokens ?? 0) + textTokens + callTokens;
}

/**
 * `choice` cut to at most `limit` tokens (see `choiceTokens`), in the order a model writes:
 * its reasoning, its text, its refusal, its spoken transcript, then its tool calls one after
 * the other. A call whose arguments pass the limit is cut inside them (no longer valid JSON,
 * as a real cut leaves it); a call whose name does not fit, and every call after a cut, is
 * left out. Anything cut makes the finish reason `length`. A choice within the limit is
 * returned as it is.
 */
export function withinLimit(choice: PlannedChoice, limit: number): PlannedChoice {
  if (choiceTokens(choice) <= limit) return choice;
  let left = limit;
  const cut: PlannedChoice = { ...choice, finishReason: "length" };
  if (choice.reasoning) {
    const kept = Math.min(choice.reasoning.tokens, left);
    cut.reasoning = { ...choice.reasoning, text: firstWords(choice.reasoning.text, kept), tokens: kept };
    left -= kept;
  }
  if (choice.text !== null) {
    cut.text = choice.json ? choice.text.slice(0, left * JSON_CHARS_PER_TOKEN) : firstWords(choice.text, left);
    left -= choice.json ? jsonTokens(cut.text) : words(cut.text);
  }
  if (choice.refusal !== undefined) {
    cut.refusal = firstWords(choice.refusal, left);
    left -= words(cut.refusal);
  }
  if (choice.audio) {
    cut.audio = { ...choice.audio, transcript: firstWords(choice.audio.transcript, left) };
    left -= words(cut.audio.transcript);
  }
  cut.toolCalls = [];
  for (const call of choice.toolCalls) {
    const { name, arguments: args } = call.function;
    const tokens = callTokensOf(name, args);
    if (tokens <= left) {
      cut.toolCalls.push(call);
      left -= tokens;
      continue;
    }
    const room = left * CALL_CHARS_PER_TOKEN - name.length;
    if (room >= 0) cut.toolCalls.push({ ...call, function: { name, arguments: args.slice(0, room) } });
    break;
  }
  return cut;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function jsonTokens(json: string): number {
  return Math.ceil(json.length / JSON_CHARS_PER_TOKEN);
}

function callTokensOf(name: string, args: string): number {
  return Math.ceil((name.length + args.length) / CALL_CHARS_PER_TOKEN);
}

/** The first `count` words of `text`, with the spaces between them. */
function firstWords(text: string, count: number): string {
  const pieces = text.match(/\S+\s*/g) ?? [];
  return pieces.length <= count ? text : pieces.slice(0, count).join("").trimEnd();
}
