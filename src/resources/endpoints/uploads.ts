import { abortError, invalidArgument, ModelGateError, untilAborted, type ToFileInput, type ToFileOptions } from "../../core.ts";

// Uploads as openai's users write them. Nothing here imports `node:*`: a Node `fs.ReadStream`
// is told by what it has (an async iterator and a `path`), a `Response` by its `blob()` and
// `url`, so the same code runs in browsers and edge runtimes, where those never come.

/** `toFile()` (see src/media/to-file.ts, which loads this on its first call). */
export async function makeFile(value: ToFileInput | string | PromiseLike<ToFileInput | string>, name?: string | null, options?: ToFileOptions): Promise<File> {
  if (name != null && typeof name !== "string") throw invalidArgument("name", "a string", name, "toFile()");
  const type = options?.type;
  if (type !== undefined && typeof type !== "string") throw invalidArgument("type", "a string such as \"audio/wav\"", type, "toFile()");
  const source = await value;
  // A string is text to upload here; as an endpoint's file it is more likely a path, and refused.
  const blob = typeof source === "string" ? new Blob([source]) : await readUpload(source, "value", "toFile()");
  const fileName = name ?? nameOf(blob) ?? "upload";
  if (blob instanceof File && blob.name === fileName && (type === undefined || type === blob.type) && options?.lastModified === undefined) return blob;
  return new File([blob], fileName, { type: type ?? blob.type, ...(options?.lastModified !== undefined && { lastModified: options.lastModified }) });
}

/**
 * The bytes of an upload as a `Blob`, reading a stream or `Response` to its end (once, so that
 * a retry can send them again). A `Blob` is returned as it is; what is read from a named
 * source (a stream's `path`, a `Response`'s URL, a foreign `File`'s name) comes back as a `File`
 * of that name; a `Blob` of another realm or a polyfill is read by its bytes. Bytes
 * become a `Blob`. Aborting `signal` ends the reading at once with the abort's error (a
 * stream is not read further). Anything else (a string included: it is more likely a path than the bytes) is an error naming `param`.
 */
export async function readUpload(value: unknown, param: string, where?: string, signal?: AbortSignal): Promise<Blob> {
  if (value instanceof Blob) return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return new Blob([value as BlobPart]);
  if (typeof value === "object" && value !== null) {
    if (isBlobLike(value)) {
      // A Blob of another realm or a polyfill (formdata-node, an older undici): its bytes, once.
      const bytes = await reading(param, where, signal, () => value.arrayBuffer());
      const blob = new Blob([bytes], { type: typeof value.type === "string" ? value.type : "" });
      return named(blob, typeof value.name === "string" && value.name !== "" ? value.name : undefined);
    }
    if (isResponse(value)) {
      const blob = await reading(param, where, signal, () => value.blob());
      return named(blob, urlName(value.url));
    }
    const parts = chunksOf(value);
    if (parts) {
      const read: BlobPart[] = [];
      await reading(param, where, signal, async () => {
        for await (const part of parts) {
          // Leaving the loop closes the source (a ReadStream its file).
          if (signal?.aborted) break;
          if (!(typeof part === "string" || part instanceof ArrayBuffer || ArrayBuffer.isView(part))) {
            throw invalidArgument(param, "a stream of bytes (Uint8Array chunks)", part, where);
          }
          read.push(part as BlobPart);
        }
      });
      // A Node `fs.ReadStream` names its file by `path` (a string, or a Buffer of one).
      const path = (value as { path?: unknown }).path;
      return named(new Blob(read), path == null ? undefined : lastSegment(String(path)));
    }
  }
  throw invalidArgument(
    param,
    "a Blob, a File, bytes (an ArrayBuffer or a typed array), a Response, or an async iterable of bytes such as fs.createReadStream(path)",
    value,
    where,
  );
}

/** What a `Blob` or `File` not of this realm has: its bytes, size and type (and a `File`'s name). */
interface BlobLike {
  arrayBuffer(): Promise<ArrayBuffer>;
  size: number;
  type?: unknown;
  name?: unknown;
}

/** A `Blob` by what it has (a `Response` has no `size`). */
function isBlobLike(value: object): value is BlobLike {
  return typeof (value as BlobLike).arrayBuffer === "function" && typeof (value as BlobLike).size === "number";
}

/** A `Response` from any fetch implementation: not `instanceof`, which fails across realms and polyfills. */
function isResponse(value: object): value is Response {
  return typeof (value as Response).blob === "function" && typeof (value as Response).url === "string" && "headers" in value;
}

/**
 * Runs a read of the caller's source; its failure (a missing file, a used body) becomes a
 * `ModelGateError` naming `param`, and an abort of `signal` ends it at once with the abort's error.
 */
async function reading<T>(param: string, where: string | undefined, signal: AbortSignal | undefined, read: () => Promise<T>): Promise<T> {
  try {
    if (signal?.aborted) throw abortError(signal);
    return await (signal ? untilAborted(read(), signal) : read());
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    if (error instanceof ModelGateError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const failure = new ModelGateError(`${where ? `${where}: ` : ""}Could not read \`${param}\`: ${message}`, { cause: error });
    (failure as { param: string }).param = param;
    throw failure;
  }
}

/** `blob` as a `File` named `name`, when there is a name (the bytes are not copied). */
function named(blob: Blob, name: string | undefined): Blob {
  return name ? new File([blob], name, { type: blob.type }) : blob;
}

/** The last segment of a file path (`/tmp/talk.mp3` or `C:\\talk.mp3` → `talk.mp3`). */
function lastSegment(path: string): string | undefined {
  return path.split(/[\\/]/).pop() || undefined;
}

/** The last segment of a URL's path, decoded (`https://host/a/photo%201.png?x=1` → `photo 1.png`). */
function urlName(url: string): string | undefined {
  try {
    return lastSegment(decodeURIComponent(new URL(url).pathname));
  } catch {
    // No URL (a `Response` made in code has `url` ""), or one that does not decode.
    return undefined;
  }
}

/**
 * The chunks of a stream: an async iterable as it is, a `ReadableStream` without async
 * iteration (older browsers) through its reader; `undefined` for anything else.
 */
function chunksOf(value: object): AsyncIterable<unknown> | undefined {
  if (Symbol.asyncIterator in value) return value as AsyncIterable<unknown>;
  const stream = value as Partial<ReadableStream<unknown>>;
  if (typeof stream.getReader !== "function") return undefined;
  const reader = stream.getReader();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (let result = await reader.read(); !result.done; result = await reader.read()) yield result.value;
      } finally {
        reader.releaseLock();
      }
    },
  };
}

/** The name a `Blob` carries, if it is a `File`. */
function nameOf(blob: Blob): string | undefined {
  return blob instanceof File && blob.name !== "" ? blob.name : undefined;
}
