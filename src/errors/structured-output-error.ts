import type { ChatCompletion } from "../types/index.ts";
import type { SchemaIssue } from "../schemas/schema-source.ts";
import { ModelGateError } from "./modelgate-error.ts";

/**
 * A reply `parse()` could not turn into the requested value: its JSON is malformed, the schema
 * rejects it, or the token limit cut it (`finish_reason: "length"`). `issues` says what is wrong
 * (the schema's own issues, or one describing the JSON or length problem), `content` is the
 * raw text that was parsed and `completion` the reply it came in.
 */
export class StructuredOutputError extends ModelGateError {
  /** `"StructuredOutputError"`: the class name, as `err.name` and stack traces show it. */
  override name = "StructuredOutputError";
  /** What is wrong: `{ message, path? }` each, `path` naming properties and array indexes. */
  declare readonly issues: SchemaIssue[];
  /** The text that should have been the JSON answer (the content, or the answer tool's arguments). */
  declare readonly content: string | null;
  /** The whole reply (for a stream: assembled from the chunks that arrived). */
  declare readonly completion: ChatCompletion;

  /** A reply `parse()` could not turn into the schema's value; `details` become the fields above. */
  constructor(message: string, details: { issues: SchemaIssue[]; content: string | null; completion: ChatCompletion; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.issues = details.issues;
    this.content = details.content;
    this.completion = details.completion;
  }
}
