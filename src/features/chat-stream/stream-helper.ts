import { isRecord } from "../../internal/values.ts";
import { loadStructured } from "../../pipeline/loader.ts";
import { callBounds, callOptionsWith } from "../../pipeline/call-options.ts";
import type { LoadedStream } from "../../resources/chat/chat-completion-stream.ts";
import type { Completions } from "../../resources/chat/completions.ts";
import { LEFT_THE_LOOP, type EventStream } from "../../resources/chat/event-stream.ts";
import type { Requester } from "../../resources/requester.ts";
import { ChatCompletionAccumulator } from "../../streaming/accumulate.ts";
import { Stream } from "../../streaming/stream.ts";
import type { GatewayInfo } from "../../gateway/info.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam } from "../../types/index.ts";
import type { ChatCompletionSnapshot, ChatCompletionSnapshotChoice } from "../../types/helper-events.ts";
import type { StructuredStream } from "../../types/structured.ts";
import type { RequestPlan } from "../structured/plan.ts";
import { ChatHelper } from "./chat-helper.ts";
import { DeltaEvents, type DeltaParsing } from "./delta-events.ts";
import { listen } from "./listen.ts";
import { readMessageFrame } from "./message-frame.ts";

/**
 * parse()'s code, which `stream()` requests beside this one (see resources/chat/completions.ts)
 * and this one then asks the loader for: through the loader, not imported, so a body read back
 * (`fromReadableStream()`), which parses nothing, does not load it.
 */
type Structured = Awaited<ReturnType<typeof loadStructured>>;

/** What a stream's reply is read from, once `open()` has resolved (the response headers arrived). */
interface Opened {
  stream: Stream<ChatCompletionChunk, Response | undefined>;
  parsing?: DeltaParsing;
  /** parse()'s completion; without it (a body read back from the bridge) the chunks are assembled here. */
  final?: () => Promise<ChatCompletion>;
  /** What the response said, for a request (a body read back has none of it). */
  connection?: Pick<LoadedStream, "response" | "requestID" | "gateway">;
}

/** What a `ChatCompletionStream` (see resources/chat/chat-completion-stream.ts) forwards its calls to. */
export class StreamHelper extends ChatHelper implements LoadedStream {
  response: Response | undefined;
  requestID: string | null | undefined;
  gateway: GatewayInfo | undefined;
  readonly #open: () => Promise<Opened>;

  /** `open`: sends the request (or reads the body); `messages`: the stream's own list. */
  constructor(events: EventStream, messages: ChatCompletionMessageParam[], open: () => Promise<Opened>) {
    super(events, messages);
    this.#open = open;
  }

  /** Reads the reply, then its final events. */
  start(): void {
    const { conversation, events } = this;
    events.run(async () => {
      const { stream, parsing, final, connection } = await this.#open();
      if (connection) ({ response: this.response, requestID: this.requestID, gateway: this.gateway } = connection);
      events.emit("connect");
      if (!final) return this.#readBody(stream);
      const deltas = (this.streaming = new DeltaEvents(events, parsing));
      for await (const chunk of stream) await deltas.add(chunk);
      const completion = await final();
      // As openai's helper: the snapshot is gone once the completion is finished.
      this.streaming = undefined;
      conversation.addCompletion(completion);
    }, () => conversation.emitFinal());
  }

  /**
   * A bridge body read back, as openai's reader reads it: the chunks of one completion after
   * another (a new chunk id starts the next, as a tool run's next step does), and openai's
   * message frames (see message-frame.ts), each of which ends the completion before it and
   * joins `messages` as it is, so a tool run's body rebuilds its whole conversation.
   */
  async #readBody(stream: AsyncIterable<ChatCompletionChunk>): Promise<void> {
    const { conversation, events } = this;
    let deltas = (this.streaming = new DeltaEvents(events));
    let accumulator: ChatCompletionAccumulator | undefined;
    let id: string | undefined;
    const finish = (toolCallIDs?: unknown[]) => {
      const completion = withParsedNull(accumulator!.result(this.gateway));
      // The ids the run answered its calls by (it made some up for a provider that sent none).
      const calls = completion.choices[0]?.message.tool_calls ?? [];
      toolCallIDs?.forEach((callID, index) => {
        if (typeof callID === "string" && callID !== "" && calls[index]) calls[index].id = callID;
      });
      this.streaming = undefined;
      conversation.addCompletion(completion);
      accumulator = undefined;
      id = undefined;
      deltas = this.streaming = new DeltaEvents(events);
    };
    for await (const chunk of stream) {
      const frame = readMessageFrame(chunk);
      if (frame) {
        if (accumulator) finish(frame.toolCallIDs);
        conversation.addMessage(frame.message);
        continue;
      }
      if (accumulator && id && chunk.id && chunk.id !== id) finish();
      accumulator ??= new ChatCompletionAccumulator();
      accumulator.add(chunk);
      await deltas.add(chunk);
      if (chunk.id) id = chunk.id;
    }
    // A body of no chunks at all ends as it always did: with the accumulator's empty completion.
    if (accumulator || conversation.completions.length === 0) {
      accumulator ??= new ChatCompletionAccumulator();
      finish();
    }
    this.streaming = undefined;
  }

  /** The chunks from now on. A `break` ends the request with a reason tracing knows (no failure, unlike `abort()`). */
  items(): AsyncIterable<ChatCompletionChunk> {
    return listen(this.events, "chunk", () => this.events.controller.abort(LEFT_THE_LOOP));
  }
}

/**
 * `chat.completions.stream()`: the request goes through `parse({ stream: true })` (so auth,
 * retries, timeouts, budgets, cut detection and `gateway` are the pipeline's), and is read
 * as openai's helper reads it. The caller's `signal` aborts it as `abort()` does.
 */
export function streamHelper(events: EventStream, stream: { messages: ChatCompletionMessageParam[] }, client: Requester, completions: Completions, params: unknown, options: unknown): StreamHelper {
  const { controller } = events;
  const messages = stream.messages;
  if (isRecord(params) && Array.isArray(params.messages)) messages.push(...(params.messages as ChatCompletionMessageParam[]));
  return new StreamHelper(events, messages, async () => {
    events.follow(isRecord(options) ? options.signal : undefined);
    // Loaded by now: `stream()` waited for both loads before making this helper.
    const structured = await loadStructured(callBounds(options, client.timeout));
    // The caller's params as parse() reads them: a mistake in them is thrown here, as the `error` event.
    const plan = structured.planRequest(params, isRecord(options) ? options.structuredOutput : undefined, client.redact);
    // `abort()` (and the caller's signal, which aborts it) stops the check of a done event's answer.
    plan.signals.push(controller.signal);
    // The caller's options, read (a spread keeps own fields only), with the helper's signal over theirs.
    const callOptions = options === undefined || isRecord(options) ? callOptionsWith(options, { signal: controller.signal }) : options;
    const reply = (await completions.parse({ ...(params as object), stream: true } as never, callOptions as never)) as unknown as StructuredStream<unknown>;
    return {
      stream: reply,
      parsing: deltaParsing(structured, plan),
      final: () => reply.finalChatCompletion() as Promise<ChatCompletion>,
      // The request id as `gateway` has it, with the key cut out (a proxy may echo it there).
      connection: { response: reply.response, requestID: reply.gateway?.requestID ?? null, gateway: reply.gateway },
    };
  });
}

/** `ChatCompletionStream.fromReadableStream()`: a bridge body read back, with the same events (it is connected from the start). */
export function bodyHelper(events: EventStream, stream: { messages: ChatCompletionMessageParam[] }, readable: ReadableStream<Uint8Array>): StreamHelper {
  return new StreamHelper(events, stream.messages, async () => ({ stream: Stream.fromReadableStream<ChatCompletionChunk>(readable, events.controller) }));
}

/** How the stream's deltas are parsed: as `parse()` reads the whole reply, on the text so far. */
function deltaParsing({ parseCompletion, PartialJSONParser }: Structured, plan: RequestPlan): DeltaParsing {
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

/**
 * A completion of one choice holding `message`: what `parseCompletion()` checks for a done
 * event. It carries no `gateway`: only the parsed values of its one choice are read from it.
 */
function partOf(snapshot: ChatCompletionSnapshot, choice: ChatCompletionSnapshotChoice, message: Record<string, unknown>): ChatCompletion {
  const part: Omit<ChatCompletion, "gateway"> = {
    id: snapshot.id,
    object: "chat.completion",
    created: snapshot.created,
    model: snapshot.model,
    choices: [{ index: choice.index, message: { role: "assistant", ...message } as never, finish_reason: choice.finish_reason as never }],
  };
  return part as ChatCompletion;
}

/** As openai's helper finishes a completion it has no params for: every message gets `parsed: null`, and `refusal: null` when it has none. */
function withParsedNull(completion: ChatCompletion): ChatCompletion {
  for (const { message } of completion.choices) {
    (message as { parsed?: unknown }).parsed = null;
    message.refusal ??= null;
  }
  return completion;
}
