// The hand-written loop of raw.mjs, plus what API.md asks of every request the SDK sends: a
// per-attempt timeout that cancels the request (an AbortController passed to fetch, a timer
// aborting it) and an Idempotency-Key on a POST. It is the floor under any client that keeps
// those promises on this runtime; `--requests` reports modelgate against it as well as against
// raw.mjs. (On Node 20, fetch pays for a caller's signal per request: a WeakRef, a
// FinalizationRegistry entry and a listener; see bench/README.md, "Third pass".)
const TIMEOUT_MS = 600_000;

export async function complete(baseURL) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(`${baseURL}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer bench-key", "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "hi" }] }),
      signal: controller.signal,
    });
    const completion = await response.json();
    return completion.choices[0].message.content;
  } finally {
    clearTimeout(timer);
  }
}
