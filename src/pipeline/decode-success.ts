// The last step of a call that succeeded: its answer read as the request's response kind says
// (parsed JSON shaped by the resource, text, a Stream, the raw Response).
import { errorFromBody, isErrorDocument, parseBody, unexpectedBodyError, type ErrorContext } from "../errors/index.ts";
import { gatewayInfo } from "../gateway/info.ts";
import { BodyReader } from "../streaming/body-reader.ts";
import { rawResponse } from "../streaming/raw-response.ts";
import { sseStream, type SSEChunkOptions } from "../streaming/sse-chunks.ts";
import type { Outcome } from "./api-promise.ts";
import { isDocument, type Exchange, type ResponseKind } from "./attempt.ts";
import { limits } from "./limits.ts";
import type { PipelineConfig, RequestSpec } from "./request.ts";

/** What an error built from a response is built with. */
export function errorContext(response: Response, config: PipelineConfig): ErrorContext {
  return { headers: response.headers, redact: config.redact };
}

/** How a call's event stream is read: the resource's end rules, the client's longest line, its redaction. */
export function streamOptions(config: PipelineConfig, spec: RequestSpec): SSEChunkOptions {
  return { ...spec.streamRules, maxLineLength: config.maxSSELineLength, errorContext: { redact: config.redact } };
}

/** The result of a successful exchange, read as the request's `response` kind says. */
export function decodeSuccess<T>(exchange: Exchange, config: PipelineConfig, spec: RequestSpec, attempts: number, kind: ResponseKind): Outcome<T> {
  const { response, text = "", reader } = exchange;
  // What the gateway did, read from the headers once; its `requestID` is `withResponse()`'s too.
  const gateway = gatewayInfo(spec.body, response.headers, attempts, config.redact);
  const { requestID } = gateway;
  if (reader) {
    if (kind === "raw") {
      const raw = rawResponse(response, reader);
      return { data: raw as T, response: () => raw, requestID, asResponse: () => raw };
    }
    const options = streamOptions(config, spec);
    // One readable response for `withResponse()` and `asResponse()`, as openai gives one
    // object to both; made when first asked, so a caller who reads only the Stream starts no
    // second reader of the body.
    let raw: Response | undefined;
    const readableRaw = () => (raw ??= rawResponse(response, reader));
    return {
      data: (spec.stream ?? sseStream)(response, reader, exchange.controller, gateway, options) as T,
      response: readableRaw,
      requestID,
      // Asking for it is choosing it: the Stream's chunks can no longer be read (and once they
      // are being read, it is refused).
      asResponse: () => {
        reader.claim("asResponse()");
        return readableRaw();
      },
    };
  }
  // Rebuilt from the text read, so its body can be read though the SDK read the original's;
  // once, so `withResponse().response` and `asResponse()` are the same object, as in openai.
  let copy: Response | undefined;
  const readable = () => (copy ??= new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }));
  let data: unknown = text;
  // A whole answer sent in place of a stream (an error document was an error already, see
  // `runRequest`): a stream of what it stands for, read by the stream's own decoder so that every
  // rule of reading chunks applies to it.
  const events = kind === "sse" ? spec.wholeAnswer?.(parseBody(text)) : undefined;
  if (events !== undefined) {
    // The attempt is over (its hold on the caller's signal with it): the stream holds its own,
    // so that the caller's abort still ends it.
    const { controller, release } = limits(spec.options?.signal, Infinity, () => undefined);
    const reader = new BodyReader(new Blob([events]).stream(), { controller, onEnd: release });
    const options = streamOptions(config, spec);
    return { data: sseStream(response, reader, controller, gateway, options) as T, response: readable, requestID, asResponse: readable, events: () => new Response(events, { headers: response.headers }) };
  }
  if (kind === "json") {
    try {
      data = text === "" ? undefined : JSON.parse(text);
    } catch {
      // "whole": JSON that does not parse under a JSON content type was most likely cut short.
      throw unexpectedBodyError(response, text, "whole JSON", config.redact);
    }
    // A resource's own reading of its answer (chat's keeps what the gateway did beside it).
    if (spec.decode) data = spec.decode(data, gateway, errorContext(response, config));
  } else if (kind === "sse") {
    // Named by what its bytes are: its label may say anything (see `readStreamStart`).
    throw unexpectedBodyError(response, text, "an event stream", config.redact, `${whatTextIs(text)} (${response.headers.get("content-type") ?? "no content type"})`);
  } else if (kind !== "text" || isDocument(response) || isErrorDocument(parseBody(text))) {
    // Audio or text answered with a whole document (JSON, a page): not what was asked for.
    throw unexpectedBodyError(response, text, kind === "raw" ? "binary data" : "text", config.redact);
  }
  return { data: data as T, response: readable, requestID, asResponse: readable };
}

/** What a body that is no event stream holds, as an error names it. */
function whatTextIs(text: string): string {
  const start = text.trimStart();
  if (/^<(!doctype html|html)\b/i.test(start)) return "HTML";
  if (start.startsWith("<")) return "markup";
  if (!start.startsWith("{") && !start.startsWith("[")) return "plain text";
  return parseBody(text) === text ? "JSON that does not parse (cut short?)" : "JSON that is no answer";
}
