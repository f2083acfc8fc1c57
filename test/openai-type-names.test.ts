import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every type name openai exports under `OpenAI.Chat.*` and `OpenAI.Chat.Completions.*` (read
// from the installed package's declarations, so a new openai release that adds one fails
// here) is there under `ModelGate.Chat.*` and `ModelGate.Chat.Completions.*`: code written
// against openai's nested type paths compiles after the migration steps.

const root = join(import.meta.dirname, "..");
/** A module that is never written to disk: it only gives the checker the two default exports. */
const probe = join(root, "test", "__type-names-probe__.ts");
const probeText = 'import OpenAI from "openai";\nimport ModelGate from "../src/index.ts";\nexport type { OpenAI, ModelGate };\n';

const options: ts.CompilerOptions = {
  noEmit: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: [],
};
const host = ts.createCompilerHost(options);
const { getSourceFile, fileExists, readFile } = host;
host.getSourceFile = (file, language, ...rest) => (file === probe ? ts.createSourceFile(file, probeText, language) : getSourceFile.call(host, file, language, ...rest));
host.fileExists = (file) => file === probe || fileExists.call(host, file);
host.readFile = (file) => (file === probe ? probeText : readFile.call(host, file));
const program = ts.createProgram([probe], options, host);
const checker = program.getTypeChecker();

const resolved = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

/** The names a type can be written with under `Default.path…` (types, classes and namespaces): e.g. `OpenAI.Chat.Completions`. */
function typeNames(importName: "OpenAI" | "ModelGate", path: string[]): string[] {
  const source = program.getSourceFile(probe)!;
  const declaration = source.statements.find((statement): statement is ts.ImportDeclaration => ts.isImportDeclaration(statement) && statement.importClause?.name?.text === importName);
  let symbol = resolved(checker.getSymbolAtLocation(declaration!.importClause!.name!)!);
  for (const part of path) {
    const member = checker.getExportsOfModule(symbol).find((exported) => exported.name === part);
    if (!member) return [];
    symbol = resolved(member);
  }
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => resolved(exported).flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Namespace))
    .map((exported) => exported.name)
    .sort();
}

describe("openai's nested type paths under ModelGate", () => {
  for (const path of [["Chat"], ["Chat", "Completions"]]) {
    const openaiNames = typeNames("OpenAI", path);

    it(`reads openai's names under OpenAI.${path.join(".")} from its declarations`, () => {
      // A guard against reading nothing (a moved declaration file): openai 6 has 40 and more.
      expect(openaiNames.length).toBeGreaterThan(40);
      expect(openaiNames).toContain("ChatCompletionCreateParams");
    });

    it(`has every one of them under ModelGate.${path.join(".")}`, () => {
      const ours = new Set(typeNames("ModelGate", path));
      const missing = openaiNames.filter((name) => !ours.has(name));
      expect(missing, `openai names that ModelGate.${path.join(".")} lacks`).toEqual([]);
    });
  }

  it("has the two that ported openai tests named first", () => {
    expect(typeNames("ModelGate", ["Chat"])).toContain("ChatCompletionCreateParams");
    expect(typeNames("ModelGate", ["Chat", "Completions"])).toContain("ChatCompletionMessageFunctionToolCall");
  });
});
