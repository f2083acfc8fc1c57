// A browser app streaming one chat reply with a hand-written fetch loop.
const output = document.querySelector("#output");
const response = await fetch("https://gateway.example/v1/chat/completions", {
  method: "POST",
  headers: { authorization: "Bearer key", "content-type": "application/json" },
  body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true }),
});
const reader = response.body.getReader();
const decoder = new TextDecoder();
let buffer = "";
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  buffer += decoder.decode(value, { stream: true });
  const lines = buffer.split("\n");
  buffer = lines.pop();
  for (const line of lines) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    output.textContent += JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "";
  }
}
