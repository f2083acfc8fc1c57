import { APIConnectionError, ModelGateError, errorFromBody, errorFromStreamEvent, type ErrorContext } from "../errors/index.ts";
import { learnFrom, type GatewayInfo } from "../gateway/info.ts";
import { excerpt, isRecord } from "../internal/values.ts";
import type { ServerSentEvent } from "./sse-decoder.ts";

/** What a stream of chunks must have shown before a close without `[DONE]` counts as its end. */
export interface EndRules {
  /** The request asked for `stream_options.include_usage`, so a usage chunk is part of the whole. */
  requireUsage?: boolean;
  /** The request's `audio.format`, given to each choice's first audio fragment unless it says its own. */
  audioFormat?: string | undefined;
  /** The request's `n`: choices 0 to n − 1 must all have finished, even one never seen. */
  choiceCount?: number | undefined;
}

/**
 * Some providers spell it `reasoning_content`: it is read as `reasoning` (which wins when both
 * come), through an alias that is not enumerable, so `JSON.stringify` still gives what was sent.
 */
export function aliasReasoning(holder: Record<string, unknown>): void {
  if (holder.reasoning == null && typeof holder.reasoning_content === "string") {
    Object.defineProperty(holder, "reasoning", { value: holder.reasoning_content, writable: true, configurable: true });
  }
}

const EXCERPT_LENGTH = 120;

/**
 * The step between decoded events and chunks: each event becomes a chunk, an error, the end
 * (`[DONE]`), or nothing (keep-alives, pings); a chunk is filled in, in place, where a provider
 * left something out (a tool call's index, `reasoning`). It also keeps what decides whether a body
 * that closes without `[DONE]` ended or was cut: every choice index seen (and with the request's
 * `n`, every index below it) must have carried a `finish_reason`, and the usage chunk must have
 * arrived when it was asked for.
 *
 * Chunks are queued (a whole network read is decoded at once); the reader hands them out.
 */
export class ChunkEvents<T> {
  readonly queue: T[] = [];
  /** An error to throw once the chunks queued before it have been handed out. */
  failure: Error | undefined;
  sawDone = false;
  readonly #context: ErrorContext;
  readonly #rules: EndRules;
  readonly #gateway: GatewayInfo;
  readonly #unfinished = new Set<number>();
  readonly #finished = new Set<number>();
  /** The index of the last choice seen without a finish_reason: skips the set work for the run of chunks that follows. */
  #lastOpenIndex = -1;
  #sawUsage = false;
  #toolCalls: ToolCallIndexes | undefined;
  /** Choices whose spoken reply has begun. */
  readonly #spoken = new Set<number>();

  constructor(context: ErrorContext, gateway: GatewayInfo, rules: EndRules = {}) {
    this.#context = context;
    this.#gateway = gateway;
    this.#rules = rules;
  }

  /** Takes one event in; `bodyEnded` tells a half-sent last event from malformed data. */
  add(event: ServerSentEvent, bodyEnded: boolean): void {
    if (this.sawDone || this.failure) return;
    const { data } = event;
    // openai's reader ends at `[DONE]` with whitespace around it too.
    if (data.trim() === "[DONE]") {
      this.sawDone = true;
      return;
    }
    if (event.event === "error") {
      this.failure = errorFromStreamEvent(data, this.#context);
      return;
    }
    // Like EventSource's `onmessage`, only unnamed ("message") events are chunks; other named
    // events (pings, provider metadata) are not meant for a chunk consumer. Empty data is
    // skipped as a lenient keep-alive.
    if ((event.event !== undefined && event.event !== "message") || data === "") return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      // Redacted before the cut, with room past it so a key the cut goes through is caught whole.
      const shown = JSON.stringify(excerpt((this.#context.redact ?? String)(data.slice(0, 2 * EXCERPT_LENGTH)), EXCERPT_LENGTH));
      this.failure = bodyEnded
        ? new APIConnectionError(`The stream ended in the middle of an event: ${shown}`)
        : new ModelGateError(`The stream sent data that is not valid JSON: ${shown}`);
      return;
    }
    // `null`, numbers and arrays are no chunk: handing them on would crash the helpers.
    if (!isRecord(chunk)) return;
    // Truthy, as openai reads it: `"error": false` (or 0, or "") beside a chunk says there is none.
    if (chunk.error) {
      this.failure = errorFromBody(undefined, chunk, this.#context);
      return;
    }
    // The stream's GatewayInfo: the served model from the first chunks, usage and cost from the
    // usage chunk; nothing to do for the chunks in between.
    const gateway = this.#gateway;
    if (chunk.usage != null) this.#sawUsage = true;
    if (gateway.model === null || gateway.generationID === null || chunk.usage != null) learnFrom(gateway, chunk, this.#context.redact);
    const { choices } = chunk;
    if (Array.isArray(choices)) for (const choice of choices) if (isRecord(choice)) this.#see(choice);
    this.queue.push(chunk as T);
  }

  /** Why a body that closed now (without `[DONE]`) was cut short; `undefined` when it was whole. */
  whyUnfinished(): string | undefined {
    let missing: string | undefined;
    const unfinished = [...this.#unfinished];
    // A choice the request asked for but never saw did not finish either. The loop stops after
    // a few to name, so a huge `n` costs no more than the choices the stream did show.
    for (let index = 0; index < (this.#rules.choiceCount ?? 0) && unfinished.length < 8; index++) {
      if (!this.#finished.has(index) && !this.#unfinished.has(index)) unfinished.push(index);
    }
    if (this.#finished.size === 0 && unfinished.length === 0) missing = "no finish_reason";
    else if (unfinished.length > 0) missing = `choice ${unfinished.sort((a, b) => a - b).join(", ")} had no finish_reason`;
    else if (this.#rules.requireUsage && !this.#sawUsage) missing = "no usage chunk (stream_options.include_usage)";
    return missing && `The stream ended before it finished (no [DONE], and ${missing}): a cut connection?`;
  }

  #see(choice: Record<string, unknown>): void {
    const index = typeof choice.index === "number" ? choice.index : 0;
    const delta = choice.delta;
    if (isRecord(delta)) {
      // A lone call object instead of a list is read as a list of one.
      if (isRecord(delta.tool_calls)) delta.tool_calls = [delta.tool_calls];
      if (Array.isArray(delta.tool_calls)) (this.#toolCalls ??= new ToolCallIndexes()).fill(index, delta.tool_calls);
      aliasReasoning(delta);
      // A spoken reply's format is in the request, not in its fragments: each choice's first
      // fragment is given it unless it says its own (a later one that does wins, see the accumulator).
      if (isRecord(delta.audio) && !this.#spoken.has(index)) {
        this.#spoken.add(index);
        if (this.#rules.audioFormat) delta.audio.format ??= this.#rules.audioFormat;
      }
    }
    const finishReason = choice.finish_reason;
    if (typeof finishReason === "string" && finishReason !== "") {
      this.#finished.add(index);
      this.#unfinished.delete(index);
      if (this.#lastOpenIndex === index) this.#lastOpenIndex = -1;
    } else if (index !== this.#lastOpenIndex && !this.#finished.has(index)) {
      this.#unfinished.add(index);
      this.#lastOpenIndex = index;
    }
  }
}

/**
 * Gives every tool-call fragment a numeric `index`, as the OpenAI wire format has it, for the
 * providers that leave it out or send `null`: a fragment naming a call `id` already seen
 * continues that call, a new `id` starts the next one, and a fragment with neither continues
 * the choice's last call.
 */
class ToolCallIndexes {
  readonly #byChoice = new Map<number, { indexById: Map<string, number>; last: number; next: number }>();

  fill(choiceIndex: number, fragments: unknown[]): void {
    let calls = this.#byChoice.get(choiceIndex);
    if (!calls) this.#byChoice.set(choiceIndex, (calls = { indexById: new Map(), last: 0, next: 0 }));
    for (const fragment of fragments) {
      if (!isRecord(fragment)) continue;
      const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
      let index: number;
      if (typeof fragment.index === "number") index = fragment.index;
      else if (id !== undefined) index = calls.indexById.get(id) ?? calls.next;
      else index = calls.last;
      fragment.index = index;
      // Arguments sent as a value rather than JSON text (an object, a list, a number) are taken
      // as that value's JSON, as a whole answer's are: read, then refused or run, the same way.
      const call = fragment.function;
      if (isRecord(call) && call.arguments != null && typeof call.arguments != "string") call.arguments = JSON.stringify(call.arguments);
      if (id !== undefined && !calls.indexById.has(id)) calls.indexById.set(id, index);
      calls.last = index;
      calls.next = Math.max(calls.next, index + 1);
    }
  }
}
