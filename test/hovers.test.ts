import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The hovers a user's editor shows for what parse(), runTools() and the type namespace return,
// asked of the TypeScript language service (what editors run) over test/fixtures/hovers.ts.
// Types that read badly in an editor (an answer type shown twice, an internal helper's name)
// fail here. Read from the built declarations (`npm run build` first), as users get them, and
// from the source.
const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = `${root}test/fixtures/hovers.ts`;

function hoversOf(entry: string): { diagnostics: string[]; hovers: Record<string, string> } {
  const text = readFileSync(fixture, "utf8");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    paths: { modelgate: [`${root}${entry}`] },
  };
  const service = ts.createLanguageService({
    getScriptFileNames: () => [fixture],
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => (ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file) ?? "") : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  const diagnostics = service.getSemanticDiagnostics(fixture).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  const hovers: Record<string, string> = {};
  for (const marker of text.matchAll(/\/\*hover\*\/ (\w+)/g)) {
    const name = marker[1] as string;
    const info = service.getQuickInfoAtPosition(fixture, marker.index + marker[0].length - name.length);
    // One line, as the expectations below are written; the editor breaks it where it likes.
    hovers[name] = ts.displayPartsToString(info?.displayParts).replace(/\s+/g, " ");
  }
  return { diagnostics, hovers };
}

describe.each([
  ["the built declarations", "dist/index.d.ts"],
  ["the source", "src/index.ts"],
])("hovers in an editor, reading %s", (_, entry) => {
  const { diagnostics, hovers } = hoversOf(entry);

  it("compiles the fixture without an error", () => {
    expect(diagnostics).toEqual([]);
  });

  it("shows a streamed parse() as StructuredStream<Answer, Call>, the answer once", () => {
    expect(hovers.streamed).toBe(
      "const streamed: ModelGate.StructuredStream<{ city: string; temperature: number; }, ModelGate.ParsedFunctionToolCall<string, unknown>>",
    );
    expect(hovers.streamedWithTools).toBe(
      'const streamedWithTools: ModelGate.StructuredStream<{ city: string; temperature: number; }, ModelGate.ParsedToolCall<"weather", { city: string; }>>',
    );
    expect(hovers.partials).toBe("const partials: AsyncIterable<{ city?: string | undefined; temperature?: number | undefined; }>");
  });

  it("shows the partials' own type only for a schema whose input differs from its output", () => {
    expect(hovers.transformed).toBe(
      "const transformed: StructuredStreamOf<{ size: number; }, ModelGate.ParsedFunctionToolCall<string, unknown>, { size: string; }>",
    );
  });

  it("shows each tool call as ParsedToolCall<Name, Args>, its arguments once", () => {
    const calls = 'ModelGate.ParsedToolCall<"weather", { city: string; }> | ModelGate.ParsedToolCall<"time", { zone: string; }>';
    expect(hovers.call).toBe(`const call: ${calls}`);
    expect(hovers.parsed).toBe(`const parsed: ModelGate.ParsedChatCompletion<{ city: string; temperature: number; }, ${calls}>`);
  });

  it("shows a tool run and its result by their public names", () => {
    expect(hovers.run).toBe("const run: ModelGate.ToolRun");
    expect(hovers.result).toBe("const result: ModelGate.ToolRunResult");
  });

  it("resolves openai's nested type path to the flat type", () => {
    expect(hovers.messageParam).toBe("const messageParam: ModelGate.ChatCompletionMessageParam");
  });
});
