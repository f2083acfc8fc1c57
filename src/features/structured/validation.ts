import type { SchemaIssue, Validation } from "../../schemas/schema-source.ts";
import type { StandardSchemaIssue } from "../../schemas/standard-schema.ts";

// Reads what a schema's `~standard.validate()` returned, for the code that checks replies
// (`parse()`, the stream() helper, `runTools()`).

/**
 * What a schema's `~standard.validate()` returned, as `{ value }` or `{ issues }`. An empty
 * `issues` list is a failure (Standard Schema: `issues` present means the value failed) and is
 * said to be one without issues.
 * @throws SchemaResultError when it is not a Standard Schema result: whether the value passed cannot be told.
 */
export function readValidation(result: unknown): Validation {
  if (typeof result !== "object" || result === null) throw new SchemaResultError(`returned ${String(result)}`);
  const { issues } = result as { issues?: unknown };
  if (issues == null) {
    // `{}` says neither: taking it for a pass would give `parsed: undefined` for a valid reply.
    if (!("value" in result)) throw new SchemaResultError("returned neither `value` nor `issues`");
    return { value: (result as { value: unknown }).value };
  }
  // Iterating anything else would list a string's letters as issues (and `false` or `0` is no pass).
  if (!Array.isArray(issues)) throw new SchemaResultError(`returned \`issues\` that is not a list (${typeof issues === "object" ? "an object" : `a ${typeof issues}`})`);
  if (issues.length === 0) return { issues: [{ message: "the schema's `~standard.validate()` reported a failure without any issue (an empty `issues` list)" }] };
  return schemaIssues(issues);
}

/** The most issues of one check that are kept, and the most segments of one issue's path. */
const MAX_ISSUES = 100;
const MAX_PATH = 64;

/**
 * The first issues of a list (returned or thrown by a schema), read: the first ones say why,
 * and a list's `length`, or a path's, is the schema's to claim (2 ** 32 − 1, mostly holes).
 */
export function schemaIssues(issues: unknown[]): { issues: SchemaIssue[]; omitted?: number } {
  const kept = Array.from(issues.slice(0, MAX_ISSUES) as StandardSchemaIssue[], toSchemaIssue);
  return issues.length > MAX_ISSUES ? { issues: kept, omitted: issues.length - MAX_ISSUES } : { issues: kept };
}

/** A schema's `~standard.validate()` returned something that is not a Standard Schema result (`{ value }` or `{ issues: [...] }`). */
export class SchemaResultError extends TypeError {
  override name = "SchemaResultError";

  constructor(returned: string) {
    super(`the schema's \`~standard.validate()\` ${returned}: not a Standard Schema result ({ value } or { issues: [...] })`);
  }
}

/** A Standard Schema issue as `{ message, path? }`, its path reduced to names and indexes. */
function toSchemaIssue(issue: StandardSchemaIssue): SchemaIssue {
  const message = typeof issue?.message === "string" ? issue.message : String(issue?.message ?? issue);
  if (!Array.isArray(issue?.path) || issue.path.length === 0) return { message };
  // A plain array: some libraries (ArkType) give an Array subclass with extra properties.
  const path = Array.from(issue.path.slice(0, MAX_PATH), (segment) => {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    return typeof key === "number" ? key : String(key);
  });
  return { message, path };
}

/** An issue as a line of a message: `path.to.field: message`, or the message alone. */
export function describeIssue(issue: SchemaIssue): string {
  return issue.path?.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}
