import { ModelGateError } from "../errors/index.ts";
import { DEFAULT_MAX_LINE_LENGTH } from "./line-limit.ts";

/** One event of a Server-Sent Events stream. */
export interface ServerSentEvent {
  /** The `event:` field; `undefined` when the event had none (the default type, "message"). */
  event: string | undefined;
  /** The `data:` lines joined with "\n". */
  data: string;
  /** The `id:` field of this event, if it had one. */
  id: string | undefined;
  /** The `retry:` field in milliseconds, if it had a valid one. */
  retry: number | undefined;
}

/** Limits of the decoder. */
export interface SSEDecoderOptions {
  /** Longest line, and longest data of one event, in UTF-16 code units. @default 16 Mi */
  maxLineLength?: number;
}

const LF = 10;
const COLON = 58;
const SPACE = 32;

/**
 * Decodes a Server-Sent Events byte stream into events, following the WHATWG "event stream
 * interpretation" rules, with two deliberate differences:
 *
 * - a last event that the body ends without a blank line after is still dispatched by
 *   `flush()` (some servers omit it, and the stream layer decides whether a cut-off event
 *   means truncation);
 * - a field named `error`, which the spec ignores, makes its event an error event: it is
 *   dispatched as `event: error` with the field's value as its data, even when it has no
 *   `data`, whose lines are then not dispatched. llama.cpp's server reports a failure
 *   mid-stream as `error: {"code":500,"message":…}` and then ends with `data: [DONE]`, which
 *   would otherwise read as an empty, normal answer.
 *
 * Feed network reads to `decode()`; events are handed to `onEvent` synchronously, so one read
 * costs one call however many events it holds.
 */
export class SSEDecoder {
  readonly #onEvent: (event: ServerSentEvent) => void;
  readonly #maxLineLength: number;
  // `stream: true` keeps the bytes of a character split across two reads until the rest arrives.
  readonly #textDecoder = new TextDecoder("utf-8");
  /** Pieces of a line whose end has not arrived yet, joined once when it does (linear, not quadratic, for one long line in many reads). */
  #partialLine: string[] = [];
  #partialLength = 0;
  /** The previous read ended with CR: an LF at the start of the next one completes that CRLF. */
  #afterCR = false;
  #data: string | undefined;
  #dataLines: string[] | undefined;
  #dataLength = 0;
  #eventType: string | undefined;
  /** The `error` field's value (its lines joined with "\n"), when the event has one. */
  #error: string | undefined;
  #id: string | undefined;
  #retry: number | undefined;

  constructor(onEvent: (event: ServerSentEvent) => void, options: SSEDecoderOptions = {}) {
    this.#onEvent = onEvent;
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  /** Decodes one network read. Errors thrown by `onEvent` propagate unchanged. */
  decode(bytes: Uint8Array): void {
    this.#feed(this.#textDecoder.decode(bytes, { stream: true }));
  }

  /** The body ended: finishes a last line and dispatches a last event that had no blank line after it. */
  flush(): void {
    this.#feed(this.#textDecoder.decode());
    if (this.#partialLength > 0 || this.#partialLine.length > 0) this.#line(this.#takePartial(""));
    this.#dispatch();
  }

  #feed(text: string): void {
    // A read may decode to nothing (zero bytes, or only part of a character): it must not
    // forget that the previous read ended with a CR whose LF may still come.
    if (text === "") return;
    let start = 0;
    if (this.#afterCR && text.charCodeAt(0) === LF) start = 1;
    this.#afterCR = false;
    const length = text.length;
    // Lines usually end in LF alone, so the next LF is searched per line, as a hand-written
    // loop would. A CR position is only tracked when the read has one, and searched again
    // only once passed, so mixed line ends stay linear too. (Measured: keeping a CR search on
    // the LF-only path made V8 run this loop ~20× slower.)
    let cr = text.includes("\r") ? text.indexOf("\r", start) : -1;
    while (start < length) {
      let end = text.indexOf("\n", start);
      if (cr !== -1) {
        if (cr < start) cr = text.indexOf("\r", start);
        if (cr !== -1 && (end === -1 || cr < end)) end = cr;
      }
      if (end === -1) {
        this.#keepPartial(start === 0 ? text : text.slice(start));
        return;
      }
      if (this.#partialLine.length > 0) {
        this.#line(this.#takePartial(text.slice(start, end)));
      } else if (end === start) {
        this.#dispatch();
      } else if (text.startsWith("data:", start)) {
        // The hot path: almost every line of a chat stream is "data: {...}". Taking the value
        // straight from the read avoids slicing the line, then its field, then its value.
        const valueStart = text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
        this.#appendData(text.slice(valueStart, end));
      } else {
        this.#line(text.slice(start, end));
      }
      if (end === cr) {
        if (end + 1 === length) {
          this.#afterCR = true; // the LF of this CRLF may start the next read
          return;
        }
        start = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
  }

  #keepPartial(piece: string): void {
    this.#partialLength += piece.length;
    if (this.#partialLength > this.#maxLineLength) throw this.#tooLong("line");
    this.#partialLine.push(piece);
  }

  #takePartial(last: string): string {
    this.#partialLine.push(last);
    const line = this.#partialLine.join("");
    this.#partialLine = [];
    this.#partialLength = 0;
    return line;
  }

  #line(line: string): void {
    if (line === "") {
      this.#dispatch();
      return;
    }
    const first = line.charCodeAt(0);
    if (first === COLON) return; // a comment, e.g. the keep-alive ": PROCESSING"
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = line.slice(valueStart);
    switch (field) {
      case "data":
        this.#appendData(value);
        break;
      case "event":
        // An empty value means the default type, as if the field were absent (WHATWG: the
        // event type buffer is then empty, and dispatch uses "message").
        this.#eventType = value === "" ? undefined : value;
        break;
      case "id":
        if (!value.includes("\0")) this.#id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      case "error":
        this.#countData(value);
        this.#error = this.#error === undefined ? value : `${this.#error}\n${value}`;
        break;
      default:
      // Unknown fields are ignored, as the spec requires.
    }
  }

  /** Most events have one data line: keep it as a string and only build an array for the rest. */
  #appendData(value: string): void {
    this.#countData(value);
    if (this.#data === undefined) {
      this.#data = value;
    } else {
      this.#dataLines ??= [this.#data];
      this.#dataLines.push(value);
    }
  }

  /** An event's data (and `error` field) count towards the limit of one event. */
  #countData(value: string): void {
    this.#dataLength += value.length + 1;
    if (this.#dataLength > this.#maxLineLength) throw this.#tooLong("event");
  }

  #dispatch(): void {
    const failure = this.#error;
    let event: ServerSentEvent | undefined;
    if (failure !== undefined) {
      event = { event: "error", data: failure, id: this.#id, retry: this.#retry };
      this.#error = undefined;
    } else {
      const data = this.#dataLines ? this.#dataLines.join("\n") : this.#data;
      if (data !== undefined) event = { event: this.#eventType, data, id: this.#id, retry: this.#retry };
    }
    this.#data = undefined;
    this.#dataLines = undefined;
    this.#dataLength = 0;
    this.#eventType = undefined;
    this.#id = undefined;
    this.#retry = undefined;
    // No data field means nothing to dispatch (e.g. "event: ping" alone): the spec's rule.
    if (event) this.#onEvent(event);
  }

  #tooLong(what: "line" | "event"): ModelGateError {
    return new ModelGateError(`A stream ${what} exceeded ${this.#maxLineLength} characters; raise the client's \`maxSSELineLength\` option if this is expected.`);
  }
}
