import { describeValue } from "../errors/invalid-argument.ts";
import { ModelGateError } from "../errors/modelgate-error.ts";
import type { Redact } from "../internal/redact.ts";

/**
 * What a `fetch` resolved to, checked as fetch's answer before anything reads it: the client's
 * `fetch` option (`source`: "The `fetch` option") or the middleware chain ("A middleware"). A
 * value that is no Response (a mock that returns `{ status: 200 }`, a middleware that forgot
 * to return), or one whose body was already read, is named here as the caller's mistake, not
 * retried (and paid for) as a connection error whose message is a TypeError of a property
 * read ("response.arrayBuffer is not a function").
 * @throws ModelGateError naming `source` and what it resolved to
 */
export function fetchedResponse(value: unknown, source: string, redact: Redact): Response {
  const answer = value as Partial<Response> | undefined;
  if (typeof answer?.status !== "number" || typeof answer.arrayBuffer !== "function" || typeof answer.headers?.get !== "function") {
    throw new ModelGateError(`${source} resolved to ${redact(describeValue(value))} instead of a Response.`);
  }
  // A body with a reader on it (`getReader()`) is as unreadable as a used one.
  if (answer.bodyUsed || answer.body?.locked) {
    throw new ModelGateError(
      `${source} returned a Response whose body it had already read (or taken a reader of), so the answer cannot be read again. Read a copy instead: \`const copy = response.clone(); await copy.text(); return response;\`.`,
    );
  }
  return value as Response;
}
