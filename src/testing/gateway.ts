import { CreditAccount } from "./billing/credits.ts";
import { fromLegacyFunctions, toLegacyChunks, toLegacyCompletion } from "./chat/legacy-functions.ts";
import { DEFAULT_CATALOGUE } from "./catalogue/models.ts";
import { checkChatRequest } from "./chat/check-request.ts";
import { mockPromptTokens } from "./chat/prompt-tokens.ts";
import { planReply } from "./chat/replies.ts";
import { CompletionStore } from "./chat/stored.ts";
import { chooseModel, hasRouteFilters, unsupportedFeature } from "./chat/routing.ts";
import { chunkStream, toChunks, toCompletion } from "./chat/wire.ts";
import { serveEmbeddings } from "./endpoints/embeddings.ts";
import { serveImageEdits, serveImageGenerations, type ImageContext } from "./endpoints/images.ts";
import { modelListing, serveModel } from "./endpoints/models.ts";
import { serveSpeech } from "./endpoints/speech.ts";
import { serveTranscription, serveTranslation } from "./endpoints/transcriptions.ts";
import type { MockGateway, MockGatewayOptions, MockRequestRecord } from "./gateway-types.ts";
import { allowCrossOrigin, preflightResponse } from "./http/cors.ts";
import { errorResponse, RequestRejected } from "./http/error-response.ts";
import { eventStream, type StreamScript } from "./http/event-stream.ts";
import {
  checkReplyScript,
  delay,
  FaultQueue,
  faultyJSONResponse,
  statusFaultResponse,
  type BodyFault,
  type MockFault,
  type ReplyScript,
  type RequestFault,
  type StructuredFault,
} from "./http/faults.ts";
import { jsonOf, readBody, toRequest, type ParsedBody } from "./http/request-body.ts";
import { hash, mulberry32 } from "./random.ts";

/** The API key the mock accepts unless `apiKey` says otherwise. */
export const MOCK_API_KEY = "mg-mock-key";

/** Methods each path serves, for a 405 that says which one to use. */
const ROUTES: Record<string, string> = {
  "/v1/models": "GET",
  // GET lists the completions stored with `store: true` (see chat/stored.ts).
  "/v1/chat/completions": "GET, POST",
  "/v1/embeddings": "POST",
  "/v1/images/generations": "POST",
  "/v1/images/edits": "POST",
  "/v1/audio/speech": "POST",
  "/v1/audio/transcriptions": "POST",
  "/v1/audio/translations": "POST",
};

/** Creates a mock gateway; see `MockGateway` and `MockGatewayOptions`. */
export function createMockGateway(options: MockGatewayOptions = {}): MockGateway {
  const apiKey = options.apiKey ?? MOCK_API_KEY;
  const catalogue = options.models ?? DEFAULT_CATALOGUE;
  const seed = options.seed ?? 42;
  const cors = options.cors ?? true;
  const account = new CreditAccount(options.credits ?? Infinity);
  const serveModelList = modelListing(catalogue);
  const faults = new FaultQueue<RequestFault>();
  const scripts = new FaultQueue<StructuredFault>();
  const replyScripts = new FaultQueue<ReplyScript>();
  const requests: MockRequestRecord[] = [];
  const store = new CompletionStore();
  let requestCount = 0;
  let imageCount = 0;
  let videoCount = 0;
  let activeStreams = 0;
  const wire = { reasoningField: options.reasoningField ?? "reasoning" } as const;

  const handle = async (request: Request, number: number): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method === "OPTIONS" && cors) return preflightResponse(request);
    const body = await readBody(request);
    requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: body.value });

    const fault = url.pathname.startsWith("/v1/") && request.method !== "OPTIONS" ? faults.next() : undefined;
    if (fault?.type === "status") return statusFaultResponse(fault);
    if (fault?.type === "latency") await delay(fault.ms, request.signal);
    const bodyFault = fault && "afterChunks" in fault ? fault : undefined;

    let response: Response;
    try {
      response = route(request, url.pathname, body, number, bodyFault);
    } catch (error) {
      if (error instanceof RequestRejected) return error.toResponse();
      // A throwing `reply` function: a 500 tells the test author more than a failed fetch.
      return errorResponse(500, `The mock gateway failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const streamed = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    return bodyFault && !streamed ? faultyJSONResponse(response, bodyFault, request.signal) : response;
  };

  const route = (request: Request, pathname: string, body: ParsedBody, number: number, fault: BodyFault | undefined): Response => {
    const authorization = request.headers.get("authorization");
    if (!authorization) {
      throw new RequestRejected("Missing API key: send it as `Authorization: Bearer <key>`.", null, 401, "invalid_api_key");
    }
    // The key itself never goes into the message: error messages end up in logs.
    if (authorization.replace(/^Bearer\s+/i, "") !== apiKey) throw new RequestRejected("Invalid API key.", null, 401, "invalid_api_key");

    const path = pathname.replace(/\/+$/, "");
    const { method } = request;
    if (method === "GET" && path === "/v1/models") return serveModelList(request.headers.get("if-none-match"));
    if (method === "GET" && path.startsWith("/v1/models/")) return serveModel(catalogue, path.slice("/v1/models/".length));
    if (method === "POST" && path === "/v1/chat/completions") return serveChatCompletion(body, request.signal, number, fault);
    const stored = path.startsWith("/v1/chat/completions") ? store.serve(method, path, new URL(request.url).searchParams, () => jsonOf(body)) : undefined;
    if (stored) return stored;
    if (method === "POST" && path === "/v1/embeddings") return serveEmbeddings(jsonOf(body), catalogue, options.embeddingsAsBase64 ?? false);
    if (method === "POST" && path === "/v1/images/generations") return serveImageGenerations(jsonOf(body), imageContext(request.signal, fault));
    if (method === "POST" && path === "/v1/images/edits") return serveImageEdits(body.form, imageContext(request.signal, fault));
    if (method === "POST" && path === "/v1/audio/speech") return serveSpeech(jsonOf(body), catalogue);
    if (method === "POST" && path === "/v1/audio/transcriptions") return serveTranscription(body.form, catalogue);
    if (method === "POST" && path === "/v1/audio/translations") return serveTranslation(body.form, catalogue);
    const allowed = ROUTES[path];
    if (allowed) {
      return errorResponse(405, `${method} is not allowed on ${path}; use ${allowed}.`, { code: "method_not_allowed", headers: { allow: allowed } });
    }
    return errorResponse(404, `No route for ${method} ${pathname}.`, { code: "not_found" });
  };

  const serveChatCompletion = (body: ParsedBody, signal: AbortSignal, number: number, fault: BodyFault | undefined): Response => {
    const checked = checkChatRequest(jsonOf(body));
    // A request in the deprecated function-calling shape is served as the tools request it stands for.
    const legacy = fromLegacyFunctions(checked);
    const params = legacy ?? checked;
    const routed = chooseModel(params, catalogue);
    if ("error" in routed) {
      if (routed.code === "model_not_found") throw new RequestRejected(routed.error, "model", 404, routed.code);
      // For "auto", 413 as a gateway's body limit answers it; for a named model, the 400 its
      // provider answers (OpenAI's `context_length_exceeded`). The prompt is what has to change.
      if (routed.code === "context_length_exceeded") throw new RequestRejected(routed.error, "messages", params.model === "auto" ? 413 : 400, routed.code);
      throw new RequestRejected(routed.error, hasRouteFilters(params) ? "route" : null, 400, routed.code);
    }
    const { model } = routed;
    const unsupported = unsupportedFeature(params, model);
    if (unsupported) throw new RequestRejected(unsupported.message, unsupported.param, 400, "unsupported_parameter");
    account.authorize(params, model, mockPromptTokens(params));
    const plan = planReply(params, {
      id: `chatcmpl-mock${pad(number)}`,
      model,
      seed,
      reply: options.reply,
      takeScript: () => scripts.next()?.as,
      // Taken only now: a request refused above leaves the script for the next one.
      script: replyScripts.next(),
      nextVideo: () => ++videoCount,
    });
    account.charge(plan.usage.cost);
    // What `store: true` keeps is the completion, streamed or not.
    if (params.store === true) store.keep(params, toCompletion(plan, wire) as Parameters<CompletionStore["keep"]>[1]);
    // Distinct from the body's `id`, so a test can tell which of the two a client reported.
    const headers = { "x-generation-id": generationID(seed, number) };
    if (!params.stream) {
      const completion = toCompletion(plan, wire);
      return Response.json(legacy ? toLegacyCompletion(completion) : completion, { headers });
    }
    const chunks = toChunks(plan, params.stream_options?.include_usage === true, seed, wire);
    return streamed(chunkStream(legacy ? toLegacyChunks(chunks) : chunks), signal, fault, headers);
  };

  const imageContext = (signal: AbortSignal, fault: BodyFault | undefined): ImageContext => ({
    catalogue,
    nextImage: () => ++imageCount,
    stream: (script) => streamed(script, signal, fault),
  });

  /** An event-stream answer, paced by the gateway's options and broken by the request's fault, if any. */
  const streamed = (script: StreamScript, signal: AbortSignal, fault: BodyFault | undefined, headers: Record<string, string> = {}): Response => {
    const stream = eventStream(script, {
      chunkDelayMs: options.chunkDelayMs ?? 0,
      keepAliveEvery: options.keepAliveEvery ?? 8,
      fault,
      signal,
      onActive: (change) => (activeStreams += change),
    });
    return new Response(stream, { headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };

  const gateway = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = toRequest(input, init);
    const number = ++requestCount;
    const response = await handle(request, number);
    response.headers.set("x-request-id", `req_mock_${pad(number)}`);
    // A 304 has no body, so nothing to describe.
    if (response.body !== null && !response.headers.has("content-type")) response.headers.set("content-type", "text/plain; charset=utf-8");
    if (cors) allowCrossOrigin(response.headers);
    return response;
  };

  return Object.defineProperties(gateway as MockGateway, {
    inject: {
      value: (fault: MockFault, times = 1) => {
        if (fault.type === "structured") return scripts.add(fault, times);
        if (fault.type === "reply") return replyScripts.add(checkReplyScript(fault), times);
        faults.add(fault, times);
      },
    },
    requests: { value: requests },
    reset: {
      value: () => {
        requests.length = 0;
        faults.clear();
        scripts.clear();
        replyScripts.clear();
        requestCount = 0;
        imageCount = 0;
        videoCount = 0;
        store.clear();
        account.reset();
      },
    },
    catalogue: { value: catalogue },
    activeStreams: { get: () => activeStreams },
    credits: { get: () => account.balance },
  });
}

/** Request numbers padded so ids sort in order. */
function pad(number: number): string {
  return String(number).padStart(6, "0");
}

/** A generation id as ModelGate writes it: `gen-` and 16 hex digits, from the seed and the request number. */
function generationID(seed: number, number: number): string {
  const random = mulberry32(hash(`generation ${seed} ${number}`));
  const word = () => Math.floor(random() * 2 ** 32).toString(16).padStart(8, "0");
  return `gen-${word()}${word()}`;
}
