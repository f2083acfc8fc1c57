// The SDK under test, as users run it: the built package.
import { ModelGate } from "../../dist/index.js";

let client;
const get = (baseURL) => (client ??= new ModelGate({ apiKey: "bench-key", baseURL, maxRetries: 0 }));

export async function streamText(baseURL, chunks, onFirstDelta) {
  const stream = await get(baseURL).chat.completions.create({
    model: "auto",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    metadata: { chunks: String(chunks) },
  });
  let text = "";
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta?.content;
    if (content) {
      if (text === "" && onFirstDelta) onFirstDelta();
      text += content;
    }
  }
  return text;
}

export async function complete(baseURL) {
  const completion = await get(baseURL).chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] });
  return completion.choices[0].message.content;
}
