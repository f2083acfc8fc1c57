// Error handling: each failure has its own class with status, code, requestID and message.
import "./offline.ts";
import ModelGate, { NotFoundError, RateLimitError, type ChatCompletionMessageParam } from "modelgate";

const client = new ModelGate();
const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Hello" }];

try {
  await client.chat.completions.create({ model: "no-such/model", messages });
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log(`not found (${error.status}): ${error.message} [request ${error.requestID}]`);
  } else if (error instanceof RateLimitError) {
    console.log("rate limited; retry after", error.headers?.get("retry-after"));
  } else {
    throw error;
  }
}
