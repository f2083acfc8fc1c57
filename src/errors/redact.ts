/**
 * Takes secrets out of text that came from elsewhere before it becomes part of an error or a
 * log line: some providers echo the key they rejected ("Incorrect API key provided: sk-..."),
 * in an HTTP answer or inside a stream, and errors get logged and reported.
 */
export type Redact = (text: string) => string;

const REDACTED = "[redacted]";
/** Shorter strings are too likely to occur by chance to be cut out of every message. */
const MIN_SECRET_LENGTH = 4;
/**
 * A run of this many characters of a key shows part of it: servers quote a key's start or end
 * ("…ending in 4f9a2c81"), and an excerpt may cut through one. Any such run is cut out.
 */
const PART_LENGTH = 8;
/** Keys a key function gave that stay redacted: the most recent ones. */
const MAX_REMEMBERED = 64;

/** Leaves text as it is: for errors built where no secret is known. */
export const redactNothing: Redact = (text) => text;

/**
 * A redactor that knows the secrets it was given and those `remember()`ed later (a key
 * function may return a new key on any attempt; the last 64 keys it gave stay secret). It cuts
 * out every run of 8 characters of a secret (whole secrets included), as the secret is written
 * in text, in JSON strings and in a URL's query. Linear in the text: one pass, one lookup per
 * character that can belong to a secret.
 */
export function createRedactor(...secrets: string[]): { redact: Redact; remember(secret: string): void } {
  /** Each secret remembered, oldest first, with the ways it is written. */
  const known = new Map<string, string[]>();
  /** Every 8-character run of a spelling, with how many secrets have it (so evicting one keeps the others'). */
  const parts = new Map<string, number>();
  /** Spellings shorter than a part: cut out whole. */
  const whole = new Map<string, number>();
  /** ASCII characters some spelling holds: a run of other characters holds no part. */
  const inSecrets = new Uint8Array(128);
  let wide = false;

  const count = (spellings: string[], change: 1 | -1) => {
    for (const spelling of spellings) {
      if (spelling.length < PART_LENGTH) tally(whole, spelling, change);
      else for (let start = 0; start + PART_LENGTH <= spelling.length; start++) tally(parts, spelling.slice(start, start + PART_LENGTH), change);
      // Only ever set: a stale mark costs a lookup, never a miss.
      for (let i = 0; i < spelling.length; i++) {
        const code = spelling.charCodeAt(i);
        if (code < 128) inSecrets[code] = 1;
        else wide = true;
      }
    }
  };
  const remember = (secret: string) => {
    if (secret.length < MIN_SECRET_LENGTH) return;
    const spellings = known.get(secret);
    // Most recent last; a function minting a key per call must not grow this without bound,
    // and a server only echoes a key that was recently sent.
    known.delete(secret);
    if (spellings) return void known.set(secret, spellings);
    // As sent, inside a JSON string, and in a query string (`defaultQuery: { key }`).
    const fresh = [...new Set([secret, JSON.stringify(secret).slice(1, -1), new URLSearchParams({ k: secret }).toString().slice(2)])];
    known.set(secret, fresh);
    count(fresh, 1);
    if (known.size > MAX_REMEMBERED) {
      const [oldest, its] = known.entries().next().value as [string, string[]];
      known.delete(oldest);
      count(its, -1);
    }
  };
  secrets.forEach(remember);

  const redact: Redact = (text) => {
    if (parts.size > 0 && text.length >= PART_LENGTH) text = cutParts(text, parts, inSecrets, wide);
    for (const spelling of whole.keys()) if (text.includes(spelling)) text = text.replaceAll(spelling, REDACTED);
    return text;
  };
  return { redact, remember };
}

function tally(counts: Map<string, number>, key: string, change: 1 | -1): void {
  const next = (counts.get(key) ?? 0) + change;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** `text` with each stretch covered by known parts (overlapping or touching) replaced by one `[redacted]`. */
function cutParts(text: string, parts: Map<string, number>, inSecrets: Uint8Array, wide: boolean): string {
  let shown = "";
  /** Where the text not yet copied to `shown` starts. */
  let copied = 0;
  /** The stretch being cut: `[start, end)`; `end` is -1 before the first. */
  let start = 0;
  let end = -1;
  /** Characters in a row that may belong to a secret. */
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 ? inSecrets[code] === 0 : !wide) {
      run = 0;
      continue;
    }
    if (++run < PART_LENGTH) continue;
    const from = i + 1 - PART_LENGTH;
    if (!parts.has(text.slice(from, i + 1))) continue;
    if (from > end) {
      if (end !== -1) {
        shown += text.slice(copied, start) + REDACTED;
        copied = end;
      }
      start = from;
    }
    end = i + 1;
  }
  return end === -1 ? text : shown + text.slice(copied, start) + REDACTED + text.slice(end);
}

/** How deep `redactValue` copies; deeper values (no gateway sends them) become a note, not a stack overflow. */
const MAX_DEPTH = 100;

/**
 * A value with every secret cut out of its strings, keys included: a parsed body, a reply, or
 * whatever a schema threw. Walked rather than serialised: in JSON text a secret holding `"` or
 * `\\` is escaped, so searching the text would miss it. Plain objects and arrays are copied (a
 * `__proto__` key stays an own property, as `JSON.parse` made it); an error of a built-in class
 * is copied as that class; anything else that cannot be copied as its class (a `DOMException`,
 * an object with private fields, any class instance) becomes an `Error` with its `name`, its
 * message and its own enumerable fields, redacted. Cycles are kept as cycles.
 */
export function redactValue(value: unknown, redact: Redact): unknown {
  return copyOf(value, redact, new Map(), 0);
}

function copyOf(value: unknown, redact: Redact, seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (depth > MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels]`;
  const inner = (item: unknown) => copyOf(item, redact, seen, depth + 1);
  try {
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(inner(item));
      return copy;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) {
      const copy = Object.create(prototype) as Record<string, unknown>;
      seen.set(value, copy);
      copyFields(value, copy, redact, inner);
      return copy;
    }
    if (value instanceof Date) return value;
    return errorCopy(value, redact, seen, inner);
  } catch {
    // A getter or a proxy that throws: nothing of it can be shown safely.
    return "[unreadable value]";
  }
}

/** The own enumerable fields of `from`, redacted, onto `to` (except those `skip` names). */
function copyFields(from: object, to: object, redact: Redact, inner: (item: unknown) => unknown, skip?: Set<string>): void {
  for (const name of Object.keys(from)) {
    if (skip?.has(name)) continue;
    const item = inner((from as Record<string, unknown>)[name]);
    // Assigning "__proto__" would call the inherited setter and replace the prototype instead.
    Object.defineProperty(to, redact(name), { value: item, writable: true, enumerable: true, configurable: true });
  }
}

const NATIVE_ERRORS: ErrorConstructor[] = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];
/** Set apart from the copied fields: an error carries them as its own kind of property. */
const ERROR_FIELDS = new Set(["name", "message", "stack", "cause"]);

function errorCopy(value: object, redact: Redact, seen: Map<object, unknown>, inner: (item: unknown) => unknown): Error {
  const source = value as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown; constructor?: { name?: unknown } };
  const prototype: unknown = Object.getPrototypeOf(value);
  const Native = NATIVE_ERRORS.find((Class) => Class.prototype === prototype);
  const message = typeof source.message === "string" ? source.message : "";
  const copy = new (Native ?? Error)(redact(message));
  seen.set(value, copy);
  const hidden = (name: string, item: unknown) => Object.defineProperty(copy, name, { value: item, writable: true, enumerable: false, configurable: true });
  const name = typeof source.name === "string" ? source.name : source.constructor?.name;
  if (typeof name === "string" && name !== copy.name) hidden("name", redact(name));
  if (typeof source.stack === "string") hidden("stack", redact(source.stack));
  if ("cause" in value) hidden("cause", inner(source.cause));
  copyFields(value, copy, redact, inner, ERROR_FIELDS);
  return copy;
}
