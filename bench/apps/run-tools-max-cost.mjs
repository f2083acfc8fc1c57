// A browser app that runs a tool loop with runTools() and shows its progress. The tool's
// schema is a plain JSON Schema (jsonSchema()), so no schema library's bytes are counted.
import ModelGate, { jsonSchema, tool } from "modelgate";

const output = document.querySelector("#output");
const client = new ModelGate({ apiKey: "key", baseURL: "https://gateway.example", dangerouslyAllowBrowser: true });
const getWeather = tool({
  name: "get_weather",
  parameters: jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  run: async ({ city }) => ({ city, celsius: 21 }),
});
const run = client.chat.completions.runTools({ model: "auto", messages: [{ role: "user", content: "hi" }], tools: [getWeather] }, { maxCost: 0.01 });
for await (const event of run) output.textContent += `${event.type} `;
output.textContent += (await run).stopReason;
