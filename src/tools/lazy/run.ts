import type { Completions } from "../../resources/chat/completions.ts";
import type { Requester } from "../../resources/requester.ts";
import { sdk } from "../../streaming/lazy/shared.ts";
import type { Stream } from "../../streaming/stream.ts";
import { TOOL_INTERNALS } from "../../structured/schema-source.ts";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall, CompletionUsage, Model } from "../../types/index.ts";
import type { ToolRunCall, ToolRunEvent, ToolRunResult, ToolRunStep, ToolRunStopReason } from "../../types/tool-runner.ts";
import type { ToolInternals } from "../tool.ts";
import { callTool, toolMessageContent } from "./call-tool.ts";
import { EventLog } from "./event-log.ts";
import { helpers, pieces } from "./pieces.ts";

const DEFAULT_MAX_STEPS = 10;
/** The same call (tool and arguments) in this many consecutive steps stops the run. */
const REPEATS_TO_STOP = 3;

/** A run in progress: its result, and its events for any number of readers. */
export interface RunHandle {
  result: Promise<ToolRunResult>;
  events(): AsyncIterator<ToolRunEvent>;
}

/** Starts `runTools()`: checks what it was given, then runs step after step. */
export function startRun(client: Requester, completions: Completions, params: unknown, options: unknown): RunHandle {
  const log = new EventLog<ToolRunEvent>();
  const result = Promise.resolve()
    .then(() => new ToolRun(client, completions, params, options, log).run())
    .then(
      (outcome) => {
        log.end();
        return outcome;
      },
      (error: unknown) => {
        log.fail(error);
        throw error;
      },
    );
  return { result, events: () => log.reader() };
}

class ToolRun {
  readonly #client: Requester;
  readonly #completions: Completions;
  readonly #params: Record<string, unknown>;
  readonly #requestOptions: Record<string, unknown>;
  readonly #signal: AbortSignal;
  readonly #maxSteps: number;
  readonly #maxCost: number | undefined;
  readonly #tools = new Map<string, ToolInternals>();
  readonly #log: EventLog<ToolRunEvent>;
  readonly #messages: ChatCompletionMessageParam[];
  readonly #steps: ToolRunStep[] = [];
  readonly #usage: CompletionUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  /** The cost the gateway reported, summed; `null` while it reported none. */
  #reportedCost: number | null = null;
  /** What the run has cost as far as the budget knows: reported costs, else usage at catalogue prices. */
  #spent = 0;
  /** The calls of the last steps, as `name + canonical arguments`. */
  readonly #recentCalls: Set<string>[] = [];

  constructor(client: Requester, completions: Completions, params: unknown, options: unknown, log: EventLog<ToolRunEvent>) {
    pieces.assertChatParams(params);
    const given = params as Record<string, unknown>;
    if (!Array.isArray(given.tools) || given.tools.length === 0) throw pieces.invalidArgument("tools", "a non-empty array of tool() tools", given.tools);
    for (const offer of given.tools) {
      const internals = sdk.isRecord(offer) ? (offer[TOOL_INTERNALS as never] as ToolInternals | undefined) : undefined;
      const name = sdk.isRecord(offer) && sdk.isRecord(offer.function) ? offer.function.name : undefined;
      if (!internals?.run || typeof name !== "string") {
        throw new sdk.ModelGateError(`runTools() runs the tools itself, so each needs a \`run\` function: define ${typeof name === "string" ? `"${name}"` : "every tool"} with tool({ name, parameters, run }).`);
      }
      this.#tools.set(name, internals);
    }
    if (options !== undefined && !sdk.isRecord(options)) throw pieces.invalidArgument("options", "an object such as { maxSteps, maxCost, signal }", options);
    const { maxSteps = DEFAULT_MAX_STEPS, maxCost, ...requestOptions } = options ?? {};
    if (!(Number.isInteger(maxSteps) && (maxSteps as number) >= 1)) throw pieces.invalidArgument("maxSteps", "a whole number from 1", maxSteps);
    if (maxCost !== undefined && !(typeof maxCost === "number" && maxCost > 0 && Number.isFinite(maxCost))) {
      throw pieces.invalidArgument("maxCost", "a positive number of US dollars", maxCost);
    }
    this.#client = client;
    this.#completions = completions;
    this.#params = given;
    this.#requestOptions = requestOptions;
    // Tools get a signal even when the caller gave none, so `run` can always pass it on.
    this.#signal = (requestOptions.signal as AbortSignal | undefined) ?? new AbortController().signal;
    this.#maxSteps = maxSteps as number;
    this.#maxCost = maxCost as number | undefined;
    this.#log = log;
    this.#messages = [...(given.messages as ChatCompletionMessageParam[])];
  }

  async run(): Promise<ToolRunResult> {
    let stopReason: ToolRunStopReason;
    for (let step = 1; ; step++) {
      if (this.#signal.aborted) throw sdk.abortError(this.#signal);
      const body = await this.#bodyWithinBudget();
      if (!body) {
        stopReason = "max_cost";
        break;
      }
      this.#log.push({ type: "step.start", step });
      const { completion, gateway } = await this.#complete(body, step);
      const message = (completion.choices?.[0]?.message ?? null) as ChatCompletionMessage | null;
      const cost = gateway?.cost ?? null;
      this.#count(completion, cost);
      const calls: ChatCompletionMessageToolCall[] = Array.isArray(message?.tool_calls) ? message.tool_calls : [];
      const record: ToolRunStep = { completion, model: completion.model, cost, gateway, toolCalls: [] };
      this.#steps.push(record);
      this.#messages.push(assistantMessage(message));
      if (calls.length === 0) {
        this.#log.push({ type: "step.end", step, completion, cost });
        stopReason = "done";
        break;
      }
      if (this.#repeats(calls)) {
        // Not run a third time; every call still gets its message, so the conversation can go on.
        for (const call of calls) {
          this.#messages.push({ role: "tool", tool_call_id: call.id, content: "Not run: this call was made with the same arguments in three steps in a row, so the run stopped." });
        }
        this.#log.push({ type: "step.end", step, completion, cost });
        stopReason = "repeated_call";
        break;
      }
      record.toolCalls = await this.#runCalls(calls, step);
      this.#log.push({ type: "step.end", step, completion, cost });
      if (this.#maxCost !== undefined && this.#spent >= this.#maxCost) {
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
  async #complete(body: Record<string, unknown>, step: number): Promise<{ completion: ChatCompletion; gateway: ToolRunStep["gateway"] }> {
    try {
      if (body.stream !== true) {
        const completion = (await this.#completions.create(body as never, this.#requestOptions as never)) as ChatCompletion;
        return { completion, gateway: completion.gateway };
      }
      // Usage (and with it the cost) comes in the usage chunk only when asked for.
      const streamed = { ...body, stream_options: { ...(sdk.isRecord(body.stream_options) ? body.stream_options : {}), include_usage: true } };
      const stream = (await this.#completions.create(streamed as never, this.#requestOptions as never)) as unknown as Stream<ChatCompletionChunk>;
      const accumulator = new helpers.ChatCompletionAccumulator();
      for await (const chunk of stream) {
        accumulator.add(chunk);
        this.#log.push({ type: "chunk", step, chunk });
      }
      return { completion: accumulator.result(), gateway: stream.gateway };
    } catch (error) {
      // Which step failed matters in a long run: the message says it.
      if (error instanceof sdk.ModelGateError && !(error instanceof sdk.APIUserAbortError)) error.message = `Step ${step} of the tool run failed: ${error.message}`;
      throw error;
    }
  }

  /** Runs every call of a step at once; their messages follow in call order. */
  async #runCalls(calls: ChatCompletionMessageToolCall[], step: number): Promise<ToolRunCall[]> {
    const outcomes = await Promise.all(
      calls.map(async (call) => {
        this.#log.push({ type: "tool_call", step, call });
        const outcome = await callTool(call, this.#tools, { signal: this.#signal, step });
        this.#log.push({ type: "tool_result", step, ...outcome });
        return outcome;
      }),
    );
    for (const outcome of outcomes) this.#messages.push({ role: "tool", tool_call_id: outcome.call.id, content: toolMessageContent(outcome) });
    return outcomes;
  }

  /**
   * The next step's params, or `undefined` when its worst case would pass what is left of the
   * budget. With `model: "auto"` the gateway is told what is left (`route.max_cost`).
   */
  async #bodyWithinBudget(): Promise<Record<string, unknown> | undefined> {
    const body: Record<string, unknown> = { ...this.#params, messages: [...this.#messages] };
    if (this.#maxCost === undefined) return body;
    const left = this.#maxCost - this.#spent;
    if (left <= 0) return undefined;
    if (body.model === "auto") return { ...body, route: { ...(sdk.isRecord(body.route) ? body.route : {}), max_cost: left } };
    const model = await this.#model(body.model as string);
    const pricing = model?.pricing;
    if (!(typeof pricing?.prompt === "number" && typeof pricing.completion === "number")) {
      throw new sdk.BudgetExceededError(`maxCost: the catalogue has no price for "${String(body.model)}", so the run's budget cannot be checked. Nothing was sent.`, {
        maxCost: this.#maxCost,
        model: String(body.model),
        worstCase: null,
      });
    }
    const promptTokens = helpers.estimatePromptTokens(body);
    const replyTokens = [body.max_completion_tokens, body.max_tokens].find((value) => typeof value === "number") as number | undefined;
    const longestReply = replyTokens ?? model?.max_output_tokens ?? (model?.context_length ? model.context_length - promptTokens : undefined);
    if (longestReply === undefined) {
      throw new sdk.BudgetExceededError(`maxCost: the catalogue gives no reply limit for "${String(body.model)}": set max_tokens so the run's budget can be checked.`, {
        maxCost: this.#maxCost,
        model: String(body.model),
        worstCase: null,
      });
    }
    const worstCase = (promptTokens * pricing.prompt + longestReply * pricing.completion) / 1e6;
    // A worst case that fits exactly still runs (a tiny allowance for floating point).
    return worstCase <= left * (1 + 1e-9) ? body : undefined;
  }

  async #model(id: string): Promise<Model | undefined> {
    return (await helpers.catalogueOf(this.#client)).models.get(id);
  }

  /** Adds a step's usage and cost to the run's. */
  #count(completion: ChatCompletion, cost: number | null): void {
    const usage = completion.usage;
    if (usage) {
      this.#usage.prompt_tokens += usage.prompt_tokens ?? 0;
      this.#usage.completion_tokens += usage.completion_tokens ?? 0;
      this.#usage.total_tokens += usage.total_tokens ?? 0;
    }
    if (cost !== null) this.#reportedCost = (this.#reportedCost ?? 0) + cost;
    this.#spent += cost ?? 0;
  }

  /** Whether a call repeats one made with the same arguments in each of the two steps before. */
  #repeats(calls: ChatCompletionMessageToolCall[]): boolean {
    const now = new Set(calls.map(callSignature));
    const earlier = this.#recentCalls.slice(-(REPEATS_TO_STOP - 1));
    this.#recentCalls.push(now);
    return earlier.length === REPEATS_TO_STOP - 1 && [...now].some((signature) => earlier.every((calls) => calls.has(signature)));
  }
}

/** The assistant message as a param for the next step: what the model said and called. */
function assistantMessage(message: ChatCompletionMessage | null): ChatCompletionMessageParam {
  const calls = Array.isArray(message?.tool_calls) && message.tool_calls.length > 0 ? { tool_calls: message.tool_calls } : {};
  return { role: "assistant", content: message?.content ?? null, ...calls };
}

/** A call as `name(canonical JSON of its arguments)`: the same call whatever the key order or spacing. */
function callSignature(call: ChatCompletionMessageToolCall): string {
  let args: unknown = call?.function?.arguments;
  try {
    args = JSON.parse(String(args));
  } catch {
    // compared as the text it is
  }
  return `${call?.function?.name}(${canonicalJSON(args)})`;
}

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(",")}]`;
  if (sdk.isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJSON(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
