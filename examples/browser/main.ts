// Browser example: bundle with `npx esbuild examples/browser/main.ts --bundle --format=esm
// --outfile=examples/browser/main.js` and open index.html?baseURL=…&apiKey=… (the gateway must
// allow the page's origin: the mock gateway does). A key in a page is visible to every
// visitor, hence `dangerouslyAllowBrowser`; `&guard=1` shows the SDK refusing without it.
import ModelGate from "modelgate";

const query = new URLSearchParams(location.search);
const output = document.querySelector("#output")!;
const status = document.querySelector("#status")!;

try {
  const client = new ModelGate({
    apiKey: query.get("apiKey") ?? "",
    baseURL: query.get("baseURL") ?? "",
    dangerouslyAllowBrowser: query.get("guard") !== "1",
  });
  const stream = await client.chat.completions.create({
    model: "auto",
    messages: [{ role: "user", content: "Hello from a web page" }],
    stream: true,
  });
  for await (const text of stream.textStream) output.textContent += text;
  status.textContent = "done";
} catch (error) {
  status.textContent = `error: ${(error as Error).message}`;
}
