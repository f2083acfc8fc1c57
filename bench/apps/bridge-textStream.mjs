// The setup the README recommends: a server route holds the key and answers with
// `stream.toReadableStream()`; this page, which holds no key, reads the route's body with
// `Stream.fromReadableStream()` and shows the reply with `textStream`.
import { Stream } from "modelgate";

const output = document.querySelector("#output");
const response = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ question: "hi" }) });
const stream = Stream.fromReadableStream(response.body);
for await (const text of stream.textStream) output.textContent += text;
