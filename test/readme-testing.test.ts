import { expect, it } from "vitest";

// The README's `modelgate/testing` snippet runs below exactly as written (the imports resolve
// to src/); `console.log` is captured so the test can check what it printed.
const log: unknown[] = [];
const console = { log: (value: unknown) => log.push(value) };
const messages = [{ role: "user" as const, content: "Hi" }];

import ModelGate from "modelgate";
import { createMockGateway, MOCK_API_KEY } from "modelgate/testing";

const gateway = createMockGateway({ reply: "Hello from the mock." });
const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway });

gateway.inject({ type: "status", status: 429, retryAfterMs: 10 }); // the next request is rate limited
const stream = await client.chat.completions.create({ model: "auto", messages, stream: true });
console.log(await stream.text()); // "Hello from the mock." (after one retry)
console.log(gateway.requests.length); // 2

it("runs the README's mock gateway snippet: one retry, then the fixed reply", () => {
  expect(log).toEqual(["Hello from the mock.", 2]);
});
