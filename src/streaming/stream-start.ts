import type { BodyReader } from "./body-reader.ts";

/**
 * The fields an event stream's first line can start with, as the decoder reads them (`error` is
 * its one addition to the WHATWG fields, see `SSEDecoder`).
 */
const FIELDS = ["data", "event", "id", "retry", "error"];

/**
 * Reads the start of a body asked for as Server-Sent Events, as far as it takes to see what it
 * is: a body is read by its first bytes, not its label (API.md, Stream), since msw handlers,
 * `new Response(text)` mocks and proxies label event streams `text/plain` or not at all, and a
 * whole answer (a proxy's cache, a provider that does not stream) or an error document may come
 * labelled `text/event-stream`.
 *
 * - An event stream, whose first text past a BOM and whitespace is a comment (`:`) or a field
 *   the decoder reads followed by `:` or a line end: resolves to `"events"` once the first bytes
 *   show it, and puts what it read back into the reader (`unread`) for the stream to decode.
 *   Nothing more than those bytes is read, so the stream is handed over at its first event.
 * - A body that ends before it can tell (empty, blank, or cut inside a first line that could
 *   still have been an event's, `"dat"`): `"cut"`. Node's fetch ends a body cut early as if it
 *   were whole, and no answer to a stream request is empty.
 * - Anything else (JSON, a page, plain text): read to its end and resolved to its bytes, for the
 *   caller to read as the whole document it is.
 *
 * Throws what the reader throws (the attempt's timeout, the caller's abort, a cut).
 */
export async function readStreamStart(reader: BodyReader): Promise<"events" | "cut" | Uint8Array> {
  const pieces: Uint8Array[] = [];
  let start = "";
  // `stream: true`: a character split across reads is decoded once its rest arrives.
  const decoder = new TextDecoder();
  let shows: boolean | undefined;
  for (;;) {
    const bytes = await reader.read();
    if (bytes === undefined) return shows === undefined ? "cut" : join(pieces);
    pieces.push(bytes);
    if (shows === undefined) {
      // A BOM and whitespace before the first line say nothing; the decoder drops the BOM.
      start = (start + decoder.decode(bytes, { stream: true })).trimStart();
      shows = showsEvents(start);
      if (shows) {
        reader.unread(join(pieces));
        return "events";
      }
    }
    // A document is read whole, as a non-streamed answer is (the attempt's timeout still runs):
    // every read is progress, so only that timeout bounds it.
    reader.progress();
  }
}

/** Whether text that starts with neither a BOM nor whitespace is an event stream; `undefined` until it can tell. */
function showsEvents(text: string): boolean | undefined {
  if (text === "") return undefined;
  if (text.charCodeAt(0) === 58 /* ":" */) return true;
  for (const field of FIELDS) {
    // "da" may be the start of "data:"; wait for the rest.
    if (text.length <= field.length) {
      if (field.startsWith(text)) return undefined;
    } else if (text.startsWith(field) && ":\r\n".includes(text.charAt(field.length))) {
      return true;
    }
  }
  return false;
}

function join(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const whole = new Uint8Array(pieces.reduce((length, piece) => length + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.length;
  }
  return whole;
}
