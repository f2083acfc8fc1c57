// Writes the end of src/client/client.ts, from its marker line on: the type namespace on the
// client class (`ModelGate.X`, and openai's nested paths `ModelGate.Chat.X`,
// `ModelGate.Chat.Completions.X`), from what src/index.ts exports: every type, and every class
// but the error classes (statics of the client class instead) and `Chat` (the namespace's name
// for the chat types). `npm run build` and `npm run typecheck` run it first; with `--check` it
// writes nothing and exits with 1 when the file is not what it would write (test/dist.test.ts).
//
// Why written and not declared: TypeScript cannot put a module's exports on a namespace without
// naming them. A namespace body may not `export * from` (TS1194); the class cannot merge with an
// alias of a module (`import type * as ModelGate`, or `export type * as ModelGate` beside it:
// TS2440, TS2323), because a module has a value; and a namespace that re-exports imported names
// must sit in the class's own file (elsewhere, merged with a re-export of the class, it counts as
// a value too: TS2484).
//
// Why at the end of client.ts and not a file of its own (tried with tsc 5.9, tsup 8.5, Deno 2.9):
// elsewhere, only a module augmentation (`declare module "./index.ts" { namespace ModelGate { … } }`)
// merges with the class. Aimed at "./index.ts" it works in the source and in the bundled
// dist/index.d.ts, where it names that file itself; but `deno publish` refuses it as a slow type
// (unsupported-ambient-module: JSR takes no `declare module`), and in dist/index.d.cts it names
// the ESM declarations (TS1479, TS6200). A `const ModelGate = Client` beside the namespace is
// TS2451, and with type aliases as its members it bundles as `class ModelGate$1`, as editors show it.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const entry = `${root}src/index.ts`;
const target = `${root}src/client/client.ts`;
const marker = "// The type namespace, written by scripts/write-namespace.mjs";
// The types declared in these files are also under `ModelGate.Chat` and `ModelGate.Chat.Completions`.
const chatFiles = [
  ...["chat-params.ts", "chat-completion.ts", "structured.ts", "stored-completions.ts"].map((file) => `${root}src/types/${file}`),
  // openai's `OpenAI.Chat.Completions.Messages`, the stored messages' resource.
  `${root}src/resources/chat/messages.ts`,
];

/** The types src/index.ts exports, each with the file that declares it. */
function publicTypes() {
  const program = ts.createProgram([entry], {
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
    noLib: true, // only names and declarations are read, nothing is checked
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
  if (!module) throw new Error("src/index.ts: not a module");
  const exports = checker.getExportsOfModule(module);
  const target = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const client = exports.find((symbol) => symbol.name === "ModelGate");
  if (!client) throw new Error("src/index.ts: no ModelGate export");
  const statics = new Set(checker.getTypeOfSymbol(target(client)).getProperties().map((property) => property.name));
  return exports
    .filter((symbol) => !["ModelGate", "default", "Chat"].includes(symbol.name) && !statics.has(symbol.name))
    .filter((symbol) => target(symbol).flags & ts.SymbolFlags.Type)
    .map((symbol) => {
      const declared = target(symbol);
      const file = declared.declarations?.[0]?.getSourceFile().fileName;
      if (!file) throw new Error(`src/index.ts: cannot tell where ${symbol.name} is declared`);
      return { name: symbol.name, declaredName: declared.name, file };
    });
}

/** The items, comma-separated, on lines of at most 120 characters. */
function wrap(items, indent) {
  const lines = [];
  for (const item of items) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + item.length + 2 <= 120) lines[last] += ` ${item},`;
    else lines.push(`${indent}${item},`);
  }
  return lines.join("\n");
}

/**
 * The imports of the names, each from the file that declares it, not from src/index.ts: that
 * imports client.ts, and the two would be an import cycle (type-only, but a cycle all the same).
 */
function imports(types) {
  const byPath = new Map();
  for (const { name, declaredName, file } of types) {
    if (file === target) continue; // declared in client.ts itself: named as it is
    const path = relative(dirname(target), file);
    const from = path.startsWith(".") ? path : `./${path}`;
    byPath.set(from, [...(byPath.get(from) ?? []), `${declaredName} as _${name}`]);
  }
  return [...byPath.keys()]
    .sort()
    .map((from) => {
      const line = `import type { ${byPath.get(from).join(", ")} } from "${from}";`;
      return line.length <= 120 ? line : `import type {\n${wrap(byPath.get(from), "  ")}\n} from "${from}";`;
    })
    .join("\n");
}

/** The end of src/client/client.ts, from the marker line on. */
function namespaceSource() {
  const types = publicTypes().sort((a, b) => (a.name < b.name ? -1 : 1));
  const names = types.map(({ name }) => name);
  const chat = types.filter(({ file }) => chatFiles.includes(file)).map(({ name }) => name);
  // Imported as `_Name`: client.ts imports some of the same names for its own use.
  const inClient = new Set(types.filter(({ file }) => file === target).map(({ name }) => name));
  const member = (name) => (inClient.has(name) ? `type ${name}` : `type _${name} as ${name}`);
  const exportList = (members, indent) => `${indent}export {\n${wrap(members.map(member), `${indent}  `)}\n${indent}};`;
  return `${marker} from what src/index.ts
// exports (\`npm run build\` and \`npm run typecheck\` write it): export a public type there, and
// it is here too. It stays at the end of this file, where the class it merges with is declared.
${imports(types)}

/**
 * The public types, also reachable through the client class as openai-node users write them:
 * \`const messages: ModelGate.ChatCompletionMessageParam[] = [...]\`. Types only: nothing here
 * exists at run time. The error classes are statics of the class instead (a static and a
 * namespace member cannot share a name), so \`err instanceof ModelGate.APIError\` works and
 * the type is the named export \`APIError\`.
 */
export declare namespace ModelGate {
  /**
   * The chat types under the paths openai's docs use: \`ModelGate.Chat.ChatCompletionCreateParams\`,
   * \`ModelGate.Chat.Completions.ChatCompletionMessageParam\` (the same types as \`ModelGate.X\`).
   */
  export namespace Chat {
${exportList(chat, "    ")}
    /** The same chat types again, as \`ModelGate.Chat.Completions.X\` (openai's older paths). */
    export namespace Completions {
${exportList(chat, "      ")}
    }
  }
${exportList(names, "  ")}
}
`;
}

const source = readFileSync(target, "utf8");
const at = source.indexOf(marker);
if (at < 0) throw new Error(`src/client/client.ts: no line "${marker}" to write the namespace after`);
const text = source.slice(0, at) + namespaceSource();
if (process.argv.includes("--check")) {
  if (source !== text) {
    console.error("src/client/client.ts: the type namespace is not what src/index.ts exports; run `node scripts/write-namespace.mjs` (npm run build and npm run typecheck do).");
    process.exit(1);
  }
} else if (source !== text) {
  writeFileSync(target, text);
}
