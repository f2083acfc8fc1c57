import { isRecord } from "../../internal/values.ts";
import { pick } from "../random.ts";
import { sampleNumber } from "./numbers.ts";
import { define, flattenSchema, type Schema } from "./resolve.ts";
import { sampleString } from "./strings.ts";

type JSONType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
const TYPES: readonly string[] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/**
 * Past this nesting depth, or this many `$ref`s on the way, a value takes the smallest shape
 * its schema allows — required keys only, the fewest items, the branch that ends a
 * recursion — so a recursive schema (a tree, a linked list) ends in a few levels.
 */
const SOFT_DEPTH = 6;
const SOFT_REFS = 2;
/** Past this depth a value is `null`: only a schema whose recursion cannot end gets here. */
const MAX_DEPTH = 32;
/**
 * After this many values the rest take their smallest shape, and after `MAX_NODES` values or
 * `MAX_CHARACTERS` of strings they are `null`: `minItems: 100` nested three deep, or
 * `minLength: 1e12`, must not hang the mock or fill its memory.
 */
const SOFT_NODES = 2_000;
const MAX_NODES = 20_000;
const MAX_CHARACTERS = 250_000;
/** The most items of an array, whatever `minItems` asks. */
const MAX_ITEMS = 100;

interface State {
  root: unknown;
  random: () => number;
  nodes: number;
  characters: number;
}

/**
 * A JSON value that follows `schema` (JSON Schema draft-07 or 2020-12, as Zod 4, Valibot's
 * `@valibot/to-json-schema` and ArkType write it), drawn from `random`, so the same seed gives
 * the same value. Objects hold every required property and, by a coin toss each, some of the
 * optional ones (at least one when none is required); arrays hold one to three items within
 * `minItems`/`maxItems`; strings follow `format`, `pattern` and the length bounds (see
 * `sampleString`); numbers the bounds and `multipleOf` (see `sampleNumber`). `$ref`s are
 * followed into `root` (the schema itself by default), recursion ends (see `SOFT_DEPTH`),
 * and an empty schema (`{}` or `true`) gives a short string, a number or a boolean.
 *
 * The schema is the caller's untrusted JSON: anything unexpected in it is ignored rather than
 * thrown over, and the work done is bounded whatever it says.
 */
export function sampleSchema(schema: unknown, random: () => number, root: unknown = schema): unknown {
  return generate(schema, { root, random, nodes: 0, characters: 0 }, 0, 0, undefined);
}

/** `name` is the property the value fills, if any: it makes strings plausible (a city for `city`). */
function generate(schema: unknown, state: State, depth: number, refs: number, name: string | undefined): unknown {
  if (++state.nodes > MAX_NODES || state.characters > MAX_CHARACTERS || depth > MAX_DEPTH) return null;
  const minimal = depth >= SOFT_DEPTH || refs >= SOFT_REFS || state.nodes > SOFT_NODES;
  const flat = flattenSchema(schema, state.root, refs, state.random, minimal);
  if (!flat) return null;
  const { schema: plain } = flat;
  const nested = { state, depth: depth + 1, refs: flat.refs, minimal: minimal || flat.refs >= SOFT_REFS };
  if (Object.hasOwn(plain, "const")) return plain.const;
  if (Array.isArray(plain.enum) && plain.enum.length > 0) return nested.minimal ? plain.enum[0] : pick(plain.enum, state.random);
  switch (chooseType(plain, state.random, nested.minimal)) {
    case "null":
      return null;
    case "boolean":
      return nested.minimal ? false : state.random() < 0.5;
    case "integer":
      return sampleNumber(plain, state.random, true);
    case "number":
      return sampleNumber(plain, state.random, false);
    case "string": {
      const text = sampleString(plain, state.random, name);
      state.characters += text.length;
      return text;
    }
    case "array":
      return sampleArray(plain, nested);
    case "object":
      return sampleObject(plain, nested);
  }
}

interface Nested {
  state: State;
  depth: number;
  refs: number;
  minimal: boolean;
}

/** One of the types the schema allows: declared, implied by its keywords, or (for `{}`) a simple one. */
function chooseType(schema: Schema, random: () => number, minimal: boolean): JSONType {
  const declared = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is JSONType => TYPES.includes(type as string));
  // OpenAPI 3.0's way of allowing null, which Zod writes for that target.
  if (schema.nullable === true && declared.length > 0 && !declared.includes("null")) declared.push("null");
  const allowed = declared.length > 0 ? declared : impliedTypes(schema);
  if (allowed.length === 0) return minimal ? "null" : pick(["string", "integer", "boolean"] as const, random);
  if (allowed.includes("null") && (minimal || allowed.length === 1)) return "null";
  const others = allowed.filter((type) => type !== "null");
  // Null in one answer out of four: a nullable field is more often filled than not.
  if (allowed.includes("null") && random() < 0.25) return "null";
  return pick(others, random);
}

/** The type a schema without `type` describes through its keywords (`properties` → object, ...). */
function impliedTypes(schema: Schema): JSONType[] {
  const has = (...keys: string[]) => keys.some((key) => Object.hasOwn(schema, key));
  if (has("properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties")) return ["object"];
  if (has("items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains")) return ["array"];
  if (has("minLength", "maxLength", "pattern", "format")) return ["string"];
  if (has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")) return ["number"];
  return [];
}

function sampleObject(schema: Schema, nested: Nested): Record<string, unknown> {
  const { state, minimal } = nested;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
  const names = Object.keys(properties);
  const chosen = names.filter((key) => required.includes(key) || (!minimal && state.random() < 0.5));
  // An empty object tells a test little: with nothing required, at least the first property.
  if (!minimal && chosen.length === 0 && required.length === 0 && names.length > 0) chosen.push(names[0]!);
  const out: Record<string, unknown> = {};
  const add = (key: string, value: unknown) => define(out, key, value);
  for (const key of chosen) add(key, generate(properties[key], state, nested.depth, nested.refs, key));
  for (const key of required) if (!Object.hasOwn(out, key)) add(key, generate(extraSchema(schema, key), state, nested.depth, nested.refs, key));

  const minProperties = Math.min(count(schema.minProperties) ?? 0, MAX_ITEMS);
  const maxProperties = count(schema.maxProperties);
  const extra = schema.additionalProperties;
  // A record (`z.record()`, Valibot's `record()`): values under made-up keys, as a map usually holds some.
  const isRecordSchema = names.length === 0 && (isRecord(extra) || extra === true);
  let wanted = minProperties;
  if (isRecordSchema && !minimal) wanted = Math.max(wanted, 1 + Math.floor(state.random() * 2));
  if (maxProperties !== undefined) wanted = Math.min(wanted, maxProperties);
  for (let attempt = 1; Object.keys(out).length < wanted && attempt <= wanted + 8; attempt++) {
    const key = extraKey(schema, attempt, nested);
    if (!Object.hasOwn(out, key)) add(key, generate(extraSchema(schema, key), state, nested.depth, nested.refs, key));
  }
  if (maxProperties !== undefined) {
    // Too many keys: optional ones go first, the last chosen first.
    for (const key of Object.keys(out).reverse()) if (Object.keys(out).length > maxProperties && !required.includes(key)) delete out[key];
  }
  return out;
}

/** The schema for a key outside `properties`: the first matching `patternProperties`, else `additionalProperties`. */
function extraSchema(schema: Schema, key: string): unknown {
  if (isRecord(schema.properties) && Object.hasOwn(schema.properties, key)) return schema.properties[key];
  if (isRecord(schema.patternProperties)) {
    for (const [pattern, value] of Object.entries(schema.patternProperties)) {
      try {
        if (new RegExp(pattern, "u").test(key)) return value;
      } catch {
        // An invalid pattern matches nothing.
      }
    }
  }
  return schema.additionalProperties ?? {};
}

/** A key for an extra property: `key_<n>`, or one that `propertyNames` allows when it constrains keys. */
function extraKey(schema: Schema, attempt: number, nested: Nested): string {
  const names = schema.propertyNames;
  const constrains = isRecord(names) && ["enum", "const", "pattern", "format", "minLength", "maxLength", "$ref", "anyOf"].some((key) => Object.hasOwn(names, key));
  if (constrains) {
    const key = generate(names, nested.state, nested.depth, nested.refs, "key");
    if (typeof key === "string" && key !== "") return attempt === 1 ? key : `${key}${attempt}`;
  }
  return `key_${attempt}`;
}

function sampleArray(schema: Schema, nested: Nested): unknown[] {
  const { state, minimal } = nested;
  // 2020-12 writes a tuple as `prefixItems` (then `items` is the rest); draft-07 as an `items` array (then `additionalItems`).
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.prefixItems) ? schema.items : Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const minItems = Math.min(count(schema.minItems) ?? 0, MAX_ITEMS);
  let maxItems = Math.min(count(schema.maxItems) ?? MAX_ITEMS, MAX_ITEMS);
  if (rest === false) maxItems = Math.min(maxItems, tuple.length);
  const preferred = minimal ? 0 : tuple.length > 0 ? tuple.length : 1 + Math.floor(state.random() * 3);
  const length = Math.max(minItems, Math.min(preferred, maxItems));
  const items: unknown[] = [];
  const seen = new Set<string>();
  // `uniqueItems`: a duplicate is drawn again, a few times, before the array settles for fewer items.
  for (let attempt = 0; items.length < length && attempt < length + 8; attempt++) {
    const index = items.length;
    // No property name for items: "tags" says nothing about one tag, and varied words read better.
    const item = generate(index < tuple.length ? tuple[index] : (rest ?? {}), state, nested.depth, nested.refs, undefined);
    if (schema.uniqueItems === true) {
      const key = JSON.stringify(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    items.push(item);
  }
  return items;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}
