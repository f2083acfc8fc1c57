import { isRecord } from "../../internal/values.ts";
import type { ChatCompletionChunk } from "../../types/index.ts";
import type { AnswerPlan } from "./plan.ts";

/** The answer's text in a chunk: choice 0's content, or its answer-function call's arguments. */
export class AnswerText {
  readonly #toolName: string | undefined;
  /** The answer comes wrapped as `{ value }` (a "tool" mode answer that is not an object). */
  readonly wrapped: boolean;
  #callIndex: number | undefined;
  /** Some answer text has arrived. */
  started = false;

  constructor(answer: AnswerPlan) {
    this.#toolName = answer.toolName;
    this.wrapped = answer.wrapped;
  }

  /** The answer's text in `chunk`, `""` when it carries none. */
  of(chunk: ChatCompletionChunk): string {
    const choice = Array.isArray(chunk?.choices) ? chunk.choices.find((candidate) => (candidate?.index ?? 0) === 0) : undefined;
    const delta = choice?.delta;
    if (!isRecord(delta)) return "";
    let text = "";
    if (this.#toolName === undefined) {
      if (typeof delta.content === "string") text = delta.content;
    } else if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        if (this.#callIndex === undefined && call?.function?.name === this.#toolName) this.#callIndex = call.index;
        if (call?.index === this.#callIndex && typeof call.function?.arguments === "string") text += call.function.arguments;
      }
    }
    if (text) this.started = true;
    return text;
  }
}
