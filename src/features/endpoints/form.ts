import { invalidArgument } from "../../errors/invalid-argument.ts";
import { isRecord } from "../../internal/values.ts";
import type { Requester } from "../../resources/requester.ts";
import type { CallOptions } from "./checks.ts";
import { readUpload } from "./uploads.ts";

/** How one file field of a multipart request is read and named. */
export interface FileField {
  /** The media kind its bytes are (`audio`, `image`): a file without a name is called `<kind>.<subtype>` from its type. */
  kind: string;
  /** Whether the request needs it. */
  required: boolean;
  /** At most this many files as a list (sent as repeated `name[]` fields); `1` allows no list. */
  most: number;
}

/**
 * A multipart form of `params` for an upload endpoint: each of `files` is read into a `Blob`
 * first (a stream or `Response` to its end, once, so that retries and middleware send the same
 * bytes again; a `Blob` or `File` as it is, never copied) and appended under its name. Every
 * other field is text: a list as repeated `name[]` fields, as form-reading servers expect, an
 * object as JSON. A bad file value is an error naming its field, before anything is sent. The
 * call's `signal` stops the reading and its `timeout` (else the client's) bounds it, the whole
 * of it, not per attempt; a source's failure has the client's key cut out (the pipeline checks
 * the options themselves later).
 */
export async function multipartForm(client: Requester, params: Record<string, unknown>, files: Record<string, FileField>, options: CallOptions): Promise<FormData> {
  const given: unknown = isRecord(options) ? options.signal : undefined;
  const signal = typeof (given as AbortSignal | undefined)?.addEventListener === "function" ? (given as AbortSignal) : undefined;
  const timeout = isRecord(options) && typeof options.timeout === "number" && options.timeout >= 0 ? options.timeout : client.timeout;
  const limits = { signal, timeout, redact: client.redact };
  const form = new FormData();
  for (const [name, field] of Object.entries(files)) {
    const value = params[name];
    if (value == null && !field.required) continue;
    if (Array.isArray(value) && field.most > 1) {
      if (value.length === 0 || value.length > field.most) throw invalidArgument(name, `one file or a list of 1 to ${field.most}`, value);
      for (const [index, item] of value.entries()) appendFile(form, `${name}[]`, await readUpload(item, `${name}[${index}]`, undefined, limits), field.kind);
    } else {
      appendFile(form, name, await readUpload(value, name, undefined, limits), field.kind);
    }
  }
  for (const [name, value] of Object.entries(params)) {
    if (Object.hasOwn(files, name) || value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, String(item));
    else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

/** Appends an upload under its own name, else one made from its type: servers tell a format by the file name's extension. */
function appendFile(form: FormData, name: string, blob: Blob, kind: string): void {
  const subtype = blob.type.startsWith(`${kind}/`) ? /^[\w.+-]+/.exec(blob.type.slice(kind.length + 1))?.[0] : undefined;
  form.append(name, blob, blob instanceof File && blob.name !== "" ? blob.name : `${kind}${subtype ? `.${subtype}` : ""}`);
}
