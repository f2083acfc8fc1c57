import type { BodyReader } from "./body-reader.ts";

/**
 * A `Response` whose body is read through `reader`, for `asResponse()` on a stream: the
 * request's timeout and signal keep applying, and the request is released when it ends.
 * Making it claims nothing: `withResponse()` gives this object beside the `Stream`, and only
 * the one of the two that is read takes the body (`BodyReader.claim`); reading the other then
 * fails with a `ModelGateError` naming the first.
 */
export function rawResponse(response: Response, reader: BodyReader): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(sink) {
      reader.claim("asResponse()");
      const bytes = await reader.read();
      // Raw bytes have no events to tell: any that arrive count as the server being alive.
      reader.progress();
      if (bytes === undefined) sink.close();
      else sink.enqueue(bytes);
    },
    cancel: () => reader.cancel(),
    // Nothing is read before the caller reads: `withResponse()` gives this object beside the
    // `Stream`, and a read ahead here would take the Stream's bytes.
  }, { highWaterMark: 0 });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
