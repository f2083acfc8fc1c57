import { pick } from "../random.ts";

/** A `pattern` compiled for checking, and a generator of strings meant to match it. */
export interface CompiledPattern {
  test(text: string): boolean;
  sample(random: () => number): string;
}

/**
 * A schema's `pattern`, to check strings against and to draw strings from; `undefined` when it
 * is no valid regular expression. Drawing is a best effort, by design (a full regular-expression
 * inverter would outweigh the rest of the mock): the generator reads the common part of them —
 * literals, escapes, classes, groups, alternatives, quantifiers — and skips anchors and
 * lookarounds, so a lookaround's condition may not hold. Every sample is checked against the
 * real expression (JSON Schema patterns are ECMA-262, with the `u` flag as validators use
 * them), so a miss only means falling back to another candidate.
 */
export function compilePattern(pattern: string): CompiledPattern | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    try {
      regex = new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
  let tree: PatternNode;
  try {
    tree = new PatternParser(pattern).parse();
  } catch {
    tree = { kind: "sequence", items: [] };
  }
  return { test: (text) => regex.test(text), sample: (random) => generate(tree, random) };
}

type PatternNode =
  | { kind: "characters"; options: string }
  | { kind: "sequence"; items: PatternNode[] }
  | { kind: "alternatives"; options: PatternNode[] }
  | { kind: "repeat"; node: PatternNode; min: number; max: number };

/** Characters picked for `.`, `\S` and negated classes: ones every reader takes for plain text. */
const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const CLASSES: Record<string, string> = { d: "0123456789", w: `${PLAIN}_`, s: " ", D: "abcxyz", W: "-", S: PLAIN };
/** Characters for the Unicode properties patterns use most (`\p{Lu}`); any other property gets plain ones, and the check sorts them out. */
const PROPERTIES: Record<string, string> = { Lu: "ABCXYZ", Uppercase_Letter: "ABCXYZ", Ll: "abcxyz", Lowercase_Letter: "abcxyz", N: "0123456789", Nd: "0123456789" };
/** The most repetitions written for `*`, `+` and `{n,}` beyond their minimum. */
const EXTRA_REPEATS = 3;
/** The most repetitions of any one quantifier, whatever `{n,m}` says. */
const MAX_REPEATS = 64;

function generate(node: PatternNode, random: () => number): string {
  switch (node.kind) {
    case "characters":
      return node.options === "" ? "" : node.options[Math.floor(random() * node.options.length)]!;
    case "sequence":
      return node.items.map((item) => generate(item, random)).join("");
    case "alternatives":
      return generate(pick(node.options, random), random);
    case "repeat": {
      const count = node.min + Math.floor(random() * (node.max - node.min + 1));
      let text = "";
      for (let i = 0; i < count; i++) text += generate(node.node, random);
      return text;
    }
  }
}

/** A recursive-descent reader of the part of regular-expression syntax `generate` handles. */
class PatternParser {
  #at = 0;
  constructor(readonly source: string) {}

  parse(): PatternNode {
    const node = this.#alternatives();
    if (this.#at < this.source.length) throw new SyntaxError(`unexpected ${this.source[this.#at]}`);
    return node;
  }

  #alternatives(): PatternNode {
    const options = [this.#sequence()];
    while (this.source[this.#at] === "|") {
      this.#at++;
      options.push(this.#sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alternatives", options };
  }

  #sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.#at < this.source.length && this.source[this.#at] !== "|" && this.source[this.#at] !== ")") {
      const atom = this.#atom();
      items.push(this.#quantified(atom));
    }
    return { kind: "sequence", items };
  }

  #atom(): PatternNode {
    const char = this.source[this.#at++]!;
    switch (char) {
      case "^":
      case "$":
        return { kind: "sequence", items: [] };
      case ".":
        return { kind: "characters", options: PLAIN };
      case "[":
        return { kind: "characters", options: this.#class() };
      case "\\":
        return this.#escape(false);
      case "(": {
        let skip = false;
        if (this.source[this.#at] === "?") {
          const rest = this.source.slice(this.#at);
          // A lookaround constrains without consuming: skipped, and the sample checked afterwards.
          skip = /^\?<?[=!]/.test(rest);
          const named = /^\?<[A-Za-z_$][\w$]*>/.exec(rest);
          this.#at += named ? named[0].length : skip ? (rest[1] === "<" ? 3 : 2) : 2;
        }
        const inner = this.#alternatives();
        if (this.source[this.#at++] !== ")") throw new SyntaxError("unclosed group");
        return skip ? { kind: "sequence", items: [] } : inner;
      }
      default:
        return { kind: "characters", options: char };
    }
  }

  #quantified(atom: PatternNode): PatternNode {
    const char = this.source[this.#at];
    let range: [number, number] | undefined;
    if (char === "*") range = [0, EXTRA_REPEATS];
    else if (char === "+") range = [1, 1 + EXTRA_REPEATS];
    else if (char === "?") range = [0, 1];
    else if (char === "{") {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#at));
      if (!braces) return atom;
      const min = Math.min(Number(braces[1]), MAX_REPEATS);
      const max = braces[2] === undefined ? min : braces[3] === "" ? min + EXTRA_REPEATS : Number(braces[3]);
      range = [min, Math.max(min, Math.min(max, MAX_REPEATS))];
      this.#at += braces[0].length - 1;
    }
    if (!range) return atom;
    this.#at++;
    // Lazy (`*?`) and possessive-looking (`*+`) suffixes change matching, not what matches.
    if (this.source[this.#at] === "?" || this.source[this.#at] === "+") this.#at++;
    return { kind: "repeat", node: atom, min: range[0], max: range[1] };
  }

  /** An escape after its backslash; in a class, `\b` is a backspace rather than a word boundary. */
  #escape(inClass: boolean): PatternNode {
    const char = this.source[this.#at++] ?? "\\";
    if (CLASSES[char] !== undefined) return { kind: "characters", options: CLASSES[char] };
    const property = /^[pP]\{([\w=]+)\}/.exec(this.source.slice(this.#at - 1));
    if (property) {
      this.#at += property[0].length - 1;
      return { kind: "characters", options: char === "P" ? "-" : (PROPERTIES[property[1]!] ?? PLAIN) };
    }
    if (!inClass && (char === "b" || char === "B")) return { kind: "sequence", items: [] };
    const code = /^u\{([0-9a-fA-F]+)\}|^u([0-9a-fA-F]{4})|^x([0-9a-fA-F]{2})/.exec(this.source.slice(this.#at - 1));
    if (code) {
      this.#at += code[0].length - 1;
      return { kind: "characters", options: String.fromCodePoint(parseInt(code[1] ?? code[2] ?? code[3]!, 16)) };
    }
    const controls: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0", b: "\b" };
    return { kind: "characters", options: controls[char] ?? char };
  }

  /** A `[...]` class after its `[`, as the characters it allows (the plain ones it does not, when negated). */
  #class(): string {
    const negated = this.source[this.#at] === "^";
    if (negated) this.#at++;
    let allowed = "";
    // In JavaScript, unlike POSIX, a "]" right after "[" closes the class: `[]` matches nothing.
    while (this.#at < this.source.length && this.source[this.#at] !== "]") {
      const start = this.#single();
      if (this.source[this.#at] === "-" && this.source[this.#at + 1] !== "]" && start.length === 1 && this.#at + 1 < this.source.length) {
        this.#at++;
        const end = this.#single();
        const [from, to] = [start.codePointAt(0)!, end.codePointAt(0) ?? start.codePointAt(0)!];
        // A class as wide as \u0000-\uFFFF needs only a few of its characters to be sampled from.
        for (let code = from; code <= Math.min(to, from + 255); code++) allowed += String.fromCodePoint(code);
      } else {
        allowed += start;
      }
    }
    this.#at++;
    if (!negated) return allowed;
    const rest = [...PLAIN, "-", "_", " "].filter((char) => !allowed.includes(char)).join("");
    return rest === "" ? "~" : rest;
  }

  /** One character of a class, or the characters of an escape class inside it (`[\d_]`). */
  #single(): string {
    const char = this.source[this.#at++]!;
    if (char !== "\\") return char;
    const node = this.#escape(true);
    return node.kind === "characters" ? node.options : "";
  }
}
