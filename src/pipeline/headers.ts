import { argumentError, describeKind } from "../errors/invalid-argument.ts";
import type { Redact } from "../internal/redact.ts";
import type { HeadersInput } from "./options.ts";

/**
 * Merges header layers, later layers winning. A layer is any `HeadersInit` (a `Headers`, also
 * one from another realm or polyfill, `[name, value]` pairs) or a record, where a `null` value
 * removes the header. Names are case-insensitive (`Headers` lower-cases them), so
 * `{ authorization: null }` removes the SDK's `Authorization`.
 */
export function mergeHeaders(redact: Redact, ...layers: (HeadersInput | undefined)[]): Headers {
  const headers = new Headers();
  for (const layer of layers) {
    if (!layer) continue;
    const entries = isIterable(layer) ? layer : Object.entries(layer);
    for (const entry of entries) {
      // A list of pairs holds pairs only: `[1]`, `[["x-a"]]` or `[{ name, value }]` is a mistake, not a header to drop.
      if (!Array.isArray(entry) || entry.length !== 2) {
        const what = Array.isArray(entry) ? `a list of ${entry.length}` : describeKind(entry);
        throw argumentError("headers", `must be a Headers, [name, value] pairs or a record; got an entry that is ${what}, not a [name, value] pair`);
      }
      const [name, value] = entry as [string, string | null | undefined];
      if (value === null) headers.delete(name);
      else if (value !== undefined) setHeader(headers, name, value, redact);
    }
  }
  return headers;
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/**
 * `Headers.set` throws a bare TypeError on CR, LF, non-Latin-1 characters or a name that is not
 * a token (a space, a colon: a whole `Name: value` line pasted as a name); a header carrying
 * a pasted key with a trailing newline deserves a clearer word, and the value (perhaps the
 * key itself) must not be echoed. The name is quoted with the key cut out: a line pasted whole
 * as a name (`"Authorization: Bearer sk-…"`) holds it.
 */
function setHeader(headers: Headers, name: string, value: string, redact: Redact): void {
  // Worded only for an error: every request sets its headers here.
  const param = () => `headers["${redact(String(name))}"]`;
  // Of its kind only: a header's value may be a credential (an all-digit token read as a number).
  if (typeof value !== "string") throw argumentError(param(), `must be a string (or null to remove it); got ${describeKind(value)}`);
  if (/[\r\n\0]/.test(value)) throw argumentError(param(), "contains a line break or NUL character");
  try {
    headers.set(name, value);
  } catch {
    throw argumentError(param(), "has an invalid name or value");
  }
}
