/**
 * Takes secrets out of text that came from elsewhere before it becomes part of an error: some
 * providers echo the key they rejected ("Incorrect API key provided: sk-..."), in an HTTP
 * answer or inside a stream, and errors get logged and reported.
 */
export type Redact = (text: string) => string;

const REDACTED = "[redacted]";
/** Shorter strings are too likely to occur by chance to be cut out of every message. */
const MIN_SECRET_LENGTH = 4;
/** Keys a key function gave that stay redacted: the most recent ones. */
const MAX_REMEMBERED = 64;

/** Leaves text as it is: for errors built where no secret is known. */
export const redactNothing: Redact = (text) => text;

/**
 * A redactor that knows the secrets it was given and those `remember()`ed later (a key
 * function may return a new key on any attempt; the last 64 keys it gave stay secret).
 */
export function createRedactor(...secrets: string[]): { redact: Redact; remember(secret: string): void } {
  const known = new Set<string>();
  const remember = (secret: string) => {
    if (secret.length < MIN_SECRET_LENGTH) return;
    // Most recent last; a function minting a key per call must not grow this without bound,
    // and a server only echoes a key that was recently sent.
    known.delete(secret);
    known.add(secret);
    if (known.size > MAX_REMEMBERED) known.delete(known.values().next().value as string);
  };
  secrets.forEach(remember);
  const redact: Redact = (text) => {
    for (const secret of known) if (text.includes(secret)) text = text.replaceAll(secret, REDACTED);
    return text;
  };
  return { redact, remember };
}

/**
 * A parsed body (or any JSON-like value) with every secret cut out of its strings, keys
 * included. Walked rather than serialised: in JSON text a secret holding `"` or `\\` is
 * escaped, so searching the text would miss it.
 */
export function redactValue(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) copy[redact(name)] = redactValue(item, redact);
    return copy;
  }
  return value;
}
