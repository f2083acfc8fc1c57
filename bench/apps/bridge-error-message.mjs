// The bridge page of the README (a server route holds the key), reading the route's body with
// `Stream.fromReadableStream()` chunk by chunk and showing an `APIError`'s message when the
// route's stream failed (the error frame is thrown as its own class).
import { APIError, Stream } from "modelgate";

const output = document.querySelector("#output");
const response = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ question: "hi" }) });
try {
  for await (const chunk of Stream.fromReadableStream(response.body)) output.textContent += chunk.choices[0]?.delta?.content ?? "";
} catch (error) {
  output.textContent = error instanceof APIError ? `${error.status}: ${error.message}` : String(error);
}
