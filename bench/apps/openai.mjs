// A browser app streaming one chat reply with the official openai package.
import OpenAI from "openai";

const output = document.querySelector("#output");
const client = new OpenAI({ apiKey: "key", baseURL: "https://gateway.example/v1", dangerouslyAllowBrowser: true });
const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true });
for await (const chunk of stream) output.textContent += chunk.choices[0]?.delta?.content ?? "";
