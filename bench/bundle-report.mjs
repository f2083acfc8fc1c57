// Prints the page table of bench/README.md and the README: for each page of bench/apps/,
// bundled by esbuild and by Vite (minified, code splitting on), what its first load weighs and
// what its calls then load on demand; and the streamed chat page bundled without code
// splitting. Run after `npm run build`: `node bench/bundle-report.mjs`.
import { APPS, bundleSize } from "./bundle.mjs";

const DESCRIPTIONS = {
  "chat-for-await": "a streamed chat holding the key, `for await`",
  "chat-textStream-error": "a streamed chat holding the key, `textStream`, showing an `APIError`'s message",
  "bridge-textStream": "the bridge page: a route's body read with `Stream.fromReadableStream()`, its `textStream`",
  "bridge-error-message": "the bridge page, chunk by chunk, showing an `APIError`'s message",
  "ccs-bridge": "`ChatCompletionStream.fromReadableStream()`, a `content` listener, `finalMessage()`",
  "parse-stream": "a streamed `parse()`",
  "run-tools-max-cost": "a `runTools()` loop with `maxCost`",
};
/** What each page's calls load on demand: folders of src/features/. */
const CALLS = { "ccs-bridge": ["chat-stream"], "parse-stream": ["structured"], "run-tools-max-cost": ["tools", "budget"] };
const number = (bytes) => bytes.toLocaleString("en-US");

console.log("| page | esbuild: first load (files) | esbuild: on demand | Vite: first load (files) | Vite: on demand |");
console.log("|---|---:|---:|---:|---:|");
for (const app of APPS) {
  const [esbuild, vite] = [await bundleSize(app, "esbuild"), await bundleSize(app, "vite")];
  console.log(
    `| ${DESCRIPTIONS[app]} ([${app}](apps/${app}.mjs)) | ${number(esbuild.gzipBytes)} B (${esbuild.firstLoadFiles}) | ${onDemand(app, esbuild)} | ${number(vite.gzipBytes)} B (${vite.firstLoadFiles}) | ${onDemand(app, vite)} |`,
  );
}
const [esbuild, vite] = [await bundleSize("chat-for-await", "esbuild", { splitting: false }), await bundleSize("chat-for-await", "vite", { splitting: false })];
console.log(`| ${DESCRIPTIONS["chat-for-await"]}, without code splitting | ${number(esbuild.gzipBytes)} B (${esbuild.firstLoadFiles}) | — | ${number(vite.gzipBytes)} B (${vite.firstLoadFiles}) | — |`);

/** The bytes a page's calls load on demand, every file once. */
function onDemand(app, size) {
  const bytes = size.onDemandGzipBytes(...(CALLS[app] ?? []));
  return bytes === 0 ? "none" : `${number(bytes)} B`;
}
