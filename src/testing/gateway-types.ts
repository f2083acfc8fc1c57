import type { MockModel } from "./catalogue/models.ts";
import type { MockReply } from "./chat/replies.ts";
import type { MockFault } from "./http/faults.ts";

/** Options of `createMockGateway()`. */
export interface MockGatewayOptions {
  /** The only key accepted, as `Authorization: Bearer <key>`. @default MOCK_API_KEY */
  apiKey?: string;
  /** The catalogue served by `/v1/models` and routed over. @default DEFAULT_CATALOGUE */
  models?: readonly MockModel[];
  /** Seed of the deterministic replies: the same seed and request give the same answer. @default 42 */
  seed?: number;
  /**
   * A fixed reply text (or a function of the request returning one) instead of the generated
   * one; cut, like every reply, at the least of the request's limit, the model's
   * `max_output_tokens` and the context left after the prompt.
   */
  reply?: MockReply;
  /** Pause between streamed chunks, in milliseconds. @default 0 */
  chunkDelayMs?: number;
  /** A `: PROCESSING` comment before the first chunk and after every this many chunks (0: none). @default 8 */
  keepAliveEvery?: number;
  /** Answer CORS preflights and let any origin read the answers, so browser pages can call the mock. @default true */
  cors?: boolean;
  /**
   * Where a reasoning model's thinking goes, in messages and in deltas: ModelGate's
   * `reasoning`, or `reasoning_content` as DeepSeek and other providers spell it, to test a
   * client that reads both.
   * @default "reasoning"
   */
  reasoningField?: "reasoning" | "reasoning_content";
  /**
   * Send embeddings as base64 (little-endian float32) even when a request asked for floats,
   * as some servers do, to test a client's decoding.
   * @default false
   */
  embeddingsAsBase64?: boolean;
  /**
   * The account's balance in USD. Each served chat completion takes its `usage.cost` off it
   * (`gateway.credits` shows what is left), and a request whose worst case — the estimated
   * prompt plus `max_completion_tokens`, else `max_tokens`, else the model's
   * `max_output_tokens`, for each of its `n` choices, at the model's prices — is more than
   * is left gets a 402 `insufficient_credits`, with `error.metadata.affordable_tokens` when a
   * smaller limit would fit. `reset()` restores it.
   * @default Infinity (no limit)
   */
  credits?: number;
}

/** A request the mock received, for tests to inspect (e.g. its `idempotency-key`). */
export interface MockRequestRecord {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON body, or `undefined` when there was none or it was not JSON. */
  body: unknown;
}

/**
 * A Fetch-API handler that behaves like the gateway. Pass it as the client's `fetch`, or
 * serve it: `Bun.serve({ fetch: gateway })`, `Deno.serve(gateway)`, or `serveNode(gateway)`
 * from `modelgate/testing/node`.
 *
 * It serves `GET /v1/models` (with an `ETag`) and `/v1/models/{id}`, `POST
 * /v1/chat/completions` (text, tools — and the deprecated `functions`/`function_call`, answered
 * as `message.function_call` —, structured outputs, and beyond text: images with
 * `modalities: ["image", "text"]`, speech with `["audio", "text"]` and `audio: { voice,
 * format }` in wav or pcm16, videos from a `video_generation` model, reasoning from a
 * `reasoning` one), `POST /v1/embeddings`, `POST /v1/images/generations` and `POST
 * /v1/images/edits` (a multipart form; URLs or `b64_json`, or streamed as partial images
 * and a final one), `POST /v1/audio/speech` (WAV), and `POST /v1/audio/transcriptions` and
 * `POST /v1/audio/translations` (multipart forms; `json`, `verbose_json`, `text`, `srt` or
 * `vtt`). A completion created with `store: true` (streamed or not) is kept until `reset()`,
 * for `GET`, `POST` (its `metadata`) and `DELETE /v1/chat/completions/{id}`, `GET
 * /v1/chat/completions` (by `model` and `metadata[key]`, in cursor pages) and `GET
 * /v1/chat/completions/{id}/messages`.
 */
export interface MockGateway {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /**
   * Makes the next `times` requests to `/v1/...` (preflights aside) meet `fault`, before the
   * key check, as a proxy in front of the gateway would. Faults queue up in order; `times`
   * may be `Infinity`. A `structured` fault instead scripts the next `times` structured
   * replies, and a `reply` fault the next `times` chat completions served, each in a queue
   * of its own (see `MockFault`). Throws a `TypeError` for a `reply` that is not well formed.
   */
  inject(fault: MockFault, times?: number): void;
  /** Every request received (preflights aside), oldest first; a multipart upload is logged by its fields. */
  readonly requests: MockRequestRecord[];
  /** Forgets the requests and the queued faults, restarts the request ids and the image and video numbers, and restores the `credits`. */
  reset(): void;
  /** The models served. */
  readonly catalogue: readonly MockModel[];
  /** Streamed bodies still producing: 0 once every stream has ended or been cancelled. */
  readonly activeStreams: number;
  /** The account's balance in USD: the `credits` option less what served calls cost; `Infinity` when unlimited. */
  readonly credits: number;
}
