import { isRecord } from "../../internal/values.ts";
import type { ResolvedSchema } from "../../schemas/schema-source.ts";
import { toolInternals } from "../../schemas/tool-internals.ts";

// Objects made by openai's helpers (`zodResponseFormat()`, `zodFunction()` of
// `openai/helpers/zod`, and the like) are the wire shape plus two properties openai defines as
// non-enumerable: `$brand` says what the object is, `$parseRaw(text)` reads the reply's JSON text
// into the value (for Zod, `JSON.parse` and then `schema.parse`). Spreading or serialising the
// object drops them, so they are read from the caller's own objects, before any copy.

type Brand = "auto-parseable-response-format" | "auto-parseable-tool";

/** The `$parseRaw` of an openai helper object with the given `$brand`, bound to it; else `undefined`. */
export function openAIParser(value: unknown, brand: Brand): ((text: string) => unknown) | undefined {
  if (!isRecord(value) || value.$brand !== brand) return undefined;
  const parseRaw = value.$parseRaw;
  // Called as openai calls it: as a method of the helper object.
  return typeof parseRaw === "function" ? (text) => parseRaw.call(value, text) : undefined;
}

/**
 * How the calls of each offered tool get `parsed_arguments`, by tool name: a `tool()` tool by
 * its schema; a tool made by openai's helpers by its own `$parseRaw`; a plain function tool
 * with `function.strict: true` by `JSON.parse` alone, as under openai. Other tools get none.
 */
export function toolParsers(tools: unknown): Map<string, ResolvedSchema> {
  const schemas = new Map<string, ResolvedSchema>();
  if (!Array.isArray(tools)) return schemas;
  for (const offer of tools) {
    const definition = isRecord(offer) && isRecord(offer.function) ? offer.function : undefined;
    const name = definition?.name;
    if (typeof name !== "string") continue;
    const internals = toolInternals(offer);
    const parseRaw = openAIParser(offer, "auto-parseable-tool");
    if (internals) {
      schemas.set(name, internals.schema);
    } else if (parseRaw || definition?.strict === true) {
      const parameters = definition?.parameters;
      schemas.set(name, { jsonSchema: isRecord(parameters) ? parameters : {}, validate: undefined, parseRaw, name });
    }
  }
  return schemas;
}
