// A browser page that streams one chat reply with textStream and shows an error's message when
// the call fails: everything it reaches must be in its first load.
import ModelGate, { APIError } from "modelgate";

const output = document.querySelector("#output");
const client = new ModelGate({ apiKey: "key", baseURL: "https://gateway.example", dangerouslyAllowBrowser: true });
try {
  const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
  for await (const text of stream.textStream) output.textContent += text;
} catch (error) {
  output.textContent = error instanceof APIError ? `${error.status}: ${error.message}` : String(error);
}
