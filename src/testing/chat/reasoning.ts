import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";
import { pick } from "../random.ts";

/** The thinking of a reasoning model, for one choice. */
export interface PlannedReasoning {
  text: string;
  /** Mock tokens (words) of `text`: billed, and counted in `completion_tokens`, even when not shown. */
  tokens: number;
  /** `false` with `reasoning: { exclude: true }`: the model thought, but the text is not sent. */
  shown: boolean;
}

const THOUGHTS = [
  "First, work out what is actually being asked.",
  "A short answer with one concrete example should be enough.",
  "Check whether anything in the question is ambiguous.",
  "Keep the reply plain and leave out jargon.",
  "State the key idea before the details.",
  "Make sure the answer matches the question's own words.",
];

/** Sentences of thinking per effort: more effort, longer (and costlier) reasoning. */
const SENTENCES: Record<string, number> = { none: 0, minimal: 1, low: 1, medium: 2, high: 3, xhigh: 4, max: 4 };

/**
 * What a reasoning model thinks before it answers: a line that restates the question and a
 * few sentences, as many as the effort asks (`reasoning.effort`, else `reasoning_effort`,
 * else medium; `"none"` thinks not at all). `reasoning.max_tokens` and the reply's own limit
 * cut it, a mock token being a word. `random` should be the reasoning's own, so that adding
 * reasoning does not change the answer that follows.
 */
export function planReasoning(params: ChatCompletionCreateParamsBase, userText: string, random: () => number, limit: number): PlannedReasoning | undefined {
  const options = (params as { reasoning?: { effort?: string | null; max_tokens?: number | null; exclude?: boolean | null } | null }).reasoning;
  const effort = options?.effort ?? params.reasoning_effort ?? "medium";
  const count = SENTENCES[effort] ?? SENTENCES.medium!;
  if (count === 0) return undefined;
  const topic = userText.trim().split(/\s+/).slice(0, 8).join(" ");
  const sentences = [topic ? `The question is "${topic}".` : "There is no question, so greet and offer help."];
  for (let i = 0; i < count; i++) sentences.push(pick(THOUGHTS, random));
  const words = sentences.join(" ").split(" ");
  const kept = words.slice(0, Math.min(limit, options?.max_tokens ?? Infinity));
  return { text: kept.join(" "), tokens: kept.length, shown: options?.exclude !== true && kept.length > 0 };
}
