import type { ChatCompletionChunk, ChatCompletionChunkChoice, ChatCompletionTokenLogprob } from "../../types/index.ts";
import type { ChatCompletionSnapshot, ChatCompletionSnapshotChoice } from "../../types/helper-events.ts";
import type { PartialJSONParser } from "../structured/partial-json.ts";
import type { EventStream } from "../../resources/chat/event-stream.ts";

type SnapshotCall = NonNullable<ChatCompletionSnapshotChoice["message"]["tool_calls"]>[number];

/** How a stream's answer and calls are parsed as they arrive, when the request gave schemas. */
export interface DeltaParsing {
  /**
   * A new incremental JSON parser, for the content or calls parsed as they arrive. Handed in,
   * not imported: the runner's streamed steps parse nothing and do not load the parser.
   */
  parser(): PartialJSONParser;
  /** Choices' content is the answer: `content.delta` carries it parsed so far. */
  readonly content: boolean;
  /** Calls of these functions carry their arguments parsed so far. */
  readonly functions: ReadonlySet<string>;
  /** `content.done`'s `parsed`: the answer, checked. Rejects when it fails its checks (then `content.done` is not emitted). */
  contentDone(choice: ChatCompletionSnapshotChoice, snapshot: ChatCompletionSnapshot): Promise<unknown>;
  /** `tool_calls.function.arguments.done`'s `parsed_arguments`. Rejects as `contentDone` does. */
  argumentsDone(call: SnapshotCall, choice: ChatCompletionSnapshotChoice, snapshot: ChatCompletionSnapshot): Promise<unknown>;
}

/** What has been said of one choice already, and its parsers. */
interface ChoiceState {
  contentDone: boolean;
  refusalDone: boolean;
  logprobsContentDone: boolean;
  logprobsRefusalDone: boolean;
  doneCalls: Set<number>;
  /** The calls begun so far, by index. */
  begunCalls: Set<number>;
  /** The call whose arguments are arriving: a new index means the previous call is complete, if its arguments are. */
  currentCall: number | null;
  /** A call went on after another had begun (deltas by index 0, 1, 0): from then on only the finish tells the calls done. */
  interleaved: boolean;
  /** `undefined` once the text can no longer be JSON. */
  content: PartialJSONParser | undefined;
  calls: Map<number, PartialJSONParser | undefined>;
}

const NO_PARSING: DeltaParsing = {
  parser: () => {
    throw new TypeError("nothing is parsed");
  },
  content: false,
  functions: new Set(),
  contentDone: async () => null,
  argumentsDone: async () => null,
};

/**
 * The chunk-by-chunk events of a streamed reply, as openai's `ChatCompletionStream` emits them:
 * each chunk is added to the snapshot (`chunk`), then each choice's new text, refusal, log
 * probabilities and call arguments are told (`content`, `content.delta`, …), and what a chunk
 * shows to be complete (the choice finished, or a new call began) is told as done
 * (`content.done`, `tool_calls.function.arguments.done`, …). Each call is told done once, with
 * its whole arguments: when the next call begins if they are whole JSON by then, else (a call
 * whose deltas interleave with another's) when the choice finishes.
 *
 * The parsed-so-far values come from the SDK's incremental JSON parser, fed each delta once
 * (never the text so far again), and are built only when someone listens.
 */
export class DeltaEvents {
  snapshot: ChatCompletionSnapshot | undefined;
  readonly #events: EventStream;
  readonly #parsing: DeltaParsing;
  readonly #states = new Map<number, ChoiceState>();

  constructor(events: EventStream, parsing: DeltaParsing = NO_PARSING) {
    this.#events = events;
    this.#parsing = parsing;
  }

  /** Takes the next chunk in and tells what it says; resolves once every event of it was emitted. */
  async add(chunk: ChatCompletionChunk): Promise<void> {
    const snapshot = this.#accumulate(chunk);
    const events = this.#events;
    events.chunksTold++;
    events.emit("chunk", chunk, snapshot);
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      if (!isObject(choice)) continue;
      const index = typeof choice.index === "number" ? choice.index : 0;
      const current = snapshot.choices[index]!;
      const { message } = current;
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (typeof delta?.content === "string" && message.content) {
        events.emit("content", delta.content, message.content);
        events.emit("content.delta", { delta: delta.content, snapshot: message.content, parsed: message.parsed });
      }
      if (typeof delta?.refusal === "string" && message.refusal) {
        events.emit("refusal.delta", { delta: delta.refusal, snapshot: message.refusal });
      }
      if (Array.isArray(choice.logprobs?.content)) {
        events.emit("logprobs.content.delta", { content: choice.logprobs.content, snapshot: current.logprobs?.content ?? [] });
      }
      if (Array.isArray(choice.logprobs?.refusal)) {
        events.emit("logprobs.refusal.delta", { refusal: choice.logprobs.refusal, snapshot: current.logprobs?.refusal ?? [] });
      }
      const state = this.#state(index);
      const calls = Array.isArray(delta?.tool_calls) ? delta.tool_calls.filter(isObject) : [];
      for (const call of calls) {
        const at = typeof call.index === "number" ? call.index : 0;
        if (state.currentCall === at) continue;
        // Another call: the text before it is complete, and so is the call before it, once its
        // arguments are whole JSON (a provider may send every call's name before any arguments).
        await this.#contentDone(current, state);
        if (state.currentCall !== null && !state.interleaved && wholeJSON(message.tool_calls?.[state.currentCall]?.function.arguments)) {
          await this.#callDone(current, state, state.currentCall);
        }
        if (state.begunCalls.has(at)) state.interleaved = true;
        state.begunCalls.add(at);
        state.currentCall = at;
      }
      for (const call of calls) {
        const at = typeof call.index === "number" ? call.index : 0;
        const made = message.tool_calls?.[at];
        if (!made) continue;
        events.emit("tool_calls.function.arguments.delta", {
          name: made.function.name,
          index: at,
          arguments: made.function.arguments,
          parsed_arguments: made.function.parsed_arguments,
          arguments_delta: typeof call.function?.arguments === "string" ? call.function.arguments : "",
        });
      }
      // The choice finished: its text, and every call not told done yet, in index order, are complete.
      if (current.finish_reason) {
        await this.#contentDone(current, state);
        for (const at of [...state.begunCalls].sort((a, b) => a - b)) await this.#callDone(current, state, at);
      }
    }
  }

  async #contentDone(choice: ChatCompletionSnapshotChoice, state: ChoiceState): Promise<void> {
    const { message, logprobs } = choice;
    const events = this.#events;
    if (message.content && !state.contentDone) {
      state.contentDone = true;
      const parsed = await this.#checked(() => this.#parsing.contentDone(choice, this.snapshot!));
      if (parsed) events.emit("content.done", { content: message.content, parsed: parsed.value });
    }
    if (message.refusal && !state.refusalDone) {
      state.refusalDone = true;
      events.emit("refusal.done", { refusal: message.refusal });
    }
    if (logprobs?.content && !state.logprobsContentDone) {
      state.logprobsContentDone = true;
      events.emit("logprobs.content.done", { content: logprobs.content });
    }
    if (logprobs?.refusal && !state.logprobsRefusalDone) {
      state.logprobsRefusalDone = true;
      events.emit("logprobs.refusal.done", { refusal: logprobs.refusal });
    }
  }

  async #callDone(choice: ChatCompletionSnapshotChoice, state: ChoiceState, index: number): Promise<void> {
    const call = choice.message.tool_calls?.[index];
    if (!call || state.doneCalls.has(index)) return;
    state.doneCalls.add(index);
    const parsed = await this.#checked(() => this.#parsing.argumentsDone(call, choice, this.snapshot!));
    if (parsed) this.#events.emit("tool_calls.function.arguments.done", { name: call.function.name, index, arguments: call.function.arguments, parsed_arguments: parsed.value });
  }

  /**
   * A value checked as `parse()` checks it, or `undefined` when the check fails: the done event
   * is then left out, and the stream's end reports the failure with the whole reply (the same
   * check, made again by `parse()`'s code on the whole completion).
   */
  async #checked(check: () => Promise<unknown>): Promise<{ value: unknown } | undefined> {
    try {
      return { value: await check() };
    } catch {
      return undefined;
    }
  }

  #state(index: number): ChoiceState {
    let state = this.#states.get(index);
    if (!state) {
      state = {
        contentDone: false,
        refusalDone: false,
        logprobsContentDone: false,
        logprobsRefusalDone: false,
        doneCalls: new Set(),
        begunCalls: new Set(),
        currentCall: null,
        interleaved: false,
        content: this.#parsing.content ? this.#parsing.parser() : undefined,
        calls: new Map(),
      };
      this.#states.set(index, state);
    }
    return state;
  }

  /** Adds a chunk to the snapshot, as openai's stream assembles it (text joined, calls by index). */
  #accumulate(chunk: ChatCompletionChunk): ChatCompletionSnapshot {
    const { choices, ...rest } = chunk;
    let snapshot = this.snapshot;
    if (!snapshot) snapshot = this.snapshot = { ...rest, choices: [] } as unknown as ChatCompletionSnapshot;
    // Later chunks update the top fields (the usage chunk brings `usage`), as openai's do.
    else if (chunk.id) Object.assign(snapshot, rest);
    for (const choice of Array.isArray(choices) ? choices : []) {
      if (!isObject(choice)) continue;
      this.#accumulateChoice(snapshot, choice);
    }
    return snapshot;
  }

  #accumulateChoice(snapshot: ChatCompletionSnapshot, choice: ChatCompletionChunkChoice): void {
    const index = typeof choice.index === "number" ? choice.index : 0;
    const current = (snapshot.choices[index] ??= { index, message: {}, finish_reason: null, logprobs: null });
    if (isObject(choice.logprobs)) {
      const logprobs = (current.logprobs ??= { content: null, refusal: null });
      append(logprobs, "content", choice.logprobs.content);
      append(logprobs, "refusal", choice.logprobs.refusal);
    }
    if (choice.finish_reason) current.finish_reason = choice.finish_reason;
    const delta = choice.delta;
    if (!isObject(delta)) return;
    const { message } = current;
    const state = this.#state(index);
    if (delta.role) message.role = delta.role;
    if (typeof delta.refusal === "string" && delta.refusal) message.refusal = (message.refusal ?? "") + delta.refusal;
    if (typeof delta.content === "string" && delta.content) {
      message.content = (message.content ?? "") + delta.content;
      // As openai's: no parsed answer once the model refuses.
      if (state.content && !message.refusal) message.parsed = this.#grow(state.content, delta.content, () => (state.content = undefined), "content.delta") ?? message.parsed ?? null;
    }
    if (Array.isArray(delta.tool_calls)) {
      const calls = (message.tool_calls ??= []);
      for (const fragment of delta.tool_calls) {
        if (!isObject(fragment)) continue;
        const at = typeof fragment.index === "number" ? fragment.index : 0;
        const call = (calls[at] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        if (fragment.id) call.id = fragment.id;
        if (typeof fragment.function?.name === "string" && fragment.function.name) call.function.name = fragment.function.name;
        const text = fragment.function?.arguments;
        if (typeof text !== "string" || !text) continue;
        call.function.arguments += text;
        if (!this.#parsing.functions.has(call.function.name)) continue;
        if (!state.calls.has(at)) state.calls.set(at, this.#parsing.parser());
        const parser = state.calls.get(at);
        if (parser) {
          const grown = this.#grow(parser, text, () => state.calls.set(at, undefined), "tool_calls.function.arguments.delta");
          if (grown !== undefined) call.function.parsed_arguments = grown;
        }
      }
    }
  }

  /**
   * Feeds `text` to `parser`; the value so far when someone may look at it (listeners of
   * `event` or of `chunk`), else `undefined`. Text that stops being JSON stops the parser
   * (`stop`): the last value stays, and the end of the stream reports the error.
   */
  #grow(parser: PartialJSONParser, text: string, stop: () => void, event: string): unknown {
    try {
      parser.push(text);
    } catch {
      stop();
      return undefined;
    }
    return this.#events.listens(event) || this.#events.listens("chunk") ? parser.snapshot() : undefined;
  }
}

/**
 * Whether a call's arguments so far are a whole JSON text: more of them cannot follow (they
 * would not be JSON). Asked at most once a call, when the next call begins.
 */
function wholeJSON(text: string | undefined): boolean {
  try {
    JSON.parse(text ?? "");
    return true;
  } catch {
    return false;
  }
}

/** Narrows a typed field that a provider may still have sent as something else (`null`, a string). */
function isObject<T>(value: T): value is Extract<NonNullable<T>, object> {
  return typeof value === "object" && value !== null;
}

function append(logprobs: { content: ChatCompletionTokenLogprob[] | null; refusal: ChatCompletionTokenLogprob[] | null }, field: "content" | "refusal", tokens: unknown): void {
  if (!Array.isArray(tokens)) return;
  // A loop rather than push(...tokens): spreading a long array into arguments can overflow the stack.
  const list = (logprobs[field] ??= []);
  for (const token of tokens) list.push(token as ChatCompletionTokenLogprob);
}
