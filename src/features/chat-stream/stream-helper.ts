import { isRecord } from "../../internal/values.ts";
import { callOptionsWith } from "../../pipeline/call-options.ts";
import type { Completions } from "../../resources/chat/completions.ts";
import type { Requester } from "../../resources/requester.ts";
import { ChatCompletionAccumulator } from "../../streaming/accumulate.ts";
import { Stream } from "../../streaming/stream.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam } from "../../types/index.ts";
import type { ChatCompletionSnapshot, ChatCompletionSnapshotChoice } from "../../types/helper-events.ts";
import type { StructuredStream } from "../../types/structured.ts";
import { parseCompletion } from "../structured/parse-completion.ts";
import { PartialJSONParser } from "../structured/partial-json.ts";
import { planRequest, type RequestPlan } from "../structured/plan.ts";
import { ChatHelper, type ShellHandle } from "./chat-helper.ts";
import { DeltaEvents, type DeltaParsing } from "./delta-events.ts";
import { listen } from "./listen.ts";

/** What a `ChatCompletionStream` (see resources/chat/chat-completion-stream.ts) hands its calls to. */
export class StreamHelper extends ChatHelper {
  constructor(shell: ShellHandle, messages: ChatCompletionMessageParam[], client?: Requester) {
    super(shell, messages, client);
  }

  /** Reads the reply from `open()` (which resolves once the response headers arrived), then its final events. */
  start(open: () => Promise<{ stream: Stream<ChatCompletionChunk, Response | undefined>; parsing?: DeltaParsing; final?: () => Promise<ChatCompletion> }>, onConnect: (stream: Stream<ChatCompletionChunk, Response | undefined>) => void): void {
    const { conversation } = this;
    this.run(async () => {
      const { stream, parsing, final } = await open();
      onConnect(stream);
      this.emit("connect");
      const deltas = new DeltaEvents(this, parsing);
      // Without parse()'s completion (a body read back from the bridge), the chunks are assembled here.
      const accumulator = final ? undefined : new ChatCompletionAccumulator();
      for await (const chunk of stream) {
        accumulator?.add(chunk);
        await deltas.add(chunk);
      }
      conversation.addCompletion(final ? await final() : withParsedNull(accumulator!.result()));
    }, () => conversation.emitFinal());
  }

  /** The chunks from now on; for the bridge (`bridge` set, see `HelperShell.toReadableStream`), from the start or not at all. */
  // A `break` ends the request with a reason tracing knows (no failure, unlike `abort()`).
  iterator(bridge?: unknown): AsyncIterable<ChatCompletionChunk> {
    return bridge ? this.bridged() : listen(this, "chunk", () => this.controller.abort(Symbol.for("modelgate.break")));
  }
}

/**
 * `chat.completions.stream()`: the request goes through `parse({ stream: true })` (so auth,
 * retries, timeouts, budgets, cut detection and `gateway` are the pipeline's), and is read
 * as openai's helper reads it. The caller's `signal` aborts it as `abort()` does.
 */
export function startStream(shell: ShellHandle, client: Requester, completions: Completions, params: unknown, options: unknown): StreamHelper {
  const messages = isRecord(params) && Array.isArray(params.messages) ? [...(params.messages as ChatCompletionMessageParam[])] : [];
  const helper = new StreamHelper(shell, messages, client);
  const { controller } = helper;
  helper.start(
    async () => {
      helper.follow(isRecord(options) ? options.signal : undefined);
      // The caller's params as parse() reads them: a mistake in them is thrown here, as the `error` event.
      const plan = planRequest(params, isRecord(options) ? options.structuredOutput : undefined, client.redact);
      // `abort()` (and the caller's signal, which aborts it) stops the check of a done event's answer.
      plan.signals.push(controller.signal);
      // The caller's options, read (a spread keeps own fields only), with the helper's signal over theirs.
      const callOptions = options === undefined || isRecord(options) ? callOptionsWith(options, { signal: controller.signal }) : options;
      const stream = (await completions.parse({ ...(params as object), stream: true } as never, callOptions as never)) as unknown as StructuredStream<unknown>;
      return { stream, parsing: deltaParsing(plan), final: () => stream.finalChatCompletion() as Promise<ChatCompletion> };
    },
    // The request id as `gateway` has it, with the key cut out (a proxy may echo it there).
    (stream) => Object.assign(shell[0], { response: stream.response, requestID: stream.gateway?.requestID ?? null, gateway: stream.gateway }),
  );
  return helper;
}

/** `ChatCompletionStream.fromReadableStream()`: a bridge body read back, with the same events (it is connected from the start). */
export function readBody(shell: ShellHandle, readable: ReadableStream<Uint8Array>): StreamHelper {
  const helper = new StreamHelper(shell, []);
  helper.start(
    async () => ({ stream: Stream.fromReadableStream<ChatCompletionChunk>(readable, helper.controller) }),
    () => {},
  );
  return helper;
}

/** How the stream's deltas are parsed: as `parse()` reads the whole reply, on the text so far. */
function deltaParsing(plan: RequestPlan): DeltaParsing {
  const contentIsAnswer = plan.answer !== undefined && plan.answer.toolName === undefined;
  const withoutAnswer: RequestPlan = { ...plan, answer: undefined };
  return {
    parser: () => new PartialJSONParser(),
    content: contentIsAnswer,
    functions: new Set(plan.tools.keys()),
    async contentDone(choice, snapshot) {
      if (!contentIsAnswer) return null;
      const checked = await parseCompletion(partOf(snapshot, choice, { content: choice.message.content ?? null, refusal: choice.message.refusal ?? null }), plan);
      return checked.choices[0]?.message.parsed ?? null;
    },
    async argumentsDone(call, choice, snapshot) {
      if (!plan.tools.has(call.function.name)) return null;
      const wire = { id: call.id, type: "function" as const, function: { name: call.function.name, arguments: call.function.arguments } };
      const checked = await parseCompletion(partOf(snapshot, choice, { content: null, tool_calls: [wire] }), withoutAnswer);
      return (checked.choices[0]?.message.tool_calls?.[0]?.function as { parsed_arguments?: unknown } | undefined)?.parsed_arguments ?? null;
    },
  };
}

/** A completion of one choice holding `message`: what `parseCompletion()` checks for a done event. */
function partOf(snapshot: ChatCompletionSnapshot, choice: ChatCompletionSnapshotChoice, message: Record<string, unknown>): ChatCompletion {
  return {
    id: snapshot.id,
    object: "chat.completion",
    created: snapshot.created,
    model: snapshot.model,
    choices: [{ index: choice.index, message: { role: "assistant", ...message } as never, finish_reason: choice.finish_reason as never }],
  };
}

/** As openai's helper finishes a completion it has no params for: every message gets `parsed: null`. */
function withParsedNull(completion: ChatCompletion): ChatCompletion {
  for (const choice of completion.choices) (choice.message as { parsed?: unknown }).parsed = null;
  return completion;
}
