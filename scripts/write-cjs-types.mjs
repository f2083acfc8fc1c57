// Rewrites dist/index.d.cts so that the types say what the CommonJS entry does at run time:
// `module.exports = ModelGate` (src/commonjs.ts), the class with every named export on it.
// tsup emits the ESM shape (`export { …, ModelGate as default }`) for the .d.cts too, which
// TypeScript reads as a module object: `import ModelGate = require("modelgate")` then fails
// with "This expression is not constructable", and so does a checkJs `require`.
// Run after tsup (`npm run build`).
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../dist/index.d.cts", import.meta.url);
const source = readFileSync(file, "utf8");
const exportLine = /^export \{ (.*) \};\s*$/m;
const match = source.match(exportLine);
if (!match) throw new Error("dist/index.d.cts: no final `export { … }` to rewrite (already rewritten, or tsup's output changed)");

// Names the class already carries: its statics (the error classes) and the members of the
// type namespace declared beside it in src/client/client.ts.
const statics = new Set([...source.matchAll(/^\s+static (\w+):/gm)].map(([, name]) => name));
// The namespace holds nested ones (`ModelGate.Chat.Completions`), so every `export { … }` list
// inside it counts, up to the brace that closes it.
const namespaceStart = source.indexOf("declare namespace ModelGate {");
let namespaceEnd = namespaceStart;
for (let depth = 0, i = source.indexOf("{", namespaceStart); i < source.length; i++) {
  if (source[i] === "{") depth++;
  else if (source[i] === "}" && --depth === 0) {
    namespaceEnd = i;
    break;
  }
}
const namespaceBlock = namespaceStart < 0 ? "" : source.slice(namespaceStart, namespaceEnd);
const inNamespace = new Set([
  ...[...namespaceBlock.matchAll(/export \{([^}]*)\}/g)].flatMap(([, list]) => list.split(",").map((entry) => entry.trim().replace(/^type /, "").split(" as ").at(-1))),
  // `ModelGate.Chat` is the namespace of chat types, as openai's docs use it; the resource class
  // `Chat` stays a named export (and a property at run time) without a type of its own here.
  ...[...namespaceBlock.matchAll(/export namespace (\w+)/g)].map(([, name]) => name),
]);

// A type only re-exported from a shared chunk (no other declaration here uses it) comes as its
// own `export { X as Name } from "./chunk"` line, which cannot stand beside `export =`: it
// becomes an import, and its name joins the namespace.
const reexport = /^export \{ ([^}]*) \} from ('[^']+'|"[^"]+");\s*$/gm;
const reexported = [...source.matchAll(reexport)].flatMap(([, names]) => names.split(", ").map((entry) => entry.split(" as ").at(-1)));

const entries = [...match[1].split(", "), ...reexported]
  .filter((entry) => entry !== "ModelGate as default")
  .filter((entry) => {
    const name = entry.replace(/^type /, "").split(" as ").at(-1);
    return !statics.has(name) && !inNamespace.has(name);
  });

const commonJS = `declare namespace ModelGate {
  export { ${entries.join(", ")} };
  const _default: typeof ModelGate;
  export { _default as default };
}
export = ModelGate;
`;
writeFileSync(file, source.replace(reexport, "import { $1 } from $2;").replace(exportLine, commonJS));
