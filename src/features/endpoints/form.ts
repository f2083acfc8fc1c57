import { invalidArgument } from "../../errors/invalid-argument.ts";
import type { Redact } from "../../internal/redact.ts";
import { callBounds } from "../../pipeline/call-options.ts";
import type { Requester } from "../../resources/requester.ts";
import type { CallOptions } from "./checks.ts";
import { readUpload, unreadable } from "./uploads.ts";

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
  const bounds = { ...callBounds(options, client.timeout), redact: client.redact };
  const form = new FormData();
  for (const [name, field] of Object.entries(files)) {
    await naming(name, client.redact, async () => {
      const value = params[name];
      if (value == null && !field.required) return;
      if (Array.isArray(value) && field.most > 1) {
        if (value.length === 0 || value.length > field.most) throw invalidArgument(name, `one file or a list of 1 to ${field.most}`, value);
        for (const [index, item] of value.entries()) appendFile(form, `${name}[]`, await readUpload(item, `${name}[${index}]`, undefined, bounds), field.kind);
      } else {
        appendFile(form, name, await readUpload(value, name, undefined, bounds), field.kind);
      }
    });
  }
  for (const [name, value] of Object.entries(params)) {
    if (Object.hasOwn(files, name) || value === undefined || value === null) continue;
    await naming(name, client.redact, () => {
      if (Array.isArray(value)) for (const [index, item] of value.entries()) form.append(`${name}[]`, fieldText(`${name}[${index}]`, item, client.redact));
      else form.append(name, fieldText(name, value, client.redact));
    });
  }
  return form;
}

/**
 * Runs the reading of field `name`: what a getter or a Proxy of it throws (a list's items read
 * through a trap) becomes a `ModelGateError` naming it, the SDK's own errors kept as they are.
 */
async function naming(name: string, redact: Redact, read: () => unknown): Promise<void> {
  try {
    await read();
  } catch (error) {
    throw unreadable(error, name, undefined, redact);
  }
}

/**
 * A form field's text: a string as it is, a number or boolean as written, anything else as
 * JSON. What has no text (a symbol, a function, a BigInt, `undefined` in a list) or cannot be
 * written as JSON (a cycle, a getter or a Proxy that throws) is an error naming the field, not
 * the text "undefined" or a TypeError.
 */
function fieldText(name: string, value: unknown, redact: Redact): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const expected = "text, a number, a boolean, or a list or object of them";
  if (typeof value !== "object") throw invalidArgument(name, expected, value, undefined, redact);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw unreadable(error, name, undefined, redact, `\`${name}\` cannot be sent as a form field (as JSON)`);
  }
  if (text === undefined) throw invalidArgument(name, expected, value, undefined, redact);
  return text;
}

/** Appends an upload under its own name, else one made from its type: servers tell a format by the file name's extension. */
function appendFile(form: FormData, name: string, blob: Blob, kind: string): void {
  const subtype = blob.type.startsWith(`${kind}/`) ? /^[\w.+-]+/.exec(blob.type.slice(kind.length + 1))?.[0] : undefined;
  form.append(name, blob, blob instanceof File && blob.name !== "" ? blob.name : `${kind}${subtype ? `.${subtype}` : ""}`);
}
