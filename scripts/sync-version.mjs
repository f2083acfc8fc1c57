// Run by `npm run changeset:version` after `changeset version`: copies package.json's version into src/version.ts, which the
// SDK sends in its X-ModelGate-SDK header, and into jsr.json, which publishes the same source to JSR (a test keeps the three equal).
import { readFileSync, writeFileSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const file = new URL("../src/version.ts", import.meta.url);
const source = readFileSync(file, "utf8").replace(/VERSION = "[^"]*"/, `VERSION = "${version}"`);
writeFileSync(file, source);
const jsrFile = new URL("../jsr.json", import.meta.url);
const jsr = readFileSync(jsrFile, "utf8").replace(/"version": "[^"]*"/, `"version": "${version}"`);
writeFileSync(jsrFile, jsr);
console.log(`src/version.ts, jsr.json: ${version}`);
