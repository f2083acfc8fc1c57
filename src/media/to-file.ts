import { loadEndpoints } from "../pipeline/loader.ts";

// `toFile()` is a named export of the package, but what it does is read uploads for the
// endpoints beside chat: the reading loads with them, on first use (see src/pipeline/loader.ts), so a
// chat app that never uploads carries neither.

/** The part of a `Response` (from any realm or fetch implementation) an upload reads. */
export interface ResponseLike {
  /** The response's URL: its last path segment names the file when no name is given. */
  url: string;
  /** The body, read whole. */
  blob(): Promise<Blob>;
}

/**
 * What an upload may be read from: a `Blob` or `File` (sent as it is), bytes, a `Response`
 * (its body), or an `AsyncIterable` of bytes such as a Node `fs.ReadStream` (whose `path`
 * names the file) or a web `ReadableStream`.
 */
export type ToFileInput =
  | Blob
  | ArrayBuffer
  | ArrayBufferView
  | ResponseLike
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | ArrayBuffer | ArrayBufferView | string>;

/** A file field's value as endpoint params take it: what `toFile()` reads, or a `File` it made. */
export type Uploadable = ToFileInput;

/** Options of `toFile()`. */
export interface ToFileOptions {
  /** The media type, e.g. `"audio/wav"`. @default the value's own (a `Blob`'s `type`, a `Response`'s content type), else none */
  type?: string | undefined;
  /** The file's modification time, in milliseconds since the epoch. @default now */
  lastModified?: number | undefined;
}

/**
 * A `File` named `name` holding `value`'s bytes, as openai's `toFile()` makes one:
 * `await toFile(fs.createReadStream("talk.mp3"), "talk.mp3")`, `await toFile(await fetch(url))`,
 * `await toFile(bytes, "photo.png", { type: "image/png" })`. `value` may be a `Blob` or `File`,
 * bytes (an `ArrayBuffer` or any typed array or `DataView`), a string (its UTF-8 text), a
 * `Response`, an `AsyncIterable` of bytes (a Node `fs.ReadStream`, a `ReadableStream`, an
 * async generator), or a promise of any of these. Streams are read to their end, once.
 * Without `name`, the name is the `File`'s own, the last segment of a stream's `path` or a
 * `Response`'s URL, else `"upload"`. A `File` that already has that name and type is returned
 * as it is; a `Blob`'s bytes are never copied.
 * @throws ModelGateError naming `value` when it is none of these, or when reading it fails.
 */
export function toFile(value: ToFileInput | string | PromiseLike<ToFileInput | string>, name?: string | null, options?: ToFileOptions): Promise<File> {
  // No call bounds it: toFile() takes no signal or timeout.
  return loadEndpoints({ timeout: Infinity }).then((endpoints) => endpoints.makeFile(value, name, options));
}
