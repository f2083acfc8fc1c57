import { APIConnectionError, ModelGateError, errorFromBody, errorFromStreamEvent, type ErrorContext } from "../errors/index.ts";
import { learnFrom, type GatewayInfo } from "../gateway/info.ts";
import { redactNothing } from "../internal/redact.ts";
import { excerpt, isRecord } from "../internal/values.ts";
import { readChunkChoices } from "./response-message.ts";
import type { ServerSentEvent } from "./sse-decoder.ts";
import { queue, type Queue } from "./queue.ts";

/** What a stream of chunks must have shown before a close without `[DONE]` counts as its end. */
export interface EndRules {
  /** The request asked for `stream_options.include_usage`, so a usage chunk is part of the whole. */
  requireUsage?: boolean;
  /** The request's `audio.format`, given to each choice's first audio fragment unless it says its own. */
  audioFormat?: string | undefined;
  /** The request's `n`: choices 0 to n − 1 must all have finished, even one never seen. */
  choiceCount?: number | undefined;
}

const EXCERPT_LENGTH = 120;

/**
 * The step between decoded events and chunks: each event becomes a chunk, an error, the end
 * (`[DONE]`), or nothing (keep-alives, pings); a chunk is filled in, in place, where a provider
 * left something out or said it its own way (a missing `delta`, a content of parts, a tool call's
 * index, `reasoning`: see `readChunkChoice` and `ToolCallIndexes`). It also keeps what decides
 * whether a body that closes without `[DONE]` ended or was cut: every choice index seen (and with
 * the request's `n`, every index below it) must have carried a `finish_reason`, and the usage
 * chunk (Groq's `x_groq.usage` counts) must have arrived when it was asked for.
 *
 * Chunks are queued (a whole network read is decoded at once); the reader hands them out.
 */
export class ChunkEvents<T> {
  readonly queued: Queue<T> = queue();
  /** An error to throw once the chunks queued before it have been handed out. */
  failure: Error | undefined;
  sawDone = false;
  readonly #context: ErrorContext;
  readonly #rules: EndRules;
  readonly #gateway: GatewayInfo;
  readonly #unfinished = new Set<number>();
  readonly #finished = new Set<number>();
  /**
   * The index of the last choice seen without a finish_reason: skips the set work for the run
   * of chunks that follows. `undefined` for none, not a number: any number may be an index a
   * provider sends (a -1 cut mid-answer would pass for finished).
   */
  #lastOpenIndex: number | undefined;
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
    // Empty data is skipped as a lenient keep-alive.
    if (data === "") return;
    const named = event.event !== undefined && event.event !== "message";
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      // A named event is not meant for a chunk reader unless it holds one (below): a `ping`'s text is no error.
      if (named) return;
      // Redacted before the cut, with room past it so a key the cut goes through is caught whole.
      const shown = JSON.stringify(excerpt((this.#context.redact ?? redactNothing)(data.slice(0, 2 * EXCERPT_LENGTH)), EXCERPT_LENGTH));
      this.failure = bodyEnded
        ? new APIConnectionError(`The stream ended in the middle of an event (its data is incomplete: ${shown}).`)
        : new ModelGateError(`The stream sent data that is not valid JSON: ${shown}`);
      return;
    }
    // `null`, numbers and arrays are no chunk: handing them on would crash the helpers.
    if (!isRecord(chunk)) return;
    // Unnamed ("message") events are chunks, as for EventSource's `onmessage`. A named event is
    // one too when it holds one: some providers name their chunk events (`event: completion`),
    // and openai's reader takes the data of every named event, so skipping them would lose the
    // answer without a word. An error is never noise either. Other named events (pings,
    // provider metadata) are not chunks.
    if (named && !isChunk(chunk) && !chunk.error) return;
    // Truthy, as openai reads it: `"error": false` (or 0, or "") beside a chunk says there is none.
    if (chunk.error) {
      this.failure = errorFromBody(undefined, chunk, this.#context);
      return;
    }
    // The stream's GatewayInfo: the served model from the first chunks, usage and cost from the
    // usage chunk; nothing to do for the chunks in between.
    const gateway = this.#gateway;
    // Only an object is a usage (`usageOf`): `usage: 0` or `"lots"` says nothing the SDK can
    // read, so it is not the usage chunk `include_usage` waits for, and a stream cut after it
    // is still told as cut.
    const usage = usageOf(chunk);
    if (usage !== undefined) this.#sawUsage = true;
    if (gateway.model === null || gateway.generationID === null || usage !== undefined) {
      learnFrom(gateway, usage === chunk.usage ? chunk : { ...chunk, usage }, this.#context.redact);
    }
    const { unreadable, failed } = readChunkChoices(chunk, this.#context.redact ?? redactNothing, (choice, delta) => this.#see(choice, delta));
    if (unreadable) {
      this.failure = unreadable;
      return;
    }
    // A choice's own error is thrown once the text its chunk carries has been handed out.
    this.queued.push(chunk as T);
    this.failure = failed;
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
    else if (this.#rules.requireUsage && !this.#sawUsage) missing = "no usage chunk, which stream_options.include_usage asked for";
    return missing && `The stream ended before it finished (no [DONE], and ${missing}): the connection was probably cut.`;
  }

  /** Keeps what the end rules and the tool-call indexes need of a choice `readChunkChoices` has read. */
  #see(choice: Record<string, unknown>, delta: Record<string, unknown> | undefined): void {
    const index = typeof choice.index === "number" ? choice.index : 0;
    if (delta) {
      // A lone call object instead of a list is read as a list of one.
      if (isRecord(delta.tool_calls)) delta.tool_calls = [delta.tool_calls];
      if (Array.isArray(delta.tool_calls)) (this.#toolCalls ??= new ToolCallIndexes()).fill(index, delta.tool_calls);
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
      if (this.#lastOpenIndex === index) this.#lastOpenIndex = undefined;
    } else if (index !== this.#lastOpenIndex && !this.#finished.has(index)) {
      this.#unfinished.add(index);
      this.#lastOpenIndex = index;
    }
  }
}

/**
 * A chunk's usage: its `usage` when that is an object, else Groq's `x_groq.usage`. Anything
 * else (`0`, `"lots"`) is no usage, for the end rule (`include_usage`), `gateway` and the
 * assembled completion alike.
 */
export function usageOf(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  return isRecord(chunk.usage) ? chunk.usage : groqUsage(chunk);
}

/**
 * Groq's legacy place for a stream's usage, `x_groq.usage` (on the last chunk): it is the
 * chunk's usage when the chunk has no `usage` of its own.
 */
function groqUsage(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  const extension = chunk.x_groq;
  return isRecord(extension) && isRecord(extension.usage) ? extension.usage : undefined;
}

/** One tool call of a choice: the `index` it is given, its `id`, and the wire `index` it came at. */
interface HeldCall {
  index: number;
  id: string | undefined;
  wire: number | undefined;
}

/** Where the tool calls of one choice stand. */
interface ChoiceCalls {
  /** The call each wire `index` holds now. */
  held: Map<number, HeldCall>;
  byId: Map<string, HeldCall>;
  /** Every index given so far: a call moved to a free index must not land on one a provider uses. */
  taken: Set<number>;
  /** The call of the choice's last fragment. */
  last: HeldCall | undefined;
  next: number;
}

/**
 * Gives every tool-call fragment the numeric `index` of the call it belongs to, as the OpenAI
 * wire format has it, so every reader of the chunks (the accumulator, `stream()`, the bridge,
 * openai's readers) joins the same fragments into the same calls:
 *
 * - a fragment without `index` (or with `null`), as some providers send: one naming a call
 *   `id` already seen continues that call, a new `id` starts the next one, and one with
 *   neither continues the choice's last call; a call started so is held at the index it was
 *   given, so later fragments at that `index` continue it (Kimi continues its index-less
 *   parallel calls by position);
 * - a fragment at an `index` whose call already has an `id`, that carries a function name and
 *   another `id`, starts a new call (LiteLLM's Ollama adapter and some Gemini channels send
 *   parallel calls all at `index: 0`): it is given the next free index, and so are the later
 *   fragments with its `id`, or with none, at that wire index. A fragment without a name, or
 *   with the held call's `id`, or without `id`, continues the call held at its index.
 *
 * The work is a few map lookups per fragment, whatever the number of calls.
 */
class ToolCallIndexes {
  readonly #byChoice = new Map<number, ChoiceCalls>();

  fill(choiceIndex: number, fragments: unknown[]): void {
    let calls = this.#byChoice.get(choiceIndex);
    if (!calls) this.#byChoice.set(choiceIndex, (calls = { held: new Map(), byId: new Map(), taken: new Set(), last: undefined, next: 0 }));
    for (const fragment of fragments) {
      if (!isRecord(fragment)) continue;
      // An id is a label the tool result must quote back: a number is read as its text, as
      // `tool_call_id` must be sent (a number kept would be echoed as one, which APIs refuse).
      if (typeof fragment.id === "number") fragment.id = String(fragment.id);
      const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
      const call = typeof fragment.index === "number" ? atWireIndex(calls, fragment.index, id, fragment.function) : withoutIndex(calls, id);
      if (id !== undefined && !calls.byId.has(id)) calls.byId.set(id, call);
      calls.last = call;
      fragment.index = call.index;
      // Arguments sent as a value rather than JSON text (an object, a list, a number) are taken
      // as that value's JSON, as a whole answer's are: read, then refused or run, the same way.
      const fn = fragment.function;
      if (isRecord(fn) && fn.arguments != null && typeof fn.arguments != "string") fn.arguments = JSON.stringify(fn.arguments);
    }
  }
}

/** The call of a fragment that came with a numeric `index` (`wire`). */
function atWireIndex(calls: ChoiceCalls, wire: number, id: string | undefined, fn: unknown): HeldCall {
  const held = calls.held.get(wire);
  if (held !== undefined && (id === undefined || id === held.id)) return held;
  // A call named again by its id: one an earlier fragment moved away from this index, or one
  // whose first fragments came without an index.
  const known = id === undefined ? undefined : calls.byId.get(id);
  if (known !== undefined && (known.wire === wire || known.wire === undefined)) {
    known.wire = wire;
    calls.held.set(wire, known);
    return known;
  }
  if (held === undefined) return startCall(calls, calls.taken.has(wire) ? calls.next : wire, id, wire);
  if (held.id !== undefined && isRecord(fn) && typeof fn.name === "string" && fn.name !== "") return startCall(calls, calls.next, id, wire);
  held.id ??= id;
  return held;
}

/** The call of a fragment that came without an `index`. */
function withoutIndex(calls: ChoiceCalls, id: string | undefined): HeldCall {
  const known = id === undefined ? undefined : calls.byId.get(id);
  if (known !== undefined) return known;
  if (id === undefined && calls.last !== undefined) return calls.last;
  const call = startCall(calls, calls.next, id, undefined);
  // Held at the index it was given, as if it had come there: Kimi sends parallel calls without
  // `index` and continues them at their position (`index: 1`, then `0`), with no `id`. Its
  // `wire` stays unknown, so a later fragment naming its `id` at another index still finds it.
  if (!calls.held.has(call.index)) calls.held.set(call.index, call);
  return call;
}

function startCall(calls: ChoiceCalls, index: number, id: string | undefined, wire: number | undefined): HeldCall {
  const call: HeldCall = { index, id, wire };
  if (wire !== undefined) calls.held.set(wire, call);
  calls.taken.add(index);
  calls.next = Math.max(calls.next, index + 1);
  return call;
}

/** A named event's data that is a chat chunk: it says so, or it has the chunk's `choices` list. */
function isChunk(data: Record<string, unknown>): boolean {
  return data.object === "chat.completion.chunk" || Array.isArray(data.choices);
}
