import { isRecord } from "../../internal/values.ts";

/** A JSON Schema object. `true` reads as `{}` (anything goes); `false` as no schema at all. */
export type Schema = Record<string, unknown>;

/** A schema with its `$ref`, `allOf` and one `anyOf`/`oneOf` branch folded in, and how many `$ref`s that took. */
export interface FlatSchema {
  schema: Schema;
  refs: number;
}

/**
 * Past this many `$ref`s on one path a schema is not followed further: a recursive schema
 * whose recursion cannot end (a required `next` that is always another node) has no finite
 * value, so the generator has to stop somewhere.
 */
const MAX_REFS = 16;

/** How deep `mentionsRef` looks into a branch before calling it recursive. */
const REF_SEARCH_DEPTH = 6;

/**
 * Folds the keywords that combine schemas into one plain schema: `$ref` (to `#`, `#/$defs/...`,
 * `#/definitions/...` or any JSON pointer into `root`; anything else is out of reach and
 * accepts any value), `allOf` (merged, see `mergeSchemas`), and `anyOf` / `oneOf` (one branch,
 * chosen by `random`, merged with the keywords beside it). With `minimal`, the branch chosen
 * is the one most likely to end a recursion: a `null` one, else one without a `$ref`.
 *
 * Returns `undefined` for a schema no value satisfies (`false`) and for one that is still
 * recursing after `MAX_REFS` `$ref`s: the caller then gives up on that value.
 */
export function flattenSchema(schema: unknown, root: unknown, refs: number, random: () => number, minimal: boolean): FlatSchema | undefined {
  if (schema === false) return undefined;
  if (!isRecord(schema)) return { schema: {}, refs };
  // Object rest defines own properties, so a "__proto__" key of the caller's JSON stays a plain key.
  const { $ref, allOf, anyOf, oneOf, ...rest } = schema;
  let out: Schema = rest;
  let deepest = refs;
  if (typeof $ref === "string") {
    if (refs >= MAX_REFS) return undefined;
    const target = flattenSchema(resolvePointer(root, $ref), root, refs + 1, random, minimal);
    if (!target) return undefined;
    // The keywords beside a $ref narrow its target (allowed since 2019-09, and what Zod writes for a described ref).
    out = mergeSchemas(target.schema, out);
    deepest = Math.max(deepest, target.refs);
  }
  if (Array.isArray(allOf)) {
    for (const member of allOf) {
      const flat = flattenSchema(member, root, refs, random, minimal);
      if (!flat) return undefined;
      out = mergeSchemas(out, flat.schema);
      deepest = Math.max(deepest, flat.refs);
    }
  }
  for (const branches of [anyOf, oneOf]) {
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const flat = flattenBranch(branches, root, refs, random, minimal);
    if (!flat) return undefined;
    out = mergeSchemas(out, flat.schema);
    deepest = Math.max(deepest, flat.refs);
  }
  return { schema: out, refs: deepest };
}

/** One branch of an `anyOf`/`oneOf`, trying the others in turn when the first recurses too deep. */
function flattenBranch(branches: unknown[], root: unknown, refs: number, random: () => number, minimal: boolean): FlatSchema | undefined {
  const order = branches.map((_, index) => index);
  if (minimal) {
    // The branch that ends a recursion first: `null`, then one without a $ref, then the rest.
    const rank = (branch: unknown) => (isRecord(branch) && branch.type === "null" ? 0 : mentionsRef(branch, REF_SEARCH_DEPTH) ? 2 : 1);
    order.sort((a, b) => rank(branches[a]) - rank(branches[b]) || a - b);
  } else {
    const first = Math.floor(random() * branches.length);
    order.unshift(...order.splice(first, 1));
  }
  for (const index of order) {
    const flat = flattenSchema(branches[index], root, refs, random, minimal);
    if (flat) return flat;
  }
  return undefined;
}

/** Whether a `$ref` appears within `depth` levels of `value`. */
function mentionsRef(value: unknown, depth: number): boolean {
  if (depth < 0 || typeof value !== "object" || value === null) return false;
  if (isRecord(value) && typeof value.$ref === "string") return true;
  return Object.values(value).some((child) => mentionsRef(child, depth - 1));
}

/**
 * The value a `$ref` points to: `#` is the root, `#/a/b` a JSON pointer (RFC 6901: `~1` is
 * `/`, `~0` is `~`, and as a URI fragment it may be percent-encoded). A reference that
 * leaves the document, or names nothing in it, gives `{}`: the mock cannot fetch it, and a
 * value of any shape is the honest guess.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return {};
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let token = raw;
    try {
      token = decodeURIComponent(raw);
    } catch {
      // A lone "%" is not an escape; the token is used as written.
    }
    token = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return {};
  }
  return node;
}

const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

/**
 * Two schemas a value must both satisfy, as one: properties met in both become an `allOf`
 * of the two, `required` lists are joined, bounds take the tighter side, `type`s and `enum`s
 * intersect, `additionalProperties: false` wins. Other keywords: `b`'s replaces `a`'s, which
 * is exact when they agree and a best effort when they do not.
 */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (!Object.hasOwn(out, key)) define(out, key, value);
    else if (key === "properties" && isRecord(mine) && isRecord(value)) define(out, key, mergeProperties(mine, value));
    else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) define(out, key, [...new Set([...mine, ...value])]);
    else if (LOWER_BOUNDS.has(key) && typeof mine === "number" && typeof value === "number") define(out, key, Math.max(mine, value));
    else if (UPPER_BOUNDS.has(key) && typeof mine === "number" && typeof value === "number") define(out, key, Math.min(mine, value));
    else if (key === "type") define(out, key, intersectTypes(mine, value));
    else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) define(out, key, intersectEnums(mine, value));
    else if (key === "additionalProperties") define(out, key, mine === false || value === false ? false : isRecord(mine) && isRecord(value) ? { allOf: [mine, value] } : value);
    else define(out, key, value);
  }
  return out;
}

function mergeProperties(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) define(out, key, Object.hasOwn(out, key) ? { allOf: [out[key], value] } : value);
  return out;
}

/** Both `type`s at once; `integer` is the part of `number` both allow. Disjoint types keep `b`'s (no value fits either way). */
function intersectTypes(a: unknown, b: unknown): unknown {
  const list = (type: unknown) => (Array.isArray(type) ? type : [type]).filter((item): item is string => typeof item === "string");
  const [left, right] = [list(a), list(b)];
  if (left.length === 0) return b;
  if (right.length === 0) return a;
  const both = left.flatMap((type) => {
    if (right.includes(type)) return [type];
    if ((type === "integer" && right.includes("number")) || (type === "number" && right.includes("integer"))) return ["integer"];
    return [];
  });
  const unique = [...new Set(both)];
  return unique.length === 0 ? b : unique.length === 1 ? unique[0] : unique;
}

function intersectEnums(a: unknown[], b: unknown[]): unknown[] {
  const keys = new Set(b.map((item) => JSON.stringify(item)));
  const both = a.filter((item) => keys.has(JSON.stringify(item)));
  return both.length > 0 ? both : b;
}

/**
 * Sets `key` as an own data property. Plain assignment would treat a "__proto__" key (which
 * the caller's JSON may well hold) as the prototype setter instead.
 */
export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
