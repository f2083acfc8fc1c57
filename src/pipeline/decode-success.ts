// The last step of a call that succeeded: its answer read as the request's response kind says
// (parsed JSON shaped by the resource, text, a Stream, the raw Response).
import { errorFromBody, isErrorDocument, parseBody, unexpectedBodyError, type ErrorContext } from "../errors/index.ts";
import { gatewayInfo, requestIDOf } from "../gateway/info.ts";
import { rawResponse } from "../streaming/raw-response.ts";
import { Stream } from "../streaming/stream.ts";
import type { Outcome } from "./api-promise.ts";
import { isDocument, type Exchange, type ResponseKind } from "./attempt.ts";
import type { PipelineConfig, RequestSpec } from "./request.ts";

/** What an error built from a response is built with. */
export function errorContext(response: Response, config: PipelineConfig): ErrorContext {
  return { headers: response.headers, redact: config.redact };
}

/** The result of a successful exchange, read as the request's `response` kind says. */
export function decodeSuccess<T>(exchange: Exchange, config: PipelineConfig, spec: RequestSpec, attempts: number, kind: ResponseKind): Outcome<T> {
  const { response, text = "", reader } = exchange;
  const gateway = () => gatewayInfo(spec.body, response.headers, attempts, config.redact);
  const requestID = requestIDOf(response.headers, config.redact);
  if (reader) {
    if (kind === "raw") {
      const raw = rawResponse(response, reader);
      return { data: raw as T, response: () => raw, requestID, asResponse: () => raw };
    }
    const options = { ...spec.streamRules, maxLineLength: config.maxSSELineLength, errorContext: { redact: config.redact } };
    return {
      data: (spec.stream ?? Stream.fromSSEResponse)(response, reader, exchange.controller, gateway(), options) as T,
      response: () => response,
      requestID,
      asResponse: () => rawResponse(response, reader),
    };
  }
  const readable = () => new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  let data: unknown = text;
  if (kind === "json") {
    try {
      data = text === "" ? undefined : JSON.parse(text);
    } catch {
      // "whole": JSON that does not parse under a JSON content type was most likely cut short.
      throw unexpectedBodyError(response, text, "whole JSON", config.redact);
    }
    if (isErrorDocument(data)) throw errorFromBody(undefined, data, errorContext(response, config));
    // A resource's own reading of its answer (chat's keeps what the gateway did beside it).
    if (spec.decode) data = spec.decode(data, gateway());
  } else if (kind !== "text" || isDocument(response) || isErrorDocument(parseBody(text))) {
    // A stream, audio or text answered with a whole document (JSON, a page): not what was asked for.
    throw unexpectedBodyError(response, text, kind === "sse" ? "an event stream" : kind === "raw" ? "binary data" : "text", config.redact);
  }
  return { data: data as T, response: readable, requestID, asResponse: readable };
}
