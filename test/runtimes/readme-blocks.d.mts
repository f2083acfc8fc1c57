export type Runtime = "node" | "route" | "browser" | "deno" | "workerd";
export interface ReadmeBlock {
  runs: string;
  lang: "ts" | "js";
  code: string;
  /** The README line of the block's first line of code. */
  line: number;
}
export declare const RUNTIMES: readonly Runtime[];
export declare function readmeBlocks(readme: string): ReadmeBlock[];
export declare function fenceLanguages(readme: string): string[];
