import { abortError } from "../../errors/connection-errors.ts";
import { APIUserAbortError, ModelGateError } from "../../errors/index.ts";
import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import { callOptionsWith } from "../../pipeline/call-options.ts";
import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import type { ChatCompletionRunner } from "../../resources/chat/chat-completion-runner.ts";
import type { Completions } from "../../resources/chat/completions.ts";
import type { EventStream } from "../../resources/chat/event-stream.ts";
import { chatStreamRules, wholeCompletionEvents } from "../../resources/chat/decode.ts";
import { assertChatParams } from "../../resources/chat/validate.ts";
import type { Requester } from "../../resources/requester.ts";
import type { SendBudget } from "../../pipeline/request.ts";
import { openAIParser, toolParsers } from "../structured/openai-helpers.ts";
import { sendableTools } from "../structured/strict-mode.ts";
import { ChatCompletionAccumulator } from "../../streaming/accumulate.ts";
import type { Stream } from "../../streaming/stream.ts";
import type { ChatCompletion, ChatCompletionAssistantMessageParam, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage } from "../../types/index.ts";
import type { ToolRunCall, ToolRunResult, ToolRunStep, ToolRunStopReason } from "../../types/tool-runner.ts";
import { assistantTurn, callIDsIn, replayedTurn, type PreparedCall } from "./assistant-turn.ts";
import { callTool } from "./call-tool.ts";
import { offeredTools, type RunnerTool } from "./offered-tools.ts";
import { RunnerHelper } from "./runner-helper.ts";
import { RunBudget, withinBudget, type BudgetedStep } from "../budget/index.ts";
import { DeltaEvents } from "../chat-stream/delta-events.ts";

const DEFAULT_MAX_STEPS = 10;
/** The same call (tool and arguments) in this many consecutive steps stops the run. */
const REPEATS_TO_STOP = 3;

/**
 * `runTools()`'s helper for the object it returned (`runner`, see
 * resources/chat/chat-completion-runner.ts): once started, it checks what it was given, then
 * runs step after step, telling openai's runner events as it goes. The caller's `signal`
 * aborts the run as `runner.abort()` does.
 */
export function runnerHelper(events: EventStream, runner: ChatCompletionRunner, client: Requester, completions: Completions, params: unknown, options: unknown): RunnerHelper {
  let streamed = false;
  try {
    streamed = isRecord(params) && params.stream === true;
  } catch {
    // A getter of plain JavaScript's params threw: the run reads them again and fails with it.
  }
  return new RunnerHelper(events, runner, streamed, async (helper) => {
    events.follow(isRecord(options) ? options.signal : undefined);
    return new ToolRun(client, completions, params, options, helper).run();
  });
}

class ToolRun {
  readonly #client: Requester;
  readonly #completions: Completions;
  readonly #params: Record<string, unknown>;
  readonly #requestOptions: Record<string, unknown>;
  readonly #signal: AbortSignal;
  readonly #maxSteps: number;
  /** `maxCost`, kept by the budget code's rules; `undefined` without one. */
  readonly #budget: RunBudget | undefined;
  readonly #tools: Map<string, RunnerTool>;
  /** openai's runner events, the conversation (`runner.messages`), and the run's own events. */
  readonly #helper: RunnerHelper;
  /** What openai-shaped tools get as their second argument: the object `runTools()` returned. */
  readonly #runner: unknown;
  /** A function `tool_choice` forces: when openai-shaped, the run ends once it has run, as openai's does. */
  readonly #forced: string | undefined;
  /** A step's calls run one after another, in call order: the request set `parallel_tool_calls: false`, or `tool_choice` forces a function. */
  readonly #oneAtATime: boolean;
  /** openai's `toolContext` param: the third argument of every openai-shaped function; never sent. */
  readonly #toolContext: unknown;
  /** openai's `afterCompletion(completion, runner)` option: awaited once a step's messages are all in `messages`. */
  readonly #afterCompletion: ((completion: ChatCompletion, runner: unknown) => unknown) | undefined;
  /** How each tool's calls get `parsed_arguments`, as openai's runner gives them (see `argumentParsers`). */
  readonly #argumentParsers: Map<string, (text: string) => unknown>;
  readonly #messages: ChatCompletionMessageParam[];
  /** Every tool call id in the conversation: a new call's id must not repeat one (some providers reject it). */
  readonly #callIDs: Set<string>;
  readonly #steps: ToolRunStep[] = [];
  readonly #usage: CompletionUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  /** The cost the gateway reported, summed; `null` while it reported none. */
  #reportedCost: number | null = null;
  /** The calls of the last steps, as `name + canonical arguments`. */
  readonly #recentCalls: Set<string>[] = [];

  constructor(client: Requester, completions: Completions, params: unknown, options: unknown, helper: RunnerHelper) {
    assertChatParams(params);
    const given = params as Record<string, unknown>;
    if (!Array.isArray(given.tools) || given.tools.length === 0) throw invalidArgument("tools", "a non-empty array of tool() tools", given.tools);
    const { byName, wire } = offeredTools(given.tools);
    this.#tools = byName;
    if (options !== undefined && !isRecord(options)) throw invalidArgument("options", "an object such as { maxSteps, maxCost, signal }", options);
    if (given.route != null && !isRecord(given.route)) throw invalidArgument("route", "an object of routing filters", given.route);
    const format = given.response_format;
    if ((typeof format === "object" || typeof format === "function") && format !== null && "~standard" in format) {
      throw new ModelGateError('runTools() sends `response_format` as given: use OpenAI\'s { type: "json_schema", json_schema } form here (a schema object is for parse()).');
    }
    // Read, not taken apart with a spread (which keeps own fields only: see callOptionsWith).
    const { maxChatCompletions, maxCost, maxSteps: givenSteps, afterCompletion } = options ?? {};
    if (afterCompletion !== undefined && typeof afterCompletion !== "function") throw invalidArgument("afterCompletion", "a function (completion, runner) => void", afterCompletion);
    const maxSteps = givenSteps ?? maxChatCompletions ?? DEFAULT_MAX_STEPS;
    if (!(Number.isInteger(maxSteps) && (maxSteps as number) >= 1)) throw invalidArgument(givenSteps === undefined && maxChatCompletions !== undefined ? "maxChatCompletions" : "maxSteps", "a whole number from 1", maxSteps);
    // Each step's own options: the run's budget is counted here, step by step, not by create().
    const requestOptions = callOptionsWith(options, { maxCost: undefined });
    this.#client = client;
    this.#completions = completions;
    // Sent closed, with `strict` set, once for the whole run: what the budget estimates is what goes
    // out. `toolContext` is for the tools, as under openai: a gateway would reject it, and it may
    // hold what the model must not see.
    const { toolContext, ...sent } = given;
    this.#params = { ...sent, tools: sendableTools(wire) };
    this.#toolContext = toolContext;
    this.#afterCompletion = afterCompletion as ((completion: ChatCompletion, runner: unknown) => unknown) | undefined;
    this.#argumentParsers = argumentParsers(given.tools);
    // Every request and every tool gets the runner's signal: `abort()` and the caller's signal (which aborts it) both reach them.
    this.#signal = helper.events.controller.signal;
    this.#requestOptions = { ...requestOptions, signal: this.#signal };
    this.#maxSteps = maxSteps as number;
    this.#budget = maxCost === undefined ? undefined : new RunBudget(client, maxCost, given, this.#signal, requestOptions.timeout as number | undefined);
    this.#helper = helper;
    this.#runner = helper.runner;
    const choice = given.tool_choice;
    this.#forced = isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === "string" ? choice.function.name : undefined;
    this.#oneAtATime = this.#forced !== undefined || given.parallel_tool_calls === false;
    // The runner's own list, so `runner.messages` is the conversation as it grows.
    this.#messages = helper.conversation.messages;
    this.#messages.push(...(given.messages as ChatCompletionMessageParam[]));
    this.#callIDs = callIDsIn(this.#messages);
  }

  async run(): Promise<ToolRunResult> {
    let stopReason: ToolRunStopReason;
    for (let step = 1; ; step++) {
      if (this.#signal.aborted) throw abortError(this.#signal);
      // The runner's own turns go back as their request fields (see replayedTurn); `messages` keeps all they carried.
      const body: Record<string, unknown> = { ...this.#params, messages: this.#messages.map(replayedTurn) };
      // `null`: no budget to keep; `undefined`: the step's worst case would pass what is left.
      const budgeted = this.#budget ? await named(step, this.#budget.step(body)) : null;
      if (budgeted === undefined) {
        stopReason = "max_cost";
        break;
      }
      this.#helper.log.push({ type: "step.start", step });
      const answer = await named(step, this.#complete(budgeted ? budgeted.body : body, step, budgeted)).catch((error: unknown) => {
        // With model "auto", the gateway saying no model fits what is left is a stop condition.
        if (budgeted && this.#budget?.endsRun(budgeted, error)) return undefined;
        throw error;
      });
      if (answer === undefined) {
        stopReason = "max_cost";
        break;
      }
      const { completion, gateway } = answer;
      const message = completion.choices?.[0]?.message as ChatCompletionMessage | undefined;
      if (!isRecord(message)) throw new ModelGateError(`Step ${step} of the tool run failed: the reply has no message.`);
      const cost = gateway?.cost ?? null;
      this.#count(completion, cost, gateway?.model ?? completion.model, budgeted, gateway?.attempts);
      // Whatever the reply holds, the turn that goes back is a valid request's; a call that cannot be run says why in its tool message.
      const { turn, calls } = assistantTurn(message, step, this.#callIDs);
      this.#withParsedFields(turn, message as unknown as Record<string, unknown>, body.stream === true);
      const record: ToolRunStep = { completion, model: completion.model, cost, gateway, toolCalls: [] };
      this.#steps.push(record);
      this.#helper.conversation.addCompletion(completion, turn);
      // As openai's runner without streaming tells a reply's text (a streamed one told it chunk by chunk).
      if (body.stream !== true && typeof turn.content === "string" && turn.content) this.#helper.events.emit("content", turn.content, turn.content);
      if (calls.length === 0) {
        this.#helper.log.push({ type: "step.end", step, completion, cost });
        await this.#afterCompletion?.(completion, this.#runner);
        stopReason = "done";
        break;
      }
      const repeated = this.#repeated(calls);
      if (repeated.size > 0) {
        // Not run a third time; every call still gets its message, so the conversation can go on.
        record.toolCalls = calls.map(({ call }) => {
          const error = repeated.has(call)
            ? "Not run: this call was made with the same arguments in three steps in a row, so the run stopped."
            : "Not run: another call of this step repeated itself three steps in a row, so the run stopped.";
          this.#helper.conversation.addMessage({ role: "tool", tool_call_id: call.id, content: `Error: ${error}` });
          return { call, error, ms: 0 };
        });
        this.#helper.log.push({ type: "step.end", step, completion, cost });
        await this.#afterCompletion?.(completion, this.#runner);
        stopReason = "repeated_call";
        break;
      }
      record.toolCalls = await this.#runCalls(calls, step);
      this.#helper.log.push({ type: "step.end", step, completion, cost });
      // As openai's runner: once the step's tool messages are in `messages`; what it pushes there goes out with the next request.
      await this.#afterCompletion?.(completion, this.#runner);
      if (this.#signal.aborted) throw abortError(this.#signal);
      if (this.#ranForcedFunction(record.toolCalls)) {
        stopReason = "done";
        break;
      }
      if (this.#budget?.exhausted) {
        stopReason = "max_cost";
        break;
      }
      if (step >= this.#maxSteps) {
        stopReason = "max_steps";
        break;
      }
    }
    const last = this.#steps.at(-1)?.completion.choices?.[0]?.message ?? null;
    return { stopReason, message: last, messages: this.#messages, steps: this.#steps, usage: this.#usage, cost: this.#reportedCost };
  }

  /** One chat completion: streamed (each chunk an event) when the params ask for it. */
  async #complete(body: Record<string, unknown>, step: number, budgeted: BudgetedStep | null = null): Promise<{ completion: ChatCompletion; gateway: ToolRunStep["gateway"] }> {
    // Each step is a request of its own: a caller's idempotency key is made one per step.
    const key = this.#requestOptions.idempotencyKey;
    const keyed = typeof key === "string" ? { ...this.#requestOptions, idempotencyKey: `${key}-step-${step}` } : this.#requestOptions;
    // Under a budget, the step goes out with what is left as its own `maxCost`, so that every
    // send of it (a retry after a lost answer, a middleware's extra `next()`) is counted and
    // checked as `create()` checks its sends.
    const options = budgeted ? { ...keyed, maxCost: budgeted.left } : keyed;
    if (body.stream !== true) {
      const completion = (await this.#completions.create(body as never, options as never)) as ChatCompletion;
      this.#helper.events.emit("connect");
      return { completion, gateway: completion.gateway };
    }
    // Usage (and with it the cost) comes in the usage chunk only when asked for. The runner asks
    // on its own account, so the stream's end rules stay those of the caller's request (`body`):
    // a provider that ignores `stream_options` ends a whole answer without the usage chunk, and
    // that step counts at its worst case (see RunBudget.count) instead of failing as a cut one.
    const streamed = { ...body, stream_options: { ...(isRecord(body.stream_options) ? body.stream_options : {}), include_usage: true } };
    // The rules create() reads from a request, from the caller's params: the usage chunk is
    // required only when the caller asked for it.
    const streamRules = chatStreamRules(body);
    // As create() sends a streamed chat request (its tools already sendable), with those rules,
    // a whole completion sent instead read as a stream of one chunk.
    const send = (sent: unknown, sendOptions: Record<string, unknown>, sendBudget?: SendBudget) =>
      this.#client.request<Stream<ChatCompletionChunk>>({ method: "POST", path: "/v1/chat/completions", body: sent, response: "sse", streamRules, wholeAnswer: wholeCompletionEvents, options: sendOptions, sendBudget, validate: () => assertChatParams(sent) });
    const stream = (budgeted ? await (await withinBudget(this.#client, streamed, options, send)).data : await send(streamed, options)) as Stream<ChatCompletionChunk>;
    this.#helper.events.emit("connect");
    const accumulator = new ChatCompletionAccumulator();
    // openai's chunk events (`chunk`, `content`, `content.delta`, …) for this step's reply.
    const deltas = (this.#helper.streaming = new DeltaEvents(this.#helper.events));
    for await (const chunk of stream) {
      accumulator.add(chunk);
      // Kept only for iterators reading now: a long answer must not be held twice (see EventLog).
      this.#helper.log.pushLive({ type: "chunk", step, chunk });
      await deltas.add(chunk);
    }
    // As openai's runner: the snapshot is gone once the step's completion is finished.
    this.#helper.streaming = undefined;
    return { completion: accumulator.result(stream.gateway), gateway: stream.gateway };
  }

  /**
   * Runs the calls of a step: all at once, their messages following in call order; or, with
   * `parallel_tool_calls: false` or a forced function, one after another in call order, each
   * call's message added before the next call starts (as openai's runner does).
   */
  async #runCalls(calls: PreparedCall[], step: number): Promise<ToolRunCall[]> {
    const context = { signal: this.#signal, step, redact: this.#client.redact, runner: this.#runner, toolContext: this.#toolContext, forced: this.#forced };
    const runOne = async (prepared: PreparedCall) => {
      this.#helper.log.push({ type: "tool_call", step, call: prepared.call });
      const done = await callTool(prepared, this.#tools, context);
      if (!this.#signal.aborted) this.#helper.log.push({ type: "tool_result", step, ...done.outcome });
      return done;
    };
    const answer = ({ outcome, content }: Awaited<ReturnType<typeof runOne>>) => this.#helper.conversation.addMessage({ role: "tool", tool_call_id: outcome.call.id, content });
    if (this.#oneAtATime) {
      const outcomes: ToolRunCall[] = [];
      for (const prepared of calls) {
        if (this.#signal.aborted) throw abortError(this.#signal);
        // As below: an abort stops the wait for a tool that ignores `signal`.
        const work = runOne(prepared);
        work.catch(() => {});
        const done = await unlessAborted(work, this.#signal);
        answer(done);
        outcomes.push(done.outcome);
      }
      return outcomes;
    }
    const work = Promise.all(calls.map(runOne));
    // After an abort the run stops waiting for the tools (even one that ignores `signal`);
    // what they end with later is nobody's concern.
    work.catch(() => {});
    const outcomes = await unlessAborted(work, this.#signal);
    for (const done of outcomes) answer(done);
    return outcomes.map(({ outcome }) => outcome);
  }

  /**
   * The fields openai's runner gives every assistant turn, so `message` events, `messages` and
   * `allChatCompletions()` hold what they hold under openai: `parsed` (`null` unless the reply
   * is a `json_schema` answer: then the answer read as openai reads it), `refusal: null` on a
   * streamed turn without one (as openai's stream helper finishes a message), and each call's
   * `parsed_arguments` by its tool (see `argumentParsers`; `null` for a tool that parses
   * nothing). A streamed step's calls get `parsed_arguments` only when the request has
   * something openai parses (a `strict` or helper-made tool, a helper-made `response_format`),
   * as openai's streaming runner gives them. The completion's own message gets the same fields,
   * and the call ids the run answered by where the provider sent none, as openai's runner
   * writes them into the completion it keeps.
   */
  #withParsedFields(turn: ChatCompletionAssistantMessageParam, replied: Record<string, unknown>, streamed: boolean): void {
    const parsesCalls = !streamed || this.#argumentParsers.size > 0 || openAIParser(this.#params.response_format, "auto-parseable-response-format") !== undefined;
    const sentCalls = Array.isArray(replied.tool_calls) ? replied.tool_calls : [];
    for (const message of [turn as unknown as Record<string, unknown>, replied]) {
      if (streamed) message.refusal ??= null;
      if (!("parsed" in message)) message.parsed = typeof turn.content === "string" && turn.content && !turn.refusal ? parsedAnswer(this.#params.response_format, turn.content) : null;
    }
    (turn.tool_calls ?? []).forEach((call, index) => {
      const fn = call.function as typeof call.function & { parsed_arguments?: unknown };
      const sent = isRecord(sentCalls[index]) ? sentCalls[index] : undefined;
      if (sent && !sent.id) sent.id = call.id;
      if (!parsesCalls) return;
      if (fn.parsed_arguments === undefined) {
        const parse = this.#argumentParsers.get(fn.name);
        try {
          fn.parsed_arguments = parse ? parse(fn.arguments) : null;
        } catch {
          // Arguments the tool's parser rejects: the call's tool message says why (see callTool).
          fn.parsed_arguments = null;
        }
      }
      if (sent && isRecord(sent.function) && sent.function.parsed_arguments === undefined) sent.function.parsed_arguments = fn.parsed_arguments;
    });
  }

  /**
   * Adds a step's usage and cost to the run's, and counts the step against the budget: for
   * the cost the gateway reported, else for its worst case (see `RunBudget.count`).
   */
  #count(completion: ChatCompletion, cost: number | null, model: string, budgeted: BudgetedStep | null, attempts?: number): void {
    const usage = completion.usage;
    if (usage) {
      this.#usage.prompt_tokens += usage.prompt_tokens ?? 0;
      this.#usage.completion_tokens += usage.completion_tokens ?? 0;
      this.#usage.total_tokens += usage.total_tokens ?? 0;
    }
    if (cost !== null) this.#reportedCost = (this.#reportedCost ?? 0) + cost;
    if (budgeted) this.#budget?.count(budgeted, cost, usage, model, attempts);
  }

  /** Whether the function `tool_choice` forces is openai-shaped and ran without error this step: openai's runner ends then. */
  #ranForcedFunction(calls: ToolRunCall[]): boolean {
    const forced = this.#forced;
    const tool = forced === undefined ? undefined : this.#tools.get(forced);
    return tool !== undefined && "openai" in tool && calls.some(({ call, error }) => call.function.name === forced && error === undefined);
  }

  /** The calls that repeat one made with the same arguments in each of the two steps before. */
  #repeated(calls: PreparedCall[]): Set<ChatCompletionMessageToolCall> {
    const signatures = calls.map(({ call }) => callSignature(call));
    const earlier = this.#recentCalls.slice(-(REPEATS_TO_STOP - 1));
    this.#recentCalls.push(new Set(signatures));
    if (earlier.length < REPEATS_TO_STOP - 1) return new Set();
    return new Set(calls.filter((_, index) => earlier.every((step) => step.has(signatures[index] as string))).map(({ call }) => call));
  }
}

/**
 * How each tool's calls get `parsed_arguments`, by the rule `parse()` keeps (`toolParsers()`):
 * a tool made by openai's helpers by its own `$parseRaw`; a `tool()` tool (sent strict) and a
 * function tool with `strict: true` by `JSON.parse` (the run checks a `tool()` tool's arguments
 * when it runs the call). A tool absent here gets `null`, as under openai.
 */
function argumentParsers(tools: unknown[]): Map<string, (text: string) => unknown> {
  const parsers = new Map<string, (text: string) => unknown>();
  for (const [name, schema] of toolParsers(tools)) parsers.set(name, schema.parseRaw ?? JSON.parse);
  return parsers;
}

/** A reply's `parsed` under openai's runner: a `json_schema` answer read by the format's `$parseRaw`, else `JSON.parse`; `null` otherwise. */
function parsedAnswer(format: unknown, content: string): unknown {
  if (!isRecord(format) || format.type !== "json_schema") return null;
  try {
    return (openAIParser(format, "auto-parseable-response-format") ?? JSON.parse)(content);
  } catch {
    // An answer that is not the schema's JSON: openai's runner would end the run; ours keeps it as text.
    return null;
  }
}

/** A step's own failure names the step, which matters in a long run. */
async function named<T>(step: number, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ModelGateError && !(error instanceof APIUserAbortError) && !error.message.startsWith("Step ")) {
      error.message = `Step ${step} of the tool run failed: ${error.message}`;
    }
    throw error;
  }
}

/** A call as `name(canonical JSON of its arguments)`: the same call whatever the key order or spacing; no arguments are `{}`. */
function callSignature(call: ChatCompletionMessageToolCall): string {
  const { name, arguments: text } = call.function;
  try {
    return `${name}(${canonicalJSON(text.trim() === "" ? {} : JSON.parse(text))})`;
  } catch {
    // Not JSON, or nested too deep to walk: compared as the text it is.
    return `${name}(${text})`;
  }
}

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJSON(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
