// The bridge page on openai's helper: the route's body read with
// `ChatCompletionStream.fromReadableStream()`, the reply shown by a `content` listener, and the
// final message once the stream ends. Its event and accumulator code loads on demand.
import { ChatCompletionStream } from "modelgate";

const output = document.querySelector("#output");
const response = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ question: "hi" }) });
const stream = ChatCompletionStream.fromReadableStream(response.body);
stream.on("content", (delta) => (output.textContent += delta));
const message = await stream.finalMessage();
output.dataset.role = message.role;
