import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PartialJSONParser } from "../src/features/structured/partial-json.ts";
import { cut, jsonText, nested, whitespace } from "./fixtures/json-text.ts";
import { copiedEntries, deepFreeze, jsonCopy, jsonEqual, partialProblem, shapeProblem, sharingProblem } from "./fixtures/json-values.ts";

const RUNS = 250;

/** Feeds `pieces` in order and returns the snapshot after each push, and what end() returned. */
function parse(pieces: readonly string[]): { snapshots: unknown[]; value: unknown } {
  const parser = new PartialJSONParser();
  const snapshots = pieces.map((piece) => {
    parser.push(piece);
    return parser.snapshot();
  });
  return { snapshots, value: parser.end() };
}

/** The three ways every property feeds a text: whole, one UTF-16 code unit per push, and cut at generated positions. */
const feedings = (text: string, positions: readonly number[]) => ({ whole: [text], "one code unit per push": text.split(""), "cut at generated positions": cut(text, positions) });

/** What the parser must return: JSON.parse of the text, or of the JSON inside a well-formed Markdown fence. */
function referenceParse(text: string): unknown {
  const fence = /^[ \t\n\r]*```[^`\n]*\n/.exec(text);
  if (fence === null) return JSON.parse(text);
  const body = text.slice(fence[0].length);
  // A JSON text cannot end in backticks (inside a string, a quote would follow), so trailing ones are the closing fence.
  const closing = /```[ \t\n\r]*$/.exec(body);
  return JSON.parse(closing === null ? body : body.slice(0, closing.index));
}

type Outcome = { value: unknown } | { error: unknown };
const attempt = (run: () => unknown): Outcome => {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
};
const offsetOf = (error: unknown) => Number(/ at offset (\d+):/.exec(String((error as Error).message))?.[1]);

/** Asserts that the parser, fed `text` in every way, ends as the reference does: the same value, or a SyntaxError (at the offset V8 names, when it names one). */
function expectSameOutcome(text: string, positions: readonly number[]): void {
  const expected = attempt(() => referenceParse(text));
  for (const [feeding, pieces] of Object.entries(feedings(text, positions))) {
    const got = attempt(() => parse(pieces).value);
    if ("value" in expected) {
      expect("error" in got ? String(got.error) : undefined, `${feeding}: JSON.parse accepts ${JSON.stringify(text)}`).toBeUndefined();
      expect(jsonEqual((got as { value: unknown }).value, expected.value), `${feeding}: the value differs from JSON.parse's`).toBe(true);
      continue;
    }
    expect("value" in got, `${feeding}: JSON.parse rejects ${JSON.stringify(text)} (${String(expected.error)}) but the parser returned a value`).toBe(false);
    const error = (got as { error: unknown }).error;
    expect(error, `${feeding}: ${String(error)}`).toBeInstanceOf(SyntaxError);
    const offset = offsetOf(error);
    expect(offset, `${feeding}: the message names no offset: ${String(error)}`).toBeGreaterThanOrEqual(0);
    const position = /at position (\d+)/.exec(String((expected.error as Error).message))?.[1];
    if (position !== undefined && !/^[ \t\n\r]*```/.test(text)) {
      expect(offset, `${feeding}: JSON.parse says "${(expected.error as Error).message}", the parser "${(error as Error).message}"`).toBe(Number(position));
    }
  }
}

/** Fails with `problem`, said after what was fed; the description is only built on a failure (it costs O(text)). */
function check(problem: string | undefined, fed: () => string): void {
  if (problem !== undefined) expect.fail(`after ${JSON.stringify(fed())}: ${problem}`);
}

describe("partial JSON properties", () => {
  it("shows only partials of the final value, each one a partial of the next, and ends equal to JSON.parse, however the text is split", () => {
    fc.assert(
      fc.property(jsonText(), fc.array(fc.nat(), { maxLength: 24 }), (text, positions) => {
        const complete = JSON.parse(text);
        for (const [feeding, pieces] of Object.entries(feedings(text, positions))) {
          const { snapshots, value } = parse(pieces);
          let previous: unknown;
          snapshots.forEach((snapshot, index) => {
            const fed = () => `${feeding}: ${pieces.slice(0, index + 1).join("")}`;
            check(partialProblem(snapshot, complete), fed);
            check(partialProblem(previous, snapshot), () => `${fed()} (the previous snapshot against this one)`);
            previous = snapshot;
          });
          expect(jsonEqual(value, complete), `${feeding}: end() differs from JSON.parse`).toBe(true);
          expect(shapeProblem(value), feeding).toBeUndefined();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("returns true from push() exactly when the snapshot changed, and keeps every unchanged container the same object", () => {
    fc.assert(
      fc.property(jsonText(), fc.array(fc.nat(), { maxLength: 24 }), (text, positions) => {
        for (const [feeding, pieces] of Object.entries(feedings(text, positions))) {
          const parser = new PartialJSONParser();
          let previous = parser.snapshot();
          expect(previous).toBeUndefined();
          for (const [index, piece] of pieces.entries()) {
            const changed = parser.push(piece);
            const snapshot = parser.snapshot();
            const fed = () => `${feeding}: ${pieces.slice(0, index + 1).join("")}`;
            if (changed && jsonEqual(snapshot, previous)) check("push() returned true, and the snapshot is unchanged", fed);
            if (!changed && snapshot !== previous) check("push() returned false, and the snapshot is a new value", fed);
            check(sharingProblem(previous, snapshot), fed);
            previous = snapshot;
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("never mutates a snapshot once returned", () => {
    fc.assert(
      fc.property(jsonText(), fc.array(fc.nat(), { maxLength: 24 }), (text, positions) => {
        for (const pieces of Object.values(feedings(text, positions))) {
          const parser = new PartialJSONParser();
          const taken: { snapshot: unknown; copy: unknown }[] = [];
          for (const piece of pieces) {
            parser.push(piece); // a write into a frozen snapshot throws a TypeError here
            const snapshot = parser.snapshot();
            taken.push({ snapshot, copy: jsonCopy(snapshot) });
            deepFreeze(snapshot);
          }
          parser.end();
          for (const { snapshot, copy } of taken) expect(jsonEqual(snapshot, copy)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("ends equal to JSON.parse with repeated keys and __proto__ keys: the last duplicate wins, __proto__ stays an own entry", () => {
    fc.assert(
      fc.property(jsonText({ uniqueKeys: false }), fc.array(fc.nat(), { maxLength: 24 }), (text, positions) => expectSameOutcome(text, positions)),
      { numRuns: RUNS },
    );
  });

  it("reads a text in a Markdown fence as the bare JSON, and rejects exactly the fences that are not one", () => {
    const opening = fc.tuple(whitespace, fc.constantFrom("```", "```", "``", "````", "~~~", ""), fc.constantFrom("", "json", "JSON", " json ", "json\r", "js`on", "{}"), fc.constantFrom("\n", "\n", "\r\n", "", " "));
    const closing = fc.tuple(whitespace, fc.constantFrom("", "```", "```", "``", "````", "``` x", "```\n```"), whitespace);
    fc.assert(
      fc.property(opening, jsonText({ maxDepth: 2 }), closing, fc.array(fc.nat(), { maxLength: 12 }), (open, json, close, positions) =>
        expectSameOutcome(open.join("") + json + close.join(""), positions),
      ),
      { numRuns: RUNS },
    );
  });

  it("accepts exactly what JSON.parse accepts: a malformed text ends in a SyntaxError at the offset JSON.parse names, never a value or another error", () => {
    const junk = fc.oneof(
      fc.constantFrom(..."{}[]:,\"\\ 0123456789-+.eEtrufalsnx'/\t\n\r\u0000\u001f\u00a0\ufeff\u2028"),
      fc.constantFrom(",", "01", "00", "-", "1.", "1e", "\\x", "\\u12g4", "\\U0041", "\\u00", "//", "/* c */", "\u0001", "NaN", "Infinity", "+1", ".5", "1 2", "{}", "[]", '"a"', "tru", "nul", "True", "\ud83d"),
      fc.integer({ min: 0, max: 0xffff }).filter((code) => code !== 0x60).map((code) => String.fromCharCode(code)),
    );
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("truncate" as const), at: fc.nat(), junk: fc.constant("") }),
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), junk }),
      fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), junk }),
      fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), junk: fc.constant("") }),
      fc.record({ kind: fc.constant("trailing comma" as const), at: fc.nat(), junk: whitespace }),
      fc.record({ kind: fc.constant("second value" as const), at: fc.nat(), junk: jsonText({ maxDepth: 1 }) }),
    );
    const mutate = (text: string, { kind, at, junk }: { kind: string; at: number; junk: string }): string => {
      const position = at % (text.length + 1);
      switch (kind) {
        case "truncate":
          return text.slice(0, position);
        case "insert":
          return text.slice(0, position) + junk + text.slice(position);
        case "replace":
          return text.slice(0, position) + junk + text.slice(position + 1);
        case "delete":
          return text.slice(0, position) + text.slice(position + 1);
        case "trailing comma": {
          const closers = [...text.matchAll(/[\]}]/g)];
          if (closers.length === 0) return `${text},`;
          const closer = closers[at % closers.length]!.index!;
          return `${text.slice(0, closer)},${junk}${text.slice(closer)}`;
        }
        default:
          return text + junk;
      }
    };
    const malformed = fc.tuple(jsonText({ maxDepth: 3 }), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([text, mutations]) => mutations.reduce(mutate, text));
    fc.assert(
      fc.property(malformed, fc.array(fc.nat(), { maxLength: 12 }), (text, positions) => expectSameOutcome(text, positions)),
      { numRuns: 400 },
    );
  });

  it("throws, one code unit per push, on the push of the character at the offset named (or at end() for a text cut short)", () => {
    const text = fc.tuple(jsonText({ maxDepth: 2 }), fc.nat(), fc.constantFrom(",", "]", "}", "0", "x", "\u0001", "\\q", '"', ":", " 1")).map(([json, at, junk]) => {
      const position = at % (json.length + 1);
      return json.slice(0, position) + junk + json.slice(position);
    });
    fc.assert(
      fc.property(text, (malformed) => {
        let valid = true;
        try {
          JSON.parse(malformed);
        } catch {
          valid = false;
        }
        fc.pre(!valid);
        const parser = new PartialJSONParser();
        let thrownAt = -1;
        let error: unknown;
        for (let index = 0; index <= malformed.length && thrownAt === -1; index++) {
          try {
            if (index < malformed.length) parser.push(malformed[index]!);
            else parser.end();
          } catch (caught) {
            thrownAt = index;
            error = caught;
          }
        }
        expect(error).toBeInstanceOf(SyntaxError);
        expect(offsetOf(error), String(error)).toBe(thrownAt);
      }),
      { numRuns: RUNS },
    );
  });
});

/** The snapshot after each piece (the text may stop short), serialised, `undefined` shown as "-". */
function shows(...pieces: string[]): string[] {
  const parser = new PartialJSONParser();
  return pieces.map((piece) => {
    parser.push(piece);
    const snapshot = parser.snapshot();
    return snapshot === undefined ? "-" : JSON.stringify(snapshot);
  });
}

describe("what a partial value shows", () => {
  it("shows a number only once a delimiter follows it, never `-`, `1.`, `1e` or `1e+`", () => {
    expect(shows("[", "-", "1", ".", "5", "e", "+", "3", ",", "0", "]")).toEqual(["[]", "[]", "[]", "[]", "[]", "[]", "[]", "[]", "[-1500]", "[-1500]", "[-1500,0]"]);
  });

  it("shows a top-level number only at end(), which completes it", () => {
    const parser = new PartialJSONParser();
    expect(parser.push("-0.25")).toBe(false);
    expect(parser.snapshot()).toBeUndefined();
    expect(parser.end()).toBe(-0.25);
    expect(parser.snapshot()).toBe(-0.25);
  });

  it("shows true, false and null only once complete", () => {
    expect(shows("[t", "ru", "e,f", "als", "e,n", "ul", "l]")).toEqual(["[]", "[]", "[true]", "[true]", "[true,false]", "[true,false]", "[true,false,null]"]);
  });

  it("shows a key only once its name is complete and its value has something to show", () => {
    expect(shows('{"na', 'me"', ":", " 4", "2", ",", ' "ta', 'gs": ', "[", '"a')).toEqual([
      "{}",
      "{}",
      "{}",
      "{}",
      "{}",
      '{"name":42}',
      '{"name":42}',
      '{"name":42}',
      '{"name":42,"tags":[]}',
      '{"name":42,"tags":["a"]}',
    ]);
  });

  it("shows a string from its opening quote and grows it, each escape once complete", () => {
    expect(shows('{"text": "', "ab", "\\", "n", "c\\u00", "e9", '"}')).toEqual(['{"text":""}', '{"text":"ab"}', '{"text":"ab"}', '{"text":"ab\\n"}', '{"text":"ab\\nc"}', '{"text":"ab\\ncé"}', '{"text":"ab\\ncé"}']);
  });

  it("holds a high surrogate back until the next code unit is known, raw or escaped", () => {
    expect(shows('"x\ud83d', '\ude00"')).toEqual(['"x"', '"x😀"']);
    expect(shows('"x\\ud83d', "\\ude00", '"')).toEqual(['"x"', '"x😀"', '"x😀"']);
    expect(shows('"x\\ud83d', "\\", "u", "d", "e", "0", "0")).toEqual(['"x"', '"x"', '"x"', '"x"', '"x"', '"x"', '"x😀"']);
    // Known to be lone once the next code unit is another high surrogate: shown then.
    expect(shows('"x\\ud83d', "\\ud83d")).toEqual(['"x"', '"x\\ud83d"']);
  });

  it("keeps a lone surrogate exactly as JSON.parse does, once the code unit after it is known", () => {
    for (const text of ['"\\ud83d"', '"\\ud83dA"', '"\\ude00\\ud83d"', '"\ud83d"', '"\ud83d\\n"', '"a\\ud83d\\ud83d\\ude00"']) {
      const { snapshots, value } = parse(text.split(""));
      expect(value, text).toBe(JSON.parse(text));
      for (const snapshot of snapshots) expect(partialProblem(snapshot, value), `${text}: ${String(snapshot)}`).toBeUndefined();
    }
    expect(parse(['"\\ud83dA', '"']).snapshots).toEqual(["\ud83dA", "\ud83dA"]);
  });

  it("shows growing array elements after the complete ones, and containers from their opening bracket", () => {
    expect(shows("[[1, 2", "], {", '"a": [', "]}", "]")).toEqual(["[[1]]", "[[1,2],{}]", '[[1,2],{"a":[]}]', '[[1,2],{"a":[]}]', '[[1,2],{"a":[]}]']);
  });

  it('makes "__proto__" an own entry, as JSON.parse does, and never sets a prototype', () => {
    const text = '{"__proto__": {"polluted": true}, "a": {"__proto__": "x"}}';
    const parser = new PartialJSONParser();
    parser.push(text.slice(0, 30));
    const partial = parser.snapshot() as Record<string, unknown>;
    expect(Object.getPrototypeOf(partial)).toBe(Object.prototype);
    expect(Object.hasOwn(partial, "__proto__")).toBe(true);
    parser.push(text.slice(30));
    const value = parser.end() as Record<string, unknown>;
    expect(jsonEqual(value, JSON.parse(text))).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(Object.hasOwn(value.a as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("shows a repeated key once, in its first place, and __proto__ as an entry, in every snapshot", () => {
    expect(shows('{"__proto__": 1, "a": 2, "__proto__": [', "3", '], "1": 4,', ' "a": "x')).toEqual([
      '{"__proto__":[],"a":2}',
      '{"__proto__":[],"a":2}',
      '{"1":4,"__proto__":[3],"a":2}',
      '{"1":4,"__proto__":[3],"a":"x"}',
    ]);
  });

  it("keeps the last of duplicate keys, in the first one's place, like JSON.parse", () => {
    const text = '{"a": 1, "b": 2, "a": [3], "__proto__": 4, "__proto__": 5}';
    const value = parse([text]).value;
    expect(jsonEqual(value, JSON.parse(text))).toBe(true);
    expect(Object.keys(value as object)).toEqual(["a", "b", "__proto__"]);
  });

  it("hands out the same snapshot while nothing visible changed, and keeps a closed container's identity", () => {
    const parser = new PartialJSONParser();
    expect(parser.push('[{"a": 1}, ')).toBe(true);
    const first = parser.snapshot() as unknown[];
    expect(parser.push("  ")).toBe(false);
    expect(parser.snapshot()).toBe(first);
    expect(parser.push('"x')).toBe(true);
    const second = parser.snapshot() as unknown[];
    expect(second).not.toBe(first);
    expect(second[0]).toBe(first[0]);
    expect(first).toEqual([{ a: 1 }]);
  });

  it("reads nesting 10,000 levels deep without recursion", () => {
    const pattern = [true, false, false];
    const text = nested(10_000, pattern);
    let node = parse(cut(text, Array.from({ length: 200 }, (_, index) => index * 157))).value;
    // Walked in a loop: jsonEqual and JSON.stringify would overflow the stack at this depth.
    for (let level = 0; level < 10_000; level++) {
      if (pattern[level % pattern.length]) {
        expect(Array.isArray(node) && node.length === 1, `level ${level} is [value]`).toBe(true);
        node = (node as unknown[])[0];
      } else {
        expect(Object.keys(node as object), `level ${level} is {"__proto__": value}`).toEqual(["__proto__"]);
        node = (node as Record<string, unknown>)["__proto__"];
      }
    }
    expect(node).toBe("leaf");
  });

  it("reads any top-level value: a string, a number, a literal, an empty container", () => {
    for (const text of ['"hi"', "0", "-1e-7", "true", "false", "null", "[]", "{}", " \r\n\t[ ] "]) expect(parse(text.split("")).value, text).toEqual(JSON.parse(text));
  });
});

describe("code fences", () => {
  it("accepts an opening fence line with or without an info string, and an optional closing fence", () => {
    for (const text of ['```json\n{"a": 1}\n```', '  ```JSON\r\n{"a": 1}```  \n', '```\n{"a": 1}', '\n```json\n {"a": 1} \n```\n']) {
      expect(parse(text.split("")).value, JSON.stringify(text)).toEqual({ a: 1 });
    }
  });

  it("shows nothing for the fence itself", () => {
    expect(shows("```", "json", "\n[", "1]", "\n```")).toEqual(["-", "-", "[]", "[1]", "[1]"]);
  });

  it.each([
    ['{"a": 1}\n```', "a closing fence without an opening one"],
    ['```json\n{"a": 1}\n```\nDone!', "text after the closing fence"],
    ['````json\n{"a": 1}\n````', "four backticks"],
    ['```json {"a": 1}```', "the value on the fence line"],
    ['```json\n```json\n{"a": 1}', "a second fence line"],
    ['Here it is:\n```json\n{"a": 1}\n```', "text before the fence"],
    ['```json\n{"a": 1}\n``', "two backticks to close"],
  ])("rejects %j: %s", (text) => {
    expect(() => parse([text])).toThrow(SyntaxError);
  });
});

describe("errors", () => {
  it.each([
    ['{"a":01}', 6, "leading zero"],
    ["[1,]", 3, "no trailing commas"],
    ['{"a":1,}', 7, "no trailing commas"],
    ['"\\x"', 2, "escape character"],
    ['"\\u12g4"', 5, "four hex digits"],
    ['"a\u0001"', 2, "control characters must be escaped"],
    ["1 2", 2, "only whitespace after the value"],
    ['{"a" 1}', 5, "':' after the key"],
    ["[1 2]", 3, "',' or ']'"],
    ["nulL", 3, "the literal null"],
    ["-x", 1, "a digit after '-'"],
    ["1.e3", 2, "a digit after the decimal point"],
    ["1e+", 3, "a digit in the exponent"],
    ["tru", 3, "end of JSON input"],
    ["[", 1, "end of JSON input"],
    ["", 0, "end of JSON input"],
    ["  \n", 3, "end of JSON input"],
    ["'a'", 0, "a JSON value"],
  ])("rejects %j at offset %i (%s)", (text, offset, reason) => {
    for (const pieces of [[text], text.split("")]) {
      const error = attempt(() => parse(pieces)) as { error: Error };
      expect(error.error).toBeInstanceOf(SyntaxError);
      expect(error.error.message).toContain(`at offset ${offset}:`);
      expect(error.error.message).toContain(reason);
      expect(error.error.message).toMatch(/\(near ".*"\)$/);
    }
  });

  it("quotes the text before the offset even when it arrived in earlier pushes", () => {
    const parser = new PartialJSONParser();
    for (const piece of ['{"items": [1, ', "2, ", "3,", " ]"]) {
      try {
        parser.push(piece);
      } catch (error) {
        expect((error as Error).message).toBe(`Unexpected "]" at offset 20: a comma must be followed by another element (no trailing commas) (near ${JSON.stringify('{"items": [1, 2, 3, ]')})`);
        return;
      }
    }
    expect.unreachable("the trailing comma was accepted");
  });

  it("keeps throwing the same SyntaxError after an error, from push() and end()", () => {
    const parser = new PartialJSONParser();
    parser.push("[1,");
    const first = attempt(() => parser.push("]")) as { error: unknown };
    expect(first.error).toBeInstanceOf(SyntaxError);
    expect(() => parser.push("2]")).toThrow(first.error as Error);
    expect(() => parser.end()).toThrow(first.error as Error);
  });

  it("throws a TypeError from push() after end(), and end() returns the same value again", () => {
    const parser = new PartialJSONParser();
    parser.push('{"a": [1]}');
    const value = parser.end();
    expect(parser.end()).toBe(value);
    expect(() => parser.push(" ")).toThrow(TypeError);
  });
});

describe("linear work", () => {
  /**
   * Runs `run` and counts the characters the parser examined: every `charCodeAt`, every
   * character `slice` returned and every character a sticky regular expression (the string
   * scanner) moved over. Every loop of the parser over the text goes through one of these, so a
   * parser that re-read earlier text would show here as work growing faster than the text.
   */
  const examined = (run: () => void): number => {
    const { charCodeAt, slice } = String.prototype;
    const { test } = RegExp.prototype;
    let count = 0;
    String.prototype.charCodeAt = function (this: string, index: number) {
      count++;
      return charCodeAt.call(this, index);
    };
    String.prototype.slice = function (this: string, start?: number, end?: number) {
      const result = slice.call(this, start, end);
      count += result.length;
      return result;
    };
    RegExp.prototype.test = function (this: RegExp, text: string) {
      const from = this.lastIndex;
      const result = test.call(this, text);
      if (this.sticky) count += this.lastIndex - from;
      return result;
    };
    try {
      run();
    } finally {
      String.prototype.charCodeAt = charCodeAt;
      String.prototype.slice = slice;
      RegExp.prototype.test = test;
    }
    return count;
  };
  const chunks = (text: string) => Array.from({ length: Math.ceil(text.length / 10) }, (_, index) => text.slice(index * 10, index * 10 + 10));
  const records = (scale: number) =>
    JSON.stringify(
      Array.from({ length: 600 * scale }, (_, id) => ({ id, name: `record ${id} "quoted" é 😀`, score: id / 7, tags: ["a", "b"], nested: { ok: id % 2 === 0, value: null } })),
      null,
      1,
    );
  const longString = (scale: number) => JSON.stringify({ text: "lorem \\ipsum\n😀 ".repeat(4_000 * scale) });
  const deep = (scale: number) => nested(4_000 * scale, [true, false]);

  // Counted, not timed: the same on a busy machine. Re-reading from the start on each push would
  // examine about text² / 20 characters here, hundreds of times the text.
  it.each([
    ["records", records],
    ["one long string", longString],
    ["nesting 4,000 and 16,000 levels deep", deep],
  ] as const)("%s, push() per 10 characters: examines each character at most 3 times, at any length", (_, make) => {
    for (const scale of [1, 4]) {
      const text = make(scale);
      const pieces = chunks(text);
      const work = examined(() => {
        const parser = new PartialJSONParser();
        for (const piece of pieces) parser.push(piece);
        parser.end();
      });
      expect(work, `${text.length} characters`).toBeLessThanOrEqual(3 * text.length);
    }
  });

  it("copies on snapshot() only the containers still open on the path to the change: closed ones are the same objects", () => {
    const text = records(1);
    const parser = new PartialJSONParser();
    let previous: unknown[] = [];
    for (const piece of chunks(text)) {
      if (!parser.push(piece)) continue;
      const snapshot = parser.snapshot() as unknown[];
      // The open top-level array, and in it the open record (5 entries) with its open child (2).
      const copied = copiedEntries(previous, snapshot);
      if (copied > snapshot.length + 7) expect.fail(`${copied} entries copied for ${snapshot.length} records, at ${JSON.stringify(snapshot.at(-1))}`);
      // Every record but the last one of the previous snapshot was closed there: the same object now.
      const moved = previous.slice(0, -1).findIndex((record, index) => snapshot[index] !== record);
      if (moved !== -1) expect.fail(`record ${moved} is a new object though it was closed`);
      previous = snapshot;
    }
    expect(parser.end()).toEqual(JSON.parse(text));

    // A long string grows in one open object: each snapshot copies that object's one entry.
    const growing = new PartialJSONParser();
    let before: unknown;
    for (const piece of chunks(longString(1))) {
      if (!growing.push(piece)) continue;
      const snapshot = growing.snapshot();
      if (copiedEntries(before, snapshot) !== 1) expect.fail(`${copiedEntries(before, snapshot)} entries copied for a longer string`);
      before = snapshot;
    }
  });
});
