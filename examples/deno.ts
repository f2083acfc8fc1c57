// Deno, importing the TypeScript source directly. From a URL it reads:
//   import ModelGate from "https://your.host/modelgate/src/index.ts";
// Run: deno run --allow-env=MODELGATE_BASE_URL,MODELGATE_API_KEY --allow-net examples/deno.ts
import ModelGate from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

const configured = Deno.env.get("MODELGATE_BASE_URL") && Deno.env.get("MODELGATE_API_KEY");
const client = configured
  ? new ModelGate()
  : new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.modelgate.invalid", fetch: createMockGateway() });

const stream = await client.chat.completions.create({
  model: "auto",
  messages: [{ role: "user", content: "Greet Deno in one sentence." }],
  stream: true,
});
const encoder = new TextEncoder();
for await (const text of stream.textStream) await Deno.stdout.write(encoder.encode(text));
console.log();
