// Prints the bundle table of bench/README.md and the README: for each app of bench/apps/,
// bundled by esbuild and by Vite (minified, code splitting on), what its first load weighs
// and what it loads on demand. Run after `npm run build`: `node bench/bundle-report.mjs`.
import { APPS, bundleSize } from "./bundle.mjs";

const DESCRIPTIONS = {
  modelgate: "streamed chat with `for await`",
  "modelgate-text-stream": "a page using `textStream`, catching an HTTP error",
  "modelgate-parse": "a streamed `parse()`",
  "modelgate-tools": "a `runTools()` loop with `maxCost`",
};
/** What each app loads on demand when it runs: the modules its calls load. */
const CALLS = { modelgate: [], "modelgate-text-stream": [], "modelgate-parse": ["parse"], "modelgate-tools": ["runner", "budget"] };
const number = (bytes) => bytes.toLocaleString("en-US");

console.log("| app | esbuild: first load, gzip (files) | Vite: first load, gzip (files) | then on demand, gzip (esbuild / Vite) |");
console.log("|---|---:|---:|---:|");
for (const app of APPS) {
  const [esbuild, vite] = [await bundleSize(app, "esbuild"), await bundleSize(app, "vite")];
  console.log(
    `| ${DESCRIPTIONS[app]} ([apps/${app}.mjs](apps/${app}.mjs)) | ${number(esbuild.gzipBytes)} B (${esbuild.firstLoadFiles}) | ${number(vite.gzipBytes)} B (${vite.firstLoadFiles}) | ${onDemand(app, esbuild)} / ${onDemand(app, vite)} |`,
  );
}

/** The bytes an app's calls load on demand, every file once. */
function onDemand(app, size) {
  const bytes = size.onDemandGzipBytes(...CALLS[app]);
  return bytes === 0 ? "none" : `${number(bytes)} B`;
}
