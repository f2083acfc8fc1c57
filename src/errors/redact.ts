/**
 * Takes secrets out of text that came from elsewhere before it becomes part of an error: some
 * providers echo the key they rejected ("Incorrect API key provided: sk-..."), in an HTTP
 * answer or inside a stream, and errors get logged and reported.
 */
export type Redact = (text: string) => string;

const REDACTED = "[redacted]";
/** Shorter strings are too likely to occur by chance to be cut out of every message. */
const MIN_SECRET_LENGTH = 4;

/** Leaves text as it is: for errors built where no secret is known. */
export const redactNothing: Redact = (text) => text;

/**
 * A redactor that knows the secrets it was given and those `remember()`ed later (a key
 * function may return a new key on any attempt; every key it ever gave stays secret).
 */
export function createRedactor(...secrets: string[]): { redact: Redact; remember(secret: string): void } {
  const known = new Set<string>();
  const remember = (secret: string) => {
    if (secret.length >= MIN_SECRET_LENGTH) known.add(secret);
  };
  secrets.forEach(remember);
  const redact: Redact = (text) => {
    for (const secret of known) if (text.includes(secret)) text = text.replaceAll(secret, REDACTED);
    return text;
  };
  return { redact, remember };
}

/** A parsed body (or any JSON-like value) with every secret cut out of its strings. */
export function redactValue(value: unknown, redact: Redact): unknown {
  if (value === undefined || value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "string") return redact(value);
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(value);
  } catch {
    return value;
  }
  if (serialised === undefined) return value;
  const redacted = redact(serialised);
  return redacted === serialised ? value : JSON.parse(redacted);
}
