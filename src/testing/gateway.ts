import type { ChatCompletionCreateParamsBase } from "../types/index.ts";
import { DEFAULT_CATALOGUE, type MockModel } from "./catalogue.ts";
import { errorResponse, InvalidRequest } from "./errors.ts";
import { delay, FaultQueue, type BodyFault, type MockFault } from "./faults.ts";
import { planReply, toChunks, toCompletion } from "./replies.ts";
import { chooseModel } from "./routing.ts";
import { sseBody } from "./sse.ts";
import { validateChatRequest } from "./validate.ts";

/** The API key the mock accepts unless `apiKey` says otherwise. */
export const MOCK_API_KEY = "mg-mock-key";

/** Options of `createMockGateway()`. */
export interface MockGatewayOptions {
  /** The only key accepted. @default MOCK_API_KEY */
  apiKey?: string;
  /** The catalogue served and routed over. @default DEFAULT_CATALOGUE */
  models?: readonly MockModel[];
  /** Seed of the deterministic replies. @default 42 */
  seed?: number;
  /** A fixed reply text (or a function of the request) instead of the generated one. */
  reply?: string | ((params: ChatCompletionCreateParamsBase) => string);
  /** Pause between streamed chunks, in milliseconds. @default 0 */
  chunkDelayMs?: number;
  /** A keep-alive comment before the first chunk and after every this many chunks. @default 8 */
  keepAliveEvery?: number;
  /** Answer CORS preflights and allow any origin, so browser pages can call the mock. @default true */
  cors?: boolean;
}

/** A request the mock received, for tests to inspect. */
export interface MockRequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The parsed JSON body, if there was one. */
  body: unknown;
}

/**
 * A Fetch-API handler that behaves like the gateway. Pass it as the client's `fetch`, or
 * serve it: `Bun.serve({ fetch: gateway })`, `Deno.serve(gateway)`, or `serveNode(gateway)`
 * from `modelgate/testing/node`.
 */
export interface MockGateway {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Makes the next `times` requests fail as `fault` says (faults queue up in order). */
  inject(fault: MockFault, times?: number): void;
  /** Every request received, oldest first. */
  readonly requests: MockRequestRecord[];
  /** Forgets the requests and the queued faults. */
  reset(): void;
  /** The models served. */
  readonly catalogue: readonly MockModel[];
  /** Streamed bodies still producing: 0 once every stream has ended or been cancelled. */
  readonly activeStreams: number;
}

/** Creates a mock gateway; see `MockGateway`. */
export function createMockGateway(options: MockGatewayOptions = {}): MockGateway {
  const apiKey = options.apiKey ?? MOCK_API_KEY;
  const catalogue = options.models ?? DEFAULT_CATALOGUE;
  const seed = options.seed ?? 42;
  const cors = options.cors ?? true;
  const faults = new FaultQueue();
  const requests: MockRequestRecord[] = [];
  let requestCount = 0;
  let activeStreams = 0;

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method === "OPTIONS" && cors) return preflight(request);
    const body = await readJSON(request);
    requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: body.value });

    const auth = request.headers.get("authorization");
    if (!auth) return errorResponse(401, "Missing API key: send `Authorization: Bearer <key>`.", { code: "missing_api_key" });
    if (auth !== `Bearer ${apiKey}`) return errorResponse(401, "Invalid API key.", { code: "invalid_api_key" });

    const fault = faults.next();
    if (fault?.type === "status") return faultResponse(fault);
    if (fault?.type === "latency") await delay(fault.ms, request.signal);
    const bodyFault = fault && "afterChunks" in fault ? fault : undefined;

    const path = url.pathname.replace(/\/+$/, "");
    if (request.method === "GET" && path === "/v1/models") return Response.json({ object: "list", data: catalogue.map(publicModel) });
    if (request.method === "GET" && path.startsWith("/v1/models/")) {
      const id = decodeURIComponent(path.slice("/v1/models/".length));
      const model = catalogue.find((candidate) => candidate.id === id);
      return model ? Response.json(publicModel(model)) : errorResponse(404, `The model '${id}' does not exist.`, { code: "model_not_found", param: "id" });
    }
    if (request.method === "POST" && path === "/v1/chat/completions") return chatCompletion(body, bodyFault);
    if (request.method === "POST" && path === "/v1/images/generations") {
      return Response.json({ created: 1_767_225_600, data: [{ url: `https://mock.modelgate.invalid/images/${requestCount}.png` }] });
    }
    return errorResponse(404, `No route for ${request.method} ${url.pathname}.`, { code: "not_found" });
  };

  const chatCompletion = (body: { value: unknown; error?: string }, fault: BodyFault | undefined): Response => {
    try {
      if (body.error) throw new InvalidRequest(body.error, null);
      const params = validateChatRequest(body.value);
      const routed = chooseModel(params, catalogue);
      if ("error" in routed) {
        throw new InvalidRequest(routed.error, routed.code === "model_not_found" ? "model" : "route", routed.code === "model_not_found" ? 404 : 400, routed.code);
      }
      const plan = planReply(params, { id: `chatcmpl-mock${requestCount}`, model: routed.model.id, provider: routed.model.provider, seed, reply: options.reply });
      if (!params.stream) return Response.json(toCompletion(plan));
      const chunks = toChunks(plan, params.stream_options?.include_usage === true, seed + requestCount);
      const stream = sseBody(chunks, {
        chunkDelayMs: options.chunkDelayMs ?? 0,
        keepAliveEvery: options.keepAliveEvery ?? 8,
        fault,
        onActive: (change) => (activeStreams += change),
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
    } catch (error) {
      if (!(error instanceof InvalidRequest)) throw error;
      return errorResponse(error.status, error.message, { code: error.code, param: error.param });
    }
  };

  const gateway = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // Servers call handlers with a second argument of their own (Bun's server, Deno's connection
    // info), so a Request is taken as it is and `init` only applies to a URL.
    const request = input instanceof Request ? input : new Request(input, init);
    requestCount++;
    const response = await handle(request);
    response.headers.set("x-request-id", `req_mock_${String(requestCount).padStart(6, "0")}`);
    if (cors) {
      response.headers.set("access-control-allow-origin", "*");
      response.headers.set("access-control-expose-headers", "x-request-id, retry-after, retry-after-ms");
    }
    return response;
  };

  return Object.defineProperties(gateway as MockGateway, {
    inject: { value: (fault: MockFault, times = 1) => faults.add(fault, times) },
    requests: { value: requests },
    reset: {
      value: () => {
        requests.length = 0;
        faults.clear();
      },
    },
    catalogue: { value: catalogue },
    activeStreams: { get: () => activeStreams },
  });
}

function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "authorization, content-type",
      "access-control-max-age": "600",
    },
  });
}

function faultResponse(fault: Extract<MockFault, { type: "status" }>): Response {
  const headers: Record<string, string> = { ...fault.headers };
  if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.body !== undefined) {
    return new Response(fault.body, { status: fault.status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  }
  return errorResponse(fault.status, fault.message ?? `Injected failure with status ${fault.status}.`, { code: `mock_${fault.status}`, headers });
}

async function readJSON(request: Request): Promise<{ value: unknown; error?: string }> {
  if (request.method === "GET" || request.method === "HEAD") return { value: undefined };
  const text = await request.text();
  if (text === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { value: undefined, error: "The request body is not valid JSON." };
  }
}

/** The catalogue entry as `/v1/models` shows it (without the mock's routing-only fields). */
function publicModel({ latency_ms: _latency, ...model }: MockModel) {
  return model;
}
