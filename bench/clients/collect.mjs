/** What a user's loop does with a stream of chunks, the same for every SDK measured. */
export async function collectText(stream, onFirstDelta) {
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
