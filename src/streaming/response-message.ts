import { ModelGateError } from "../errors/modelgate-error.ts";
import { errorFromBody } from "../errors/from-body.ts";
import type { Redact } from "../internal/redact.ts";
import { excerpt, isRecord } from "../internal/values.ts";

/** How much of a value that cannot be read an error quotes. */
const EXCERPT_LENGTH = 120;

/**
 * How a response message (a whole answer's) or a chunk's delta is read where providers differ
 * from OpenAI, in place and only by non-enumerable additions beside the wire's own fields,
 * except for a `content` that is a list of parts, which becomes its text (see `readContentParts`).
 * Never applied to a request's messages.
 */
export function readResponseMessage(holder: Record<string, unknown>): void {
  aliasReasoning(holder);
  if (Array.isArray(holder.content)) readContentParts(holder, holder.content);
}

/** What reading a chunk's choices found wrong, if anything; see `readChunkChoices`. */
export interface ChunkTrouble {
  /** A choice that cannot be read: the chunk is not handed on. */
  unreadable?: ModelGateError;
  /** A choice's own error (OpenRouter's `choices[].error`): the chunk, with the text it carries, is handed on first. */
  failed?: ModelGateError;
}

/**
 * A chunk's choices read where providers differ from OpenAI, in place, wherever a chunk is read
 * (an SSE stream, a bridge's line): a lone choice object is a list of one, each choice is read
 * by `readChunkChoice` (then given to `see`); a choice that cannot be read, or that carries an
 * `error` (with `finish_reason: "error"`), is what is returned. Skipping either would shorten or
 * merge answers without a word.
 */
export function readChunkChoices(chunk: Record<string, unknown>, redact: Redact, see?: (choice: Record<string, unknown>, delta: Record<string, unknown> | undefined) => void): ChunkTrouble {
  // A lone choice object instead of a list is read as a list of one, as a lone tool call is.
  if (isRecord(chunk.choices)) chunk.choices = [chunk.choices];
  const { choices } = chunk;
  if (!Array.isArray(choices)) return {};
  let failed: ModelGateError | undefined;
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    // Read first: it reads an index sent as a numeric string as that number.
    const delta = readChunkChoice(choice);
    see?.(choice, delta);
    // A delta's content is text, a list of parts (read as its text), or nothing: a number or an
    // object cannot be told apart from a provider's mistake, and dropping it would shorten the answer.
    const content = delta?.content;
    if (content != null && typeof content !== "string") {
      const shown = excerpt(redact(JSON.stringify(content) ?? String(content)), EXCERPT_LENGTH);
      return { unreadable: new ModelGateError(`The stream sent a delta whose content is ${shown}, neither text nor a list of parts, so the answer cannot be read.`) };
    }
    // Any index but a number (a numeric string was read as one) or none (choice 0) cannot be
    // placed: taken for choice 0 it would merge two answers into one.
    if (choice.index != null && !Number.isInteger(choice.index)) {
      const shown = excerpt(redact(JSON.stringify(choice.index) ?? String(choice.index)), EXCERPT_LENGTH);
      return { unreadable: new ModelGateError(`The stream sent a choice whose index is ${shown}, not a whole number, so it cannot be told which choice it continues.`) };
    }
    // Truthy, as for a chunk's own `error`: the provider failed this answer where it stands.
    if (choice.error) failed ??= errorFromBody(undefined, choice, { redact });
  }
  return failed ? { failed } : {};
}

/**
 * A chunk's choice as the SDK hands it over: one without `delta` (Azure's content-filter
 * chunks) is given an empty one, as a chunk with nothing new has, so the loop
 * `chunk.choices[0]?.delta.content` reads nothing instead of throwing; its delta is read by
 * `readResponseMessage`. Returns the delta when it is an object.
 */
export function readChunkChoice(choice: Record<string, unknown>): Record<string, unknown> | undefined {
  // An index sent as a numeric string ("1") is that number: every reader (the end check, the
  // accumulator, the helpers, openai's readers across the bridge) then tells the choices apart
  // instead of taking each non-number for choice 0 and merging two answers into one.
  if (typeof choice.index === "string" && /^-?\d+$/.test(choice.index)) choice.index = Number(choice.index);
  if (choice.delta == null) choice.delta = {};
  const { delta } = choice;
  if (!isRecord(delta)) return undefined;
  readResponseMessage(delta);
  return delta;
}

/**
 * Some providers spell it `reasoning_content`: it is read as `reasoning` (which wins when both
 * come), through an alias that is not enumerable, so `JSON.stringify` still gives what was sent.
 */
function aliasReasoning(holder: Record<string, unknown>): void {
  if (holder.reasoning == null && typeof holder.reasoning_content === "string") hide(holder, "reasoning", holder.reasoning_content);
}

/**
 * A `content` sent as a list of parts (Mistral's reasoning models stream
 * `[{ type: "thinking", thinking: [{ type: "text", text }] }, { type: "text", text: "3" }]`,
 * then plain strings) is read as the text of its `text` parts, so a reader that joins
 * `delta.content` strings loses no character of the answer; its `thinking` and `reasoning`
 * parts are the reasoning (unless the provider also sent `reasoning` or `reasoning_content`,
 * which win). The list itself stays, as it came, in the non-enumerable `content_parts`:
 * a part of any other type (an image, a citation) is kept there, never an error.
 */
function readContentParts(holder: Record<string, unknown>, parts: unknown[]): void {
  let text = "";
  let reasoning: string | undefined;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (part.type === "text") {
      if (typeof part.text === "string") text += part.text;
    } else if (part.type === "thinking" || part.type === "reasoning") {
      const thought = thoughtOf(part, part.type);
      if (thought !== undefined) reasoning = (reasoning ?? "") + thought;
    }
  }
  hide(holder, "content_parts", parts);
  holder.content = text;
  if (reasoning !== undefined && holder.reasoning == null) hide(holder, "reasoning", reasoning);
}

/**
 * The text of a thinking part: its `thinking` (or `reasoning`) string, or the `text` of the
 * parts it holds there (Mistral's `thinking: [{ type: "text", text }]`), else its own `text`.
 */
function thoughtOf(part: Record<string, unknown>, field: "thinking" | "reasoning"): string | undefined {
  const held = part[field];
  if (typeof held === "string") return held;
  if (Array.isArray(held)) {
    let text = "";
    for (const inner of held) if (isRecord(inner) && typeof inner.text === "string") text += inner.text;
    return text;
  }
  return typeof part.text === "string" ? part.text : undefined;
}

function hide(holder: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(holder, name, { value, writable: true, configurable: true, enumerable: false });
}
