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
 * ("…ending in 4f9a2c81"), and an excerpt may cut through one. Every such run is cut out.
 */
const PART = 8;
/**
 * Secrets remembered besides those kept for good (a key function's keys, the credentials of
 * calls' own headers): the most recent ones. Enough that a call's own are not forgotten while
 * it still runs, though hundreds of tenants' calls run beside it (each a new secret).
 */
const MAX_REMEMBERED = 1024;

/**
 * The request headers that carry a credential (SECURITY.md), the one list of them: what the
 * client's own headers send in them is cut out of errors as the key is (after an
 * `Authorization` scheme), and debug lines show them as `[redacted]`. A `Cookie` is a
 * credential like the others: a session cookie signs a proxy's requests as a key would.
 */
export const CREDENTIAL_HEADERS: readonly string[] = ["authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"];

/** Leaves text as it is: for errors built where no secret is known. */
export const redactNothing: Redact = (text) => text;

/**
 * A redactor that knows the secrets it was given and those `remember()`ed later (a key
 * function may return a new key on any attempt; the last 1,024 secrets remembered stay
 * secret). It cuts out each secret whole and every run of 8 of its characters, as the secret
 * is written in text, inside a JSON string and in a query string (`defaultQuery: { key }`).
 * Linear in the text: one lookup per position. Remembering or forgetting a secret costs its own
 * length, whatever the number of secrets known.
 */
export function createRedactor(...secrets: string[]): { redact: Redact; remember(secret: string, forGood?: boolean): void } {
  const known = new Set<string>();
  /** Never forgotten: the key the client was made with, the credentials of its own headers. */
  const kept = new Set(secrets);
  /** Each run of `PART` characters of a spelling of a known secret, with how many spellings hold it. */
  const parts = new Map<string, number>();
  /** Spellings shorter than a part, cut out whole, with how many secrets spell them so. */
  const short = new Map<string, number>();
  /**
   * As a secret is written in text, inside a JSON string (with its non-ASCII characters as they
   * are, or as `\u` escapes, as Python's `json.dumps` writes them), and in a query string (a space
   * as `+`, or as `%20`). The same spelling twice counts its pieces twice, and is forgotten so.
   */
  const spellingsOf = (secret: string) => {
    const json = JSON.stringify(secret).slice(1, -1);
    const asciiJSON = json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return [secret, json, asciiJSON, new URLSearchParams({ k: secret }).toString().slice(2), encodeURIComponent(secret)];
  };
  const count = (map: Map<string, number>, key: string, by: 1 | -1) => {
    const next = (map.get(key) ?? 0) + by;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  const track = (secret: string, by: 1 | -1) => {
    for (const spelling of spellingsOf(secret)) {
      if (spelling.length < PART) count(short, spelling, by);
      for (let end = PART; end <= spelling.length; end++) count(parts, spelling.slice(end - PART, end), by);
    }
  };
  const remember = (secret: string, forGood?: boolean) => {
    // A short string is no secret; an empty one is what a header the caller did not set gives.
    if (secret.length < MIN_SECRET_LENGTH) return;
    if (forGood) kept.add(secret);
    // Most recent last; a function minting a key per call must not grow this without bound,
    // and a server only echoes a key that was recently sent. The oldest not kept for good goes.
    const isNew = !known.delete(secret);
    known.add(secret);
    if (!isNew) return;
    track(secret, 1);
    if (known.size <= MAX_REMEMBERED + kept.size) return;
    for (const old of known) {
      if (kept.has(old)) continue;
      known.delete(old);
      track(old, -1);
      break;
    }
  };
  for (const secret of secrets) remember(secret);
  const redact: Redact = (text) => {
    // Where secrets stand in the text as it came, [start, end): a secret shorter than a part
    // wherever it is whole, and every run of a part's length of a longer one. Marked on the
    // original text and merged, so a short secret inside a long one cannot split what is cut.
    const covered: [number, number][] = [];
    for (let i = PART; i <= text.length && parts.size > 0; i++) if (parts.has(text.slice(i - PART, i))) covered.push([i - PART, i]);
    const partsFound = covered.length;
    for (const spelling of short.keys()) for (let at = text.indexOf(spelling); at !== -1; at = text.indexOf(spelling, at + 1)) covered.push([at, at + spelling.length]);
    if (covered.length === 0) return text;
    // The parts were found in order; only short secrets' places need sorting in.
    if (covered.length > partsFound) covered.sort((a, b) => a[0] - b[0]);
    // Every stretch that secrets cover (overlapping or touching) becomes one `[redacted]`.
    let shown = "";
    let copied = 0;
    let [start, end] = covered[0]!;
    for (const [from, to] of covered) {
      if (from > end) {
        shown += text.slice(copied, start) + REDACTED;
        copied = end;
        start = from;
      }
      end = Math.max(end, to);
    }
    return shown + text.slice(copied, start) + REDACTED + text.slice(end);
  };
  return { redact, remember };
}

/** How deep `redactValue` copies; deeper values (no gateway sends them) become a note instead of a stack overflow. */
const MAX_DEPTH = 100;

/**
 * A JSON-like value (a parsed body, a reply) with every secret cut out of its strings, keys
 * included. Walked rather than serialised: in JSON text a secret holding `"` or `\\` is
 * escaped, so searching the text would miss it. Objects are copied as plain data, their own
 * enumerable fields only (so nothing else they hold, such as an error's message, can leak); a
 * `__proto__` key stays an own property, as `JSON.parse` made it.
 */
export function redactValue(value: unknown, redact: Redact, path: object[] = []): unknown {
  if (typeof value !== "object" || value === null) return typeof value === "string" ? redact(value) : value;
  // A thrown value may hold itself (an HTTP client's error and its request): a cycle is named, not walked.
  if (path.includes(value)) return "[circular]";
  if (path.length > MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels]`;
  const copy: object = Array.isArray(value) ? [] : Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype);
  for (const name of Object.keys(value)) {
    // Defined, not assigned: assigning "__proto__" would replace the prototype instead.
    const item = redactValue((value as Record<string, unknown>)[name], redact, [...path, value]);
    Object.defineProperty(copy, redact(name), { value: item, writable: true, enumerable: true, configurable: true });
  }
  return copy;
}
