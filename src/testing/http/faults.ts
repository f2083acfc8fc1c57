import { errorResponse } from "./error-response.ts";

/**
 * A scripted failure for the next requests, injected with `gateway.inject(fault, times)`.
 *
 * - `status`: answer with this status instead of serving the request, in the gateway's error
 *   shape (or the raw `body`, e.g. a proxy's HTML page), with `retry-after` (seconds or an
 *   HTTP date), `retry-after-ms` and any extra `headers`.
 * - `latency`: wait `ms` before the headers, then answer normally; an abort of the request's
 *   signal ends the wait and rejects like fetch does.
 * - `stream-error`: after `afterChunks` chunks, report an error inside the 200 stream — a
 *   chunk carrying `error: { code, message }` with `finish_reason: "error"` (`as: "chunk"`,
 *   the default) or an `event: error` — then end without `[DONE]`. `status` is the `code`
 *   (default 502). An image stream, which has no chunks, always sends the `event: error`,
 *   its data `{ type: "error", error: { code, message } }`.
 * - `cut`: after `afterChunks` chunks the body errors, as a dropped connection does.
 * - `stall`: after `afterChunks` chunks only `: PROCESSING` comments follow, every
 *   `keepAliveMs` (default 50), until the reader cancels.
 * - `structured`: the next structured reply — JSON asked for with a `json_schema` or
 *   `json_object` response format, or a forced tool call's arguments — goes wrong `as` said,
 *   streamed or not, in every choice of that reply:
 *   - `invalid-json`: the JSON is cut inside a string and prose follows, with finish reason
 *     `stop`, as a model that lost the thread writes it;
 *   - `schema-violation`: valid JSON the schema rejects (its first required property left
 *     out, else a property or the value of a type it does not allow);
 *   - `refusal`: `message.refusal` is set (streamed as `delta.refusal`), `content` is null
 *     and there is no tool call, finish reason `stop`;
 *   - `length`: the JSON cut halfway, with finish reason `length`.
 *
 *   Unlike the other faults it waits for a structured reply: requests in between (a plain
 *   chat, `/v1/models`, a refused request) leave it queued, in its own queue.
 * - `reply`: the next chat completion answers with exactly this, streamed or not, in every
 *   choice, to drive a client's tool loop step by step: the `toolCalls` (each with a fresh
 *   id; `arguments` sent as the raw string given, so broken JSON or an unknown tool name can
 *   be scripted; finish reason `tool_calls`) and the `content` (`null` when there are calls
 *   and no content, else `""` when absent; finish reason `stop` without calls), never cut by
 *   `max_tokens`. `cost` replaces the computed `usage.cost`, and is what the `credits` lose.
 *   It waits in a queue of its own for the next chat completion the mock serves (a request
 *   refused with an error, a 402 included, or answered by a `status` fault leaves it
 *   queued); it is used before a queued `structured` script, which stays queued for a later
 *   structured reply.
 *
 * `afterChunks` counts the events of a stream (chunks, or an image stream's events); larger
 * than the stream, it means "just before the end" (before `[DONE]`, where the stream has
 * one). A body fault that meets a non-streamed answer acts on its JSON: `cut` sends half of
 * it and errors, `stall` sends half and then nothing, `stream-error` becomes an error answer
 * with its `status`.
 */
export type MockFault =
  | {
      type: "status";
      status: number;
      /** Seconds, or an HTTP date, for the `retry-after` header. */
      retryAfter?: number | string;
      /** Milliseconds, for the `retry-after-ms` header. */
      retryAfterMs?: number;
      /** The error message. @default "Injected failure." (the SDK's error states the status) */
      message?: string;
      /** A raw body (sent as text/html unless `headers` say otherwise) instead of the JSON error. */
      body?: string;
      headers?: Record<string, string>;
    }
  | { type: "latency"; ms: number }
  | { type: "stream-error"; afterChunks: number; status?: number; message?: string; as?: "chunk" | "event" }
  | { type: "cut"; afterChunks: number }
  | { type: "stall"; afterChunks: number; keepAliveMs?: number }
  | { type: "structured"; as: "invalid-json" | "schema-violation" | "refusal" | "length" }
  | {
      type: "reply";
      /** Calls to make, in order; `arguments` is sent exactly as given. */
      toolCalls?: { name: string; arguments: string }[];
      content?: string;
      /** USD, for `usage.cost` and the credits. @default computed from the tokens and the model's prices */
      cost?: number;
    };

/** Scripts for the next structured reply, which wait in their own queue (see `MockFault`). */
export type StructuredFault = Extract<MockFault, { type: "structured" }>;

/** Scripted replies for the next chat completions, which wait in their own queue (see `MockFault`). */
export type ReplyScript = Extract<MockFault, { type: "reply" }>;

/** Faults that meet the next request, whatever it is. */
export type RequestFault = Exclude<MockFault, StructuredFault | ReplyScript>;

/** Faults that act on a response body rather than instead of one. */
export type BodyFault = Extract<MockFault, { afterChunks: number }>;

/** The message of a `stream-error` fault that gives none. */
export const DEFAULT_STREAM_ERROR = "The upstream provider failed mid-stream.";

/** The `error` a `stream-error` fault reports inside a stream: `{ code, message }`. */
export function streamError(fault: Extract<BodyFault, { type: "stream-error" }>): { code: number; message: string } {
  return { code: fault.status ?? 502, message: fault.message ?? DEFAULT_STREAM_ERROR };
}

/**
 * `script` when it is well formed, else a `TypeError` saying what is wrong: a test that
 * scripts a reply by mistake (arguments as an object, a cost in cents as a string) learns it
 * at `inject()`, not from a confusing answer later.
 */
export function checkReplyScript(script: ReplyScript): ReplyScript {
  const fail = (what: string) => {
    throw new TypeError(`gateway.inject({ type: "reply" }): ${what}`);
  };
  if (script.toolCalls !== undefined) {
    if (!Array.isArray(script.toolCalls)) fail("`toolCalls` must be an array.");
    script.toolCalls.forEach((call, index) => {
      if (typeof call?.name !== "string" || typeof call.arguments !== "string") {
        fail(`\`toolCalls[${index}]\` needs a string \`name\` and a string \`arguments\` (JSON text, sent as is).`);
      }
    });
  }
  if (script.content !== undefined && typeof script.content !== "string") fail("`content` must be a string.");
  if (script.cost !== undefined && !(typeof script.cost === "number" && script.cost >= 0 && Number.isFinite(script.cost))) {
    fail("`cost` must be a number of USD, 0 or more.");
  }
  return script;
}

/** A first-in, first-out queue of faults, each for a number of requests. */
export class FaultQueue<Fault extends MockFault = MockFault> {
  #queue: { fault: Fault; remaining: number }[] = [];

  /** Queues `fault` for `times` requests; `Infinity` keeps it for every request. */
  add(fault: Fault, times: number): void {
    if (times > 0) this.#queue.push({ fault, remaining: times });
  }

  /** The fault for the next request, if any, counted as used. */
  next(): Fault | undefined {
    const head = this.#queue[0];
    if (!head) return undefined;
    if (--head.remaining <= 0) this.#queue.shift();
    return head.fault;
  }

  clear(): void {
    this.#queue = [];
  }
}

/** Waits `ms`, rejecting like fetch does (with the signal's reason) if `signal` aborts first. */
export function delay(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The answer of a `status` fault. */
export function statusFaultResponse(fault: Extract<MockFault, { type: "status" }>): Response {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  Object.assign(headers, fault.headers);
  if (fault.body !== undefined) {
    return new Response(fault.body, { status: fault.status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  }
  return errorResponse(fault.status, fault.message ?? "Injected failure.", { headers });
}

/** A non-streamed answer with a body fault applied (see `MockFault`). */
export async function faultyJSONResponse(response: Response, fault: BodyFault, signal: AbortSignal): Promise<Response> {
  if (fault.type === "stream-error") return errorResponse(fault.status ?? 502, fault.message ?? DEFAULT_STREAM_ERROR);
  const bytes = new Uint8Array(await response.arrayBuffer());
  let sentHalf = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener("abort", () => controller.error(signal.reason), { once: true });
    },
    pull(controller) {
      // Half first, in its own pull: erroring the stream in the same call would discard it.
      if (!sentHalf) {
        sentHalf = true;
        controller.enqueue(bytes.slice(0, Math.floor(bytes.length / 2)));
        return;
      }
      if (fault.type === "cut") return controller.error(new TypeError("mock gateway: connection cut"));
      // A stall: the rest never comes; no timer runs, so a reader that gives up leaves nothing behind.
      return new Promise<void>(() => {});
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
