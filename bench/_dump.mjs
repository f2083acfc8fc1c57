import { build } from "esbuild";
const root = process.cwd() + "/";
const result = await build({ entryPoints: [`${root}bench/apps/chat-for-await.mjs`], bundle: true, minify: true, splitting: true, format: "esm", platform: "browser", target: "es2022", outdir: "/bundle-size", write: false, metafile: true, logLevel: "silent", alias: { modelgate: `${root}dist/index.js` } });
const entry = result.outputFiles.find(f => f.path.endsWith("modelgate.js"));
process.stdout.write(entry.text);
