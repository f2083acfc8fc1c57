// A browser app that asks for structured output with parse() and shows the partial object as
// it streams. The schema is a plain JSON Schema (jsonSchema()), so no schema library's bytes
// are counted: what is measured is what modelgate adds.
import ModelGate, { jsonSchema } from "modelgate";

const output = document.querySelector("#output");
const client = new ModelGate({ apiKey: "key", baseURL: "https://gateway.example", dangerouslyAllowBrowser: true });
const Weather = jsonSchema({ type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"] });
const stream = await client.chat.completions.parse({ model: "auto", messages: [{ role: "user", content: "hi" }], response_format: Weather, stream: true });
for await (const partial of stream.partialObjectStream) output.textContent = JSON.stringify(partial);
const final = await stream.finalChatCompletion();
output.textContent = JSON.stringify(final.choices[0].message.parsed);
