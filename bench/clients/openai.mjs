// The official openai package, for comparison (a devDependency used only here).
import OpenAI from "openai";
import { collectText } from "./collect.mjs";

let client;
const get = (baseURL) => (client ??= new OpenAI({ apiKey: "bench-key", baseURL: `${baseURL}/v1`, maxRetries: 0 }));

export async function streamText(baseURL, chunks, onFirstDelta) {
  const stream = await get(baseURL).chat.completions.create({
    model: "auto",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    metadata: { chunks: String(chunks) },
  });
  return collectText(stream, onFirstDelta);
}

export async function complete(baseURL) {
  const completion = await get(baseURL).chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] });
  return completion.choices[0].message.content;
}
