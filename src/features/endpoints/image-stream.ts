import { errorFromBody, errorFromStreamEvent } from "../../errors/from-body.ts";
import { APIConnectionError, APIError, ModelGateError } from "../../errors/index.ts";
import { redactNothing } from "../../internal/redact.ts";
import { excerpt, isRecord } from "../../internal/values.ts";
import type { BodyReader } from "../../streaming/body-reader.ts";
import type { SSEChunkOptions } from "../../streaming/sse-chunks.ts";
import { SSEDecoder } from "../../streaming/sse-decoder.ts";
import { Stream } from "../../streaming/stream.ts";
import type { GatewayInfo } from "../../types/index.ts";
import { queue } from "../../streaming/queue.ts";

const EXCERPT_LENGTH = 120;

/**
 * What the pipeline calls to make the `Stream` of a streamed image request (`images.generate`
 * or `images.edit` with `stream: true`) that asked for `count` images.
 */
export function imageEventStream(count: number) {
  return (response: Response, reader: BodyReader, controller: AbortController, gateway: GatewayInfo, options: SSEChunkOptions): Stream<unknown> =>
    new Stream(() => imageEvents(response, reader, count, options, gateway), controller, response, gateway);
}

/**
 * The events of an image stream, as OpenAI sends them: named Server-Sent Events
 * (`event: image_generation.partial_image`, `…completed`, or `image_edit.*`) whose data is the
 * event's JSON. OpenAI ends such a stream after the last image's `completed` event without
 * `data: [DONE]`, so the stream ends normally at `[DONE]` or once each of the `count` requested
 * images has its `completed` event. Only distinct images in `[0, count)` count: a repeat for
 * an image that names its `image_index` counts once, and an index outside the request (7 and 9
 * when 2 were asked for) or that is no whole number counts for none. A body that closes before
 * either was cut, and throws `APIConnectionError` after the events that did arrive. An `event: error`, or an event that
 * carries `error`, throws the `APIError` it describes. The body's reader keeps its limits
 * (timeouts, abort); only whole events count as the server being alive.
 */
async function* imageEvents(response: Response, reader: BodyReader, count: number, options: SSEChunkOptions, gateway: GatewayInfo): AsyncGenerator<unknown> {
  const context = { ...options.errorContext, headers: response.headers };
  const events = queue<unknown>();
  let failure: Error | undefined;
  /**
   * The indexes, in `[0, count)`, of the images completed: an event's `image_index` when it
   * names its image (so a repeated event, or one for an image never asked for, cannot stand in
   * for an image that never came), else the lowest not yet completed (OpenAI's events name no
   * image; `partial_image_index` counts a partial within its image).
   */
  const completed = new Set<number>();
  const complete = (index: unknown) => {
    if (index == null) {
      let next = 0;
      while (completed.has(next)) next++;
      index = next;
    }
    if (Number.isInteger(index) && (index as number) >= 0 && (index as number) < count) completed.add(index as number);
  };
  let bodyEnded = false;
  let ended = false;
  const decoder = new SSEDecoder(
    ({ event, data }) => {
      if (ended || failure) return;
      const before = events.size;
      if (data.trim() === "[DONE]") ended = true;
      else if (event === "error") failure = errorFromStreamEvent(data, context);
      else if (data !== "") failure = take(data);
      // Only what the caller is given resets the idle clock, as for a chat stream: an event
      // skipped (no data, `data: null`) is a keep-alive however much it carries.
      if (events.size > before || failure || ended) reader.progress();
    },
    { maxLineLength: options.maxLineLength },
  );
  /** Queues one event's data; returns the error it is instead, if any. */
  const take = (data: string): Error | undefined => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      const shown = JSON.stringify(excerpt((context.redact ?? redactNothing)(data.slice(0, 2 * EXCERPT_LENGTH)), EXCERPT_LENGTH));
      return bodyEnded
        ? new APIConnectionError(`The image stream ended in the middle of an event (its data is incomplete: ${shown}).`)
        : new ModelGateError(`The image stream sent data that is not valid JSON: ${shown}`);
    }
    // Anything but an object is no event; an object with `error` is the error it reports.
    if (!isRecord(parsed)) return undefined;
    if (parsed.error) return errorFromBody(undefined, parsed, context);
    events.push(parsed);
    if (typeof parsed.type === "string" && parsed.type.endsWith(".completed")) {
      complete(parsed.image_index);
      if (completed.size >= count) ended = true;
    }
    return undefined;
  };

  try {
    for (;;) {
      // Everything that arrived before an end or an error is handed out first.
      while (events.size > 0) yield events.shift();
      if (failure) throw failure;
      if (ended) return;
      if (bodyEnded) {
        throw new APIConnectionError(
          `The image stream ended before it finished (no [DONE], and ${completed.size} of the ${count} image(s) asked for completed): the connection was probably cut.`,
        );
      }
      const bytes = await reader.read();
      if (bytes === undefined) {
        bodyEnded = true;
        decoder.flush();
      } else {
        decoder.decode(bytes);
      }
    }
  } catch (error) {
    // Like a chat stream's errors, each can be quoted by the stream's request id (the key cut out).
    if (error instanceof APIError) Object.assign(error, { requestID: error.requestID ?? gateway.requestID });
    throw error;
  } finally {
    // A consumer that stops early, an end before the body closed, or a failure: let the body go.
    reader.cancel();
  }
}
