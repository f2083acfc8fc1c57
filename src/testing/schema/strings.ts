import { pick } from "../random.ts";
import { compilePattern } from "./patterns.ts";
import type { Schema } from "./resolve.ts";

/** The longest string the mock writes, whatever `minLength` asks: the caller's JSON is untrusted. */
const MAX_LENGTH = 10_000;

const WORDS = ["alpha", "river", "maple", "orbit", "copper", "lantern", "meadow", "harbor", "signal", "velvet"];
const CITIES = ["Lisbon", "Kyoto", "Nairobi", "Oslo", "Montreal", "Valparaíso", "Hanoi", "Edinburgh"];
const PEOPLE = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Katherine Johnson", "Edsger Dijkstra", "Barbara Liskov"];

/**
 * Examples of the formats schema libraries write (Zod's `z.email()`, `z.iso.datetime()`,
 * `z.uuid()`, `z.url()`, Valibot's and ArkType's equivalents), valid by their RFCs and by the
 * patterns those libraries add next to the format.
 */
const FORMATS: Record<string, (random: () => number) => string> = {
  email: (random) => `${pick(["ada", "alan", "grace", "edsger"], random)}.${pick(WORDS, random)}@example.com`,
  "idn-email": (random) => FORMATS.email!(random),
  "date-time": (random) => `${date(random)}T${time(random)}Z`,
  date,
  // With an offset, as RFC 3339's full-time has it; a pattern without one (Zod's) is met by the fallback below.
  time: (random) => `${time(random)}Z`,
  duration: (random) => `P${1 + Math.floor(random() * 9)}DT${1 + Math.floor(random() * 9)}H`,
  uuid,
  guid: uuid,
  uri: (random) => `https://example.com/${pick(WORDS, random)}`,
  url: (random) => FORMATS.uri!(random),
  iri: (random) => FORMATS.uri!(random),
  "uri-reference": (random) => `/${pick(WORDS, random)}`,
  hostname: (random) => `${pick(WORDS, random)}.example.com`,
  "idn-hostname": (random) => FORMATS.hostname!(random),
  ipv4: (random) => `192.0.2.${1 + Math.floor(random() * 254)}`,
  ipv6: (random) => `2001:db8::${(1 + Math.floor(random() * 0xfffe)).toString(16)}`,
};

/**
 * A string for the schema: an example of its `format` when the mock knows it, else one made
 * from its `pattern`, else a word or two (a city for a `city` property, a person for a
 * `name`) padded or cut to `minLength`/`maxLength`. A format example or pattern sample is
 * kept only if it matches the `pattern` too, since libraries write both for one check.
 */
export function sampleString(schema: Schema, random: () => number, name: string | undefined): string {
  const minLength = Math.min(wholeNumber(schema.minLength) ?? 0, MAX_LENGTH);
  const maxLength = wholeNumber(schema.maxLength);
  const pattern = typeof schema.pattern === "string" ? compilePattern(schema.pattern) : undefined;
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  const candidates: string[] = [];
  if (format) candidates.push(format(random));
  if (pattern) for (let attempt = 0; attempt < 8; attempt++) candidates.push(pattern.sample(random));
  const fitsLength = (text: string) => text.length >= minLength && (maxLength === undefined || text.length <= maxLength);
  const matching = pattern ? candidates.filter((text) => pattern.test(text)) : candidates;
  const found = matching.find(fitsLength) ?? matching[0];
  if (found !== undefined) return found;
  // A pattern the mock could not satisfy: its best guess still beats ignoring it.
  if (pattern && candidates.length > 0) return candidates[candidates.length - 1]!;
  return fitLength(stem(name, random), minLength, maxLength, random);
}

/** The words a string starts from: plausible for the property it fills. */
function stem(name: string | undefined, random: () => number): string {
  if (name === undefined) return pick(WORDS, random);
  if (/city|town|location|place/i.test(name)) return pick(CITIES, random);
  if (/^(full_?|first_?|last_?|user_?|author_?)?name$/i.test(name)) return pick(PEOPLE, random);
  return `sample ${name}`;
}

function fitLength(text: string, minLength: number, maxLength: number | undefined, random: () => number): string {
  let result = text;
  // Too long for maxLength: a word that fits reads better than a cut one.
  if (maxLength !== undefined && result.length > maxLength) {
    const fitting = WORDS.filter((word) => word.length >= minLength && word.length <= maxLength);
    if (fitting.length > 0) result = pick(fitting, random);
  }
  while (result.length < minLength) result += ` ${pick(WORDS, random)}`;
  return maxLength === undefined ? result : result.slice(0, Math.max(maxLength, 0));
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function date(random: () => number): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${2020 + Math.floor(random() * 10)}-${two(1 + Math.floor(random() * 12))}-${two(1 + Math.floor(random() * 28))}`;
}

function time(random: () => number): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}`;
}

/** A version 4 UUID: random hex with the version nibble 4 and the variant bits 10. */
function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[Math.floor(random() * 4)]!;
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
