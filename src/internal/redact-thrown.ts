import type { Redact } from "./redact.ts";

/** Built-in error classes: a copy made with their constructor is what the original was, minus the key. */
const NATIVE_ERRORS: (new (message?: string) => Error)[] = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];
/** How deep a thrown value is copied (a `cause` chain, nested fields); deeper is a note, not a stack overflow. */
const MAX_DEPTH = 100;
/**
 * The most values one copy visits (the value itself, each field, item and header): an HTTP
 * client's error may hold a response of 500,000 items, and copying it all would block the event
 * loop for seconds while the call fails. What is left over is named in a note.
 */
const MAX_VALUES = 10_000;
/** Where a copy cut short says so: an object's field, or the last item of a list. */
const NOT_COPIED = "[not copied]";

/**
 * What user code threw (a schema, a middleware, a custom `fetch`, a key function), as the
 * error it causes keeps it, with the API key cut out: schema code quotes the value it rejects,
 * the model may have echoed the key, and a middleware or an HTTP client holds the `Request`
 * with its `Authorization` header. Always a copy (see `keptOrRedacted` for the original where
 * it is provably clean):
 * - an error of a built-in class is copied as that class, one `sameClass` accepts (the SDK's
 *   own errors) as that class too, without running its constructor; anything else that is not
 *   plain data (a `DOMException`, an object with private fields, a `Request`) becomes an
 *   `Error` with its `name` and redacted `message`. Each keeps its stack, its own fields
 *   (enumerable or not) and its `cause`, redacted;
 * - plain objects and arrays are copied field by field; a `Headers` as a `Headers` with every
 *   value redacted;
 * - inside those, anything else (a `Request`, a `Map`, a `URL`, a function) becomes a
 *   description such as `"[Map]"`: what it holds is not data the copy can vouch for;
 * - bytes (a typed array, a `Buffer`, a `DataView`, an `ArrayBuffer`) are described, their
 *   elements never read: inside a value as `"[Buffer of 1048576 bytes]"`, thrown themselves as
 *   an `Error` named `Buffer` whose message is `1048576 bytes (not copied)`;
 * - symbol-keyed fields (a `[util.inspect.custom]` that would print anything) are dropped;
 * - at most 10,000 values are visited: past that, each object or list being copied ends with a
 *   note (a `"[not copied]"` field, or a last item) saying how many of its fields or items were left.
 */
export function redactThrown(value: unknown, redact: Redact, sameClass?: (value: object) => boolean): unknown {
  return copyThrown(value, redact, sameClass).copy;
}

/**
 * `value` itself when every part of it could be read and none shows a secret (plain data,
 * errors, `Headers`, with nothing exotic: no getter, no symbol-keyed field, no `Map` or
 * `Request` or class instance inside), else its redacted copy (see `redactThrown`). The one
 * rule for what a thrown value may be kept as, wherever the SDK keeps one (a middleware's,
 * a custom `fetch`'s, a key function's).
 */
export function keptOrRedacted(value: unknown, redact: Redact, sameClass?: (value: object) => boolean): unknown {
  const { copy, clean } = copyThrown(value, redact, sameClass);
  return clean ? value : copy;
}

function copyThrown(value: unknown, redact: Redact, sameClass: (value: object) => boolean = () => false): { copy: unknown; clean: boolean } {
  let clean = true;
  const text = (item: string) => {
    const cut = redact(item);
    clean &&= cut === item;
    return cut;
  };
  let visited = 0;
  const walk = (item: unknown, path: object[]): unknown => {
    visited++;
    if (typeof item === "string") return text(item);
    if (typeof item === "function" || typeof item === "symbol") {
      clean = false;
      return `[${typeof item}]`;
    }
    if (typeof item !== "object" || item === null) return item;
    // A thrown value may hold itself (an HTTP client's error and its request): a cycle is named, not walked.
    if (path.includes(item)) return "[circular]";
    const inner = [...path, item];
    if (path.length > MAX_DEPTH) {
      clean = false;
      return `[nested deeper than ${MAX_DEPTH} levels]`;
    }
    const prototype: unknown = Object.getPrototypeOf(item);
    if (ArrayBuffer.isView(item) || isArrayBuffer(item)) {
      clean = false;
      // What the bytes are and how many, not what they hold: a megabyte read value by value
      // (each index a field) took seconds. `byteLength` is the class's own getter, no element.
      const className = (prototype as { constructor?: { name?: unknown } } | null)?.constructor?.name;
      const name = typeof className === "string" ? text(className) : "bytes";
      const { byteLength } = item as ArrayBuffer;
      if (path.length > 0) return `[${name} of ${byteLength} bytes]`;
      // Thrown itself: an `Error` named by its class, as any value that cannot be copied as it is.
      const copy = new Error(`${byteLength} bytes (not copied)`);
      hidden(copy, "name", name);
      hidden(copy, "stack", undefined);
      return copy;
    }
    if (item instanceof Headers) {
      const copy = new Headers();
      let left = 0;
      for (const [name, field] of item) {
        if (visited >= MAX_VALUES) left++;
        else {
          visited++;
          copy.append(text(name), text(field));
        }
      }
      if (left > 0) {
        clean = false;
        copy.append("x-modelgate-not-copied", `${left} more header(s)`);
      }
      return copy;
    }
    let copy: object;
    if (prototype === null || prototype === Object.prototype || Array.isArray(item)) {
      copy = Array.isArray(item) ? [] : Object.create(prototype as object | null);
    } else if (item instanceof Error || path.length === 0) {
      const Native = NATIVE_ERRORS.find((Class) => Class.prototype === prototype);
      const kept = !!Native || sameClass(item);
      clean &&= kept;
      copy = Native ? new Native() : kept ? Object.create(prototype as object) : new Error();
      const thrown = item as { name?: unknown; message?: unknown; stack?: unknown; constructor?: { name?: unknown } };
      const name = typeof thrown.name === "string" ? thrown.name : thrown.constructor?.name;
      // What the class has on its prototype (a DOMException's getters), as the copy's own.
      hidden(copy, "name", typeof name === "string" && name !== (copy as Error).name ? text(name) : undefined);
      hidden(copy, "message", typeof thrown.message === "string" ? text(thrown.message) : undefined);
      hidden(copy, "stack", typeof thrown.stack === "string" ? text(thrown.stack) : undefined);
    } else {
      clean = false;
      return `[${text(String((prototype as { constructor?: { name?: unknown } } | undefined)?.constructor?.name ?? "object"))}]`;
    }
    const list = Array.isArray(item);
    const room = Math.max(0, MAX_VALUES - visited);
    // A long list is read by index, only as far as the budget goes: `Reflect.ownKeys` would
    // name each of its indexes first (for 500,000 items, a third of a second).
    const long = list && (item as unknown[]).length > room;
    const keys = long ? Array.from({ length: room }, (_, index) => String(index)) : Reflect.ownKeys(item);
    let left = long ? (item as unknown[]).length - room : 0;
    for (const [index, key] of keys.entries()) {
      if (typeof key === "symbol") {
        clean = false;
        continue;
      }
      if (key === "length" && list) continue;
      if (visited >= MAX_VALUES) {
        left += keys.slice(index).filter((other) => typeof other === "string" && !(other === "length" && list)).length;
        break;
      }
      const field = Object.getOwnPropertyDescriptor(item, key);
      // A hole in a list read by index: left a hole.
      if (!field) continue;
      // A getter may give another value next time: its value is copied, the original not kept.
      if (!("value" in field)) clean = false;
      // Defined, not assigned: a field named "__proto__" stays a field.
      Object.defineProperty(copy, text(key), { value: walk((item as Record<string, unknown>)[key], inner), writable: true, enumerable: !!field.enumerable, configurable: true });
    }
    if (left > 0) {
      clean = false;
      notCopied(copy, left);
    }
    return copy;
  };
  try {
    return { copy: walk(value, []), clean };
  } catch {
    // A getter or a proxy that throws: nothing of it can be shown safely.
    return { copy: new Error("(a thrown value that could not be read)"), clean: false };
  }
}

/** An `ArrayBuffer` or `SharedArrayBuffer` (bytes without a view). */
function isArrayBuffer(value: object): boolean {
  return value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer);
}

/** Ends a copy cut short by `MAX_VALUES` with a note of the `left` fields or items it does not hold. */
function notCopied(copy: object, left: number): void {
  const note = `${left} more ${Array.isArray(copy) ? "item(s)" : "field(s)"} not copied: a copy of a thrown value visits at most ${MAX_VALUES} values`;
  if (Array.isArray(copy)) copy.push(`${NOT_COPIED} ${note}`);
  else Object.defineProperty(copy, NOT_COPIED, { value: note, writable: true, enumerable: true, configurable: true });
}

/** Sets (or, for `undefined`, leaves unset) a field an error keeps out of `JSON.stringify` and `Object.keys`. */
function hidden(target: object, name: string, value: unknown): void {
  if (value === undefined) delete (target as Record<string, unknown>)[name];
  else Object.defineProperty(target, name, { value, writable: true, configurable: true });
}
