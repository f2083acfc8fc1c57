import { abortError } from "../../errors/connection-errors.ts";
import { APIConnectionTimeoutError, ModelGateError } from "../../errors/index.ts";
import { isModelGateError } from "../../errors/modelgate-error.ts";
import { argumentError, invalidArgument } from "../../errors/invalid-argument.ts";
import { keptOrRedacted, redactThrown } from "../../internal/redact-thrown.ts";
import { redactNothing, type Redact } from "../../internal/redact.ts";
import { limits, type Limits } from "../../pipeline/limits.ts";
import type { LoadBounds } from "../../pipeline/loader.ts";
import { unlessAborted } from "../../pipeline/unless-aborted.ts";
import type { ResponseLike, ToFileInput, ToFileOptions } from "../../media/to-file.ts";

// Uploads as openai's users write them. Nothing here imports `node:*`: a Node `fs.ReadStream`
// is told by what it has (an async iterator and a `path`), a `Response` by its `blob()` and
// `url`, so the same code runs in browsers and edge runtimes, where those never come.

/** `toFile()` (see src/media/to-file.ts, which loads this on its first call). */
export async function makeFile(value: ToFileInput | string | PromiseLike<ToFileInput | string>, name?: string | null, options?: ToFileOptions): Promise<File> {
  if (name != null && typeof name !== "string") throw invalidArgument("name", "a string", name, "toFile()");
  const type = options?.type;
  if (type !== undefined && typeof type !== "string") throw invalidArgument("type", "a string such as \"audio/wav\"", type, "toFile()");
  let source: unknown;
  try {
    source = await value;
  } catch (error) {
    // A promise of the value that rejected: said of `value`, as any source that cannot be read.
    throw unreadable(error, "value", "toFile()", redactNothing);
  }
  // A string is text to upload here; as an endpoint's file it is more likely a path, and refused.
  const blob = typeof source === "string" ? new Blob([source]) : await readUpload(source, "value", "toFile()");
  const fileName = name ?? nameOf(blob) ?? "upload";
  if (blob instanceof File && blob.name === fileName && (type === undefined || type === blob.type) && options?.lastModified === undefined) return blob;
  return new File([blob], fileName, { type: type ?? blob.type, ...(options?.lastModified !== undefined && { lastModified: options.lastModified }) });
}

/**
 * What bounds the reading of a call's upload: the call's signal and timeout (`callBounds`: past
 * the timeout, `APIConnectionTimeoutError`), and the client's redaction for its errors.
 */
export interface ReadLimits extends LoadBounds {
  redact: Redact;
}

/**
 * The bytes of an upload as a `Blob`, reading a stream or `Response` to its end (once, so that
 * a retry can send them again). A `Blob` is returned as it is; what is read from a named
 * source (a stream's `path`, a `Response`'s URL, a foreign `File`'s name) comes back as a `File`
 * of that name; a `Blob` of another realm or a polyfill is read by its bytes. Bytes
 * become a `Blob`. Aborting `bounds.signal`, or its timeout passing, ends the reading at once
 * (with the abort's error, or `APIConnectionTimeoutError`) and stops a stream (a `ReadableStream`
 * is cancelled, a Node stream such as `fs.ReadStream` destroyed, closing its file); a source's
 * own failure is a `ModelGateError` with the key cut out. Anything else (a string included: it is more likely a path than the bytes) is an error naming `param`.
 */
export async function readUpload(value: unknown, param: string, where?: string, bounds?: ReadLimits): Promise<Blob> {
  try {
    return await readSource(value, param, where, bounds);
  } catch (error) {
    // What telling the source apart threw (a Proxy's trap, a getter, a locked stream's
    // `getReader()`): said of `param`, as a failed read is. The SDK's own errors pass as they are.
    throw unreadable(error, param, where, bounds?.redact ?? redactNothing);
  }
}

/** `readUpload` without the wrapping of what a hostile source throws. */
async function readSource(value: unknown, param: string, where: string | undefined, bounds: ReadLimits | undefined): Promise<Blob> {
  if (value instanceof Blob) return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return new Blob([value as BlobPart]);
  if (typeof value === "object" && value !== null) {
    if (isBlobLike(value)) {
      // A Blob of another realm or a polyfill (formdata-node, an older undici): its bytes, once.
      const bytes = await reading(param, where, bounds, () => value.arrayBuffer());
      const blob = new Blob([bytes], { type: typeof value.type === "string" ? value.type : "" });
      return named(blob, typeof value.name === "string" && value.name !== "" ? value.name : undefined);
    }
    const spent = usedUp(value);
    // Sent as it is, what is left would be an empty or shortened file, and the call billed.
    if (spent) throw argumentError(param, `${spent}: what it held is no longer there to send (pass a new one)`, where);
    if (isResponse(value)) {
      const blob = await reading(param, where, bounds, () => value.blob());
      return named(blob, urlName(value.url));
    }
    const parts = chunksOf(value);
    if (parts) {
      const read: BlobPart[] = [];
      await reading(
        param,
        where,
        bounds,
        async () => {
          for await (const part of parts.chunks) {
            // Leaving the loop closes the source (a ReadStream its file).
            if (bounds?.signal?.aborted) break;
            if (!(typeof part === "string" || part instanceof ArrayBuffer || ArrayBuffer.isView(part))) {
              throw invalidArgument(param, "a stream of bytes (Uint8Array chunks)", part, where, bounds?.redact);
            }
            read.push(part as BlobPart);
          }
        },
        parts.stop,
      );
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
    bounds?.redact,
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

/**
 * A `Response` from any fetch implementation, by the two members an upload reads (`url` and
 * `blob()`), as openai's `toFile()` tells one: not `instanceof`, which fails across realms and
 * polyfills, and not `headers` either, which node-fetch's and a test's doubles may lack.
 */
function isResponse(value: object): value is ResponseLike {
  return typeof (value as ResponseLike).blob === "function" && typeof (value as ResponseLike).url === "string";
}

/**
 * Runs a read of the caller's source; its failure (a missing file, a used body) becomes a
 * `ModelGateError` naming `param`, with the client's key cut out of its message and `cause` (a
 * source's error may quote a URL that holds it). An abort of the signal ends it at once with the
 * abort's error, the timeout with `APIConnectionTimeoutError`; either way `stop` stops the
 * source, whose pending read would otherwise keep it (and a file) open.
 */
async function reading<T>(param: string, where: string | undefined, bounds: ReadLimits | undefined, read: () => Promise<T>, stop?: () => void): Promise<T> {
  const signal = bounds?.signal;
  const timeout = bounds?.timeout ?? Infinity;
  let wait: Limits | undefined;
  try {
    // The abort wait of every step of a call: it throws at once for a signal already aborted.
    wait = limits(signal, timeout, () => new APIConnectionTimeoutError(`Reading \`${param}\` took longer than the call's timeout (${timeout} ms).`));
    return await unlessAborted(read(), wait.controller.signal);
  } catch (error) {
    stop?.();
    if (signal?.aborted) throw abortError(signal);
    throw unreadable(error, param, where, bounds?.redact ?? redactNothing);
  } finally {
    wait?.release();
  }
}

/**
 * What a source's failure is reported as: a `ModelGateError` naming `param` ("Could not read
 * \`file\`: …", or what `problem` says), with the key cut out of its message and `cause` (a
 * source's error may quote a URL that holds it). The SDK's own errors (an abort, a timeout, a
 * mistake already named) are kept as they are.
 */
export function unreadable(error: unknown, param: string, where: string | undefined, redact: Redact, problem = `Could not read \`${param}\``): ModelGateError {
  // Only the kept (or redacted) copy is asked anything: a getter or a Proxy trap of what the
  // source threw may throw, its own error quoting the key.
  const cause = keptOrRedacted(error, redact, isModelGateError);
  if (cause instanceof ModelGateError) return cause;
  const message = redact(cause instanceof Error ? cause.message : String(cause));
  const failure = new ModelGateError(`${where ? `${where}: ` : ""}${problem}: ${message}`, { cause: redactThrown(cause, redact) });
  (failure as { param: string }).param = param;
  return failure;
}

/** What a Node stream, a `ReadableStream` or a `Response` shows of having been read. */
interface Spendable {
  /** A `Response`'s. */
  bodyUsed?: unknown;
  /** A `ReadableStream`'s: a reader holds it. */
  locked?: unknown;
  /** A Node stream's (`stream.Readable`): it emitted `end`. */
  readableEnded?: unknown;
  /** A Node stream's: it was destroyed (closed, its file too). */
  destroyed?: unknown;
  /** A Node stream's: something read from it already (`read()`, a `data` listener, a loop). */
  readableDidRead?: unknown;
  /** A Node stream's: the error that destroyed it. */
  errored?: unknown;
}

/**
 * Why a source visibly cannot give all its bytes any more (read to its end, destroyed, read
 * from, locked or disturbed), or `undefined`. Only what it shows is asked: a stream read by
 * someone else leaves no other trace. A Node stream that failed (a missing file) throws its
 * error, as a failed read would.
 */
function usedUp(value: object): string | undefined {
  const source = value as Spendable;
  if (source.bodyUsed === true) return "is a Response whose body has already been read";
  if (typeof (value as Partial<ReadableStream>).getReader === "function") {
    if (source.locked === true) return "is a ReadableStream that is locked (a reader already holds it)";
    // The Fetch standard refuses a disturbed stream (read from, or cancelled) as a body: the
    // one way a web stream shows it. The Response is dropped unread, so the stream stays whole.
    if (typeof ReadableStream === "function" && value instanceof ReadableStream) {
      try {
        new Response(value);
      } catch {
        return "is a ReadableStream that has already been read from or cancelled";
      }
    }
    return undefined;
  }
  if (source.errored != null) throw source.errored;
  if (source.readableEnded === true) return "is a stream that has already ended";
  if (source.destroyed === true) return "is a stream that has been destroyed";
  if (source.readableDidRead === true) return "is a stream that has already been read from";
  return undefined;
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
 * The chunks of a stream, and how to stop it while a read is pending: a `ReadableStream`
 * through its own reader (so that `cancel()` ends even a read that never answers), any other
 * async iterable as it is, stopped by its `destroy()` if it has one (a Node `fs.ReadStream`,
 * which closes its file); `undefined` for anything else.
 */
function chunksOf(value: object): { chunks: AsyncIterable<unknown>; stop: () => void } | undefined {
  const stream = value as Partial<ReadableStream<unknown>>;
  if (typeof stream.getReader === "function") {
    const reader = stream.getReader();
    return {
      chunks: {
        async *[Symbol.asyncIterator]() {
          try {
            for (let result = await reader.read(); !result.done; result = await reader.read()) yield result.value;
          } finally {
            // Stops the stream on an early exit too (a bad chunk), as `for await` over it would.
            reader.cancel().catch(() => {});
          }
        },
      },
      stop: () => void reader.cancel().catch(() => {}),
    };
  }
  if (!(Symbol.asyncIterator in value)) return undefined;
  const { destroy } = value as { destroy?: unknown };
  return { chunks: value as AsyncIterable<unknown>, stop: () => void (typeof destroy === "function" && destroy.call(value)) };
}

/** The name a `Blob` carries, if it is a `File`. */
function nameOf(blob: Blob): string | undefined {
  return blob instanceof File && blob.name !== "" ? blob.name : undefined;
}
