// A browser page streaming one chat reply with modelgate, holding the key itself (`for await`).
import ModelGate from "modelgate";

const output = document.querySelector("#output");
const client = new ModelGate({ apiKey: "key", baseURL: "https://gateway.example", dangerouslyAllowBrowser: true });
const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
for await (const chunk of stream) output.textContent += chunk.choices[0]?.delta?.content ?? "";
