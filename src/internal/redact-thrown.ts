import { redactValue, type Redact } from "./redact.ts";

/** Built-in error classes: a copy made with their constructor is what the original was, minus the key. */
const NATIVE_ERRORS = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];
/** How long a `cause` chain is followed; a chain that loops ends here. */
const MAX_CAUSES = 16;

/**
 * What user code threw (a schema, a middleware), as the error it causes keeps it in `cause`,
 * with the API key cut out: schema code quotes the value it rejects (`new Error("bad: " +
 * JSON.stringify(value))`), the model may have echoed the key, and a middleware holds the
 * `Request` with its `Authorization` header. An error of a built-in class is copied as that class;
 * anything else that cannot be copied as its class (a `DOMException`, an object with private
 * fields, a class instance) becomes an `Error` with its `name` and redacted `message`. Both keep
 * their stack, their own enumerable fields and their `cause`, redacted; plain data is copied as
 * `redactValue` copies it.
 */
export function redactThrown(value: unknown, redact: Redact, causes = 0): unknown {
  const prototype: unknown = typeof value === "object" && value !== null ? Object.getPrototypeOf(value) : null;
  if (prototype === null || prototype === Object.prototype || Array.isArray(value)) return redactValue(value, redact);
  const thrown = value as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown; constructor?: { name?: unknown } };
  try {
    const Class = NATIVE_ERRORS.find((Native) => Native.prototype === prototype) ?? Error;
    const copy = new Class(redact(typeof thrown.message === "string" ? thrown.message : ""));
    // Descriptors, not assignment: a field named "__proto__" stays a field.
    Object.defineProperties(copy, Object.getOwnPropertyDescriptors(redactValue(value, redact)));
    const hidden = (name: string, item: unknown) => Object.defineProperty(copy, name, { value: item, writable: true, configurable: true });
    const name = typeof thrown.name === "string" ? thrown.name : thrown.constructor?.name;
    if (typeof name === "string" && name !== copy.name) hidden("name", redact(name));
    if (typeof thrown.stack === "string") hidden("stack", redact(thrown.stack));
    if ("cause" in thrown) hidden("cause", causes < MAX_CAUSES ? redactThrown(thrown.cause, redact, causes + 1) : undefined);
    return copy;
  } catch {
    // A getter or a proxy that throws: nothing of it can be shown safely.
    return new Error("(a thrown value that could not be read)");
  }
}
