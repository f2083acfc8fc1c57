// Passing a stream from a server route to a browser: the route sends the chunks on as
// newline-delimited JSON, the page rebuilds a Stream from the response body.
import "./offline.ts";
import ModelGate, { Stream, type ChatCompletionChunk } from "modelgate";

const client = new ModelGate();

/** The server route (e.g. a Next.js route handler or a Worker's fetch). */
async function route(request: Request): Promise<Response> {
  const { question } = (await request.json()) as { question: string };
  const stream = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: question }], stream: true });
  return new Response(stream.toReadableStream(), { headers: { "content-type": "application/x-ndjson" } });
}

/** The page: no API key here, only the route's answer. */
async function page(fetchRoute: (request: Request) => Promise<Response>) {
  const response = await fetchRoute(new Request("https://app.example/api/chat", { method: "POST", body: JSON.stringify({ question: "Hi from the page" }) }));
  const stream = Stream.fromReadableStream<ChatCompletionChunk>(response.body!);
  for await (const text of stream.textStream) process.stdout.write(text);
  process.stdout.write("\n");
}

await page(route);
