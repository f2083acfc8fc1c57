import { isRecord } from "../../internal/values.ts";
import { define, flattenSchema, type Schema } from "./resolve.ts";

/** One value of each JSON type, for "a value of the wrong type". */
const WRONG_TYPES: readonly [type: string, value: unknown][] = [
  ["string", "not the expected type"],
  ["number", 12345],
  ["boolean", true],
  ["null", null],
  ["array", []],
  ["object", {}],
];

/**
 * A change to `value` (generated from `schema`) that the schema rejects, as a model that
 * drifted from it would make: the first required property left out; else a property, or the
 * value itself, of a type the schema does not allow; else an extra property where
 * `additionalProperties` is false; else a value outside an `enum`. A schema that accepts every
 * value cannot be broken: `value` then comes back unchanged.
 */
export function violateSchema(schema: unknown, value: unknown, root: unknown = schema): unknown {
  const flat = flattenSchema(schema, root, 0, () => 0, true);
  if (!flat) return value;
  const plain = flat.schema;
  if (isRecord(value)) {
    const required = Array.isArray(plain.required) ? plain.required.filter((key): key is string => typeof key === "string") : [];
    const dropped = required.find((key) => Object.hasOwn(value, key));
    if (dropped !== undefined) {
      const { [dropped]: _dropped, ...rest } = value;
      return rest;
    }
    const properties = isRecord(plain.properties) ? plain.properties : {};
    for (const [key, property] of Object.entries(properties)) {
      const wrong = wrongType(flattenSchema(property, root, 0, () => 0, true)?.schema);
      if (wrong === undefined) continue;
      const broken = { ...value };
      define(broken, key, wrong);
      return broken;
    }
    if (plain.additionalProperties === false) {
      const broken = { ...value };
      define(broken, "unexpected_property", true);
      return broken;
    }
  }
  const wrong = wrongType(plain);
  if (wrong !== undefined) return wrong;
  if (Array.isArray(plain.enum) && plain.enum.length > 0) return "not one of the allowed values";
  return value;
}

/** A value whose JSON type the schema's `type` leaves out, if it names any. */
function wrongType(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is string => typeof type === "string");
  if (types.length === 0) return undefined;
  const allowed = (type: string) => types.includes(type) || (type === "number" && types.includes("integer"));
  return WRONG_TYPES.find(([type]) => !allowed(type))?.[1];
}
