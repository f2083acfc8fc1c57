// The physical limit: what a careful hand-written loop of fetch + TextDecoder + line split +
// JSON.parse does. No SDK can beat it by much.
const headers = { authorization: "Bearer bench-key", "content-type": "application/json" };

export async function streamText(baseURL, chunks, onFirstDelta) {
  const response = await fetch(`${baseURL}/v1/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }], stream: true, metadata: { chunks: String(chunks) } }),
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let start = 0;
    let end;
    while ((end = buffer.indexOf("\n", start)) !== -1) {
      const line = buffer.slice(start, end);
      start = end + 1;
      if (!line.startsWith("data: ")) continue;
      const data = line.slice(6);
      if (data === "[DONE]") return text;
      const content = JSON.parse(data).choices[0]?.delta?.content;
      if (content) {
        if (text === "" && onFirstDelta) onFirstDelta();
        text += content;
      }
    }
    buffer = buffer.slice(start);
  }
  return text;
}

export async function complete(baseURL) {
  const response = await fetch(`${baseURL}/v1/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }] }),
  });
  const completion = await response.json();
  return completion.choices[0].message.content;
}
