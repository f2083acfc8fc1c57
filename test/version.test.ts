import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { VERSION } from "../src/index.ts";

it("reports the same version as package.json (kept in step by `npm run changeset:version`)", () => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "../package.json"), "utf8"));
  expect(VERSION).toBe(version);
});
