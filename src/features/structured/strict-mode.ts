import { isRecord } from "../../internal/values.ts";
import { toolInternals } from "../../schemas/tool-internals.ts";

// `tool()` keeps the library's schema as it is; the code that sends tools (`parse()`,
// `runTools()`, and `create()` given `tool()` tools) closes it here.

// What OpenAI's strict mode takes: the keywords its structured-outputs guide lists as supported
// ("Supported schemas", https://platform.openai.com/docs/guides/structured-outputs#supported-schemas),
// the one list the SDK keeps. The structure: `type` (string, number, integer, boolean, object,
// array, null, or a list of them), `properties`, `required`, `additionalProperties: false`,
// `items` (one schema), `enum`, `const`, `anyOf` (not at the root), `$ref` to `$defs` or
// `definitions` (recursion included); annotations: `description`, `title`, `$schema` (which
// openai's own helpers send); string `pattern` and `format` (of STRICT_FORMATS); number
// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`; array `minItems`,
// `maxItems`. The guide lists no other: `minLength`/`maxLength`, `default`, `examples`, `oneOf`,
// `allOf`, `not`, `if`/`then`/`else`, `patternProperties`, `propertyNames`, `min`/`maxProperties`,
// `uniqueItems`, `contains`, tuples (`prefixItems`, `items` as a list) and boolean schemas make a
// schema non-strict. Its size limits (properties, nesting, enum values) are not checked.
const STRICT_KEYWORDS = new Set(
  "type properties required additionalProperties items enum const anyOf $ref $defs definitions description title $schema pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minItems maxItems".split(" "),
);
const STRICT_FORMATS = new Set("date-time time date duration email hostname ipv4 ipv6 uuid".split(" "));

// Keywords whose value is a schema or a list of schemas, and those whose value maps names to
// schemas: where closing goes on. Not `allOf` (nor `not`, `if`/`then`/`else`, `dependentSchemas`,
// which combine with their parent as an intersection does): closing an object there would
// forbid the keys a sibling schema adds, so no value could satisfy both.
const SUBSCHEMAS = ["items", "prefixItems", "additionalProperties", "anyOf", "oneOf"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"];

/** A schema as sent, and whether OpenAI's strict mode takes it. */
export interface StrictSchema {
  schema: Record<string, unknown>;
  strict: boolean;
}

/**
 * `schema` with every object schema that is silent on `additionalProperties` closed
 * (`additionalProperties: false`: libraries describe their *input* as open, but a model should
 * add no keys), and whether strict mode can then take it: the root is an object, every object
 * is closed and requires all its properties, and every keyword is one listed above. Objects in
 * the parts closing does not enter (see SUBSCHEMAS), and the definitions those parts refer to,
 * are left as they are. The caller's schema is not changed (a copy is returned).
 */
export function closeSchema(schema: Record<string, unknown>): StrictSchema {
  let strict = schema.type === "object";
  const open = definitionsLeftOpen(schema);
  // Copies by original: a node met again (shared, or in a cycle) is the same copy.
  const copies = new Map<object, Record<string, unknown>>();
  const close = (node: unknown): unknown => {
    // A boolean schema (or no schema at all) where a schema belongs.
    if (!isRecord(node)) return (strict = false), node;
    // Part of an intersection (see definitionsLeftOpen), which strict mode does not take.
    if (open.has(node)) return (strict = false), node;
    if (copies.has(node)) return copies.get(node);
    const copy: Record<string, unknown> = {};
    copies.set(node, copy);
    const { type, properties, required, items } = node;
    const is = (name: string) => type === name || (Array.isArray(type) && type.includes(name));
    for (const [key, value] of Object.entries(node)) {
      strict &&= STRICT_KEYWORDS.has(key) && (key !== "format" || STRICT_FORMATS.has(value as string));
      copy[key] = mapSubschemas(key, value, close);
    }
    if (is("object") || isRecord(properties)) {
      copy.additionalProperties ??= false;
      strict &&= copy.additionalProperties === false && Object.keys(properties ?? {}).every((name) => Array.isArray(required) && required.includes(name));
    }
    strict &&=
      ("type" in node || "anyOf" in node || "$ref" in node || "enum" in node || "const" in node) &&
      (!is("array") || isRecord(items)) &&
      // A reference with siblings: openai's Python SDK inlines those before it sends a strict schema.
      !("$ref" in node && Object.keys(node).length > 1);
    return copy;
  };
  const closed = close(schema) as Record<string, unknown>;
  return { schema: closed, strict };
}

/** `value` of keyword `key` with `map` applied to the subschemas closing enters; any other value as it is. */
function mapSubschemas(key: string, value: unknown, map: (node: unknown) => unknown): unknown {
  if (SUBSCHEMA_MAPS.includes(key) && isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, map(child)]));
  if (SUBSCHEMAS.includes(key) && typeof value === "object" && value !== null) return Array.isArray(value) ? value.map(map) : map(value);
  return value;
}

/**
 * The definitions (and the root, for `#`) that the parts closing does not enter refer to, with
 * whatever they refer to in turn: they belong to an intersection (`allOf: [{ $ref }, ...]`), so
 * they are left open as well.
 */
function definitionsLeftOpen(root: Record<string, unknown>): Set<unknown> {
  const open = new Set<unknown>();
  const seen = new Set<unknown>();
  // Every `$ref` anywhere in `node`, followed to its target.
  const leaveOpen = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const target = key === "$ref" && typeof value === "string" ? resolveReference(root, value) : undefined;
      if (target !== undefined) open.add(target);
      leaveOpen(target ?? value);
    }
  };
  // The parts closing enters, down to a part it does not.
  const visited = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (!isRecord(node) || visited.has(node)) return;
    visited.add(node);
    // A value closing does not enter (`allOf`, `not`, ... and data such as `enum`) is searched for references.
    for (const [key, value] of Object.entries(node)) if (mapSubschemas(key, value, walk) === value) leaveOpen(value);
  };
  walk(root);
  return open;
}

/** The schema a local `$ref` (`#`, `#/$defs/name`, `#/definitions/name`) points at, if any. */
function resolveReference(root: Record<string, unknown>, reference: string): unknown {
  if (reference === "#") return root;
  const [, keyword, name] = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference) ?? [];
  const definitions = keyword === undefined ? undefined : root[keyword];
  return isRecord(definitions) && name !== undefined ? definitions[name.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
}

/**
 * `tools` as they are sent: each `tool()` tool as a plain definition whose `parameters` are
 * closed (see `closeSchema()`) and whose `strict` is what `tool()` was given, else whether
 * strict mode takes them. Other tools, and anything that is not a list, are left as they are.
 */
export function sendableTools(tools: unknown): unknown {
  if (!Array.isArray(tools) || !tools.some(toolInternals)) return tools;
  return tools.map((offer: { function: Record<string, unknown> }) => {
    if (!toolInternals(offer)) return offer;
    const { schema, strict } = closeSchema(offer.function.parameters as Record<string, unknown>);
    return { ...offer, function: { ...offer.function, parameters: schema, strict: offer.function.strict ?? strict } };
  });
}
