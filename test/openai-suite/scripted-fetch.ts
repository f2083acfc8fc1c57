// A fetch that answers each chat request with the next scripted reply, for both SDKs: a
// completion object (sent as JSON) or a list of chunks (sent as SSE, then `[DONE]`). It keeps
// the request bodies, so a test can check what went out with each step.

/** What one request gets: a completion, or the chunks of a streamed one. */
export type Scripted = Record<string, unknown> | Record<string, unknown>[];

export function scriptedFetch(replies: Scripted[]) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies[bodies.length - 1];
    if (reply === undefined) return Response.json({ error: { message: `no reply scripted for request ${bodies.length}` } }, { status: 500 });
    if (!Array.isArray(reply)) return Response.json(reply);
    const text = reply.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";
    return new Response(text, { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, bodies };
}

/** A completion whose message makes `calls` (each `[id, name, arguments]`) or answers `content`. */
export function completion(id: string, message: { content?: string | null; calls?: [string, string, string][] }, usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }) {
  const tool_calls = message.calls?.map(([callID, name, args]) => ({ id: callID, type: "function", function: { name, arguments: args } }));
  return {
    id,
    object: "chat.completion",
    created: 1,
    model: "gpt-4.1-mini",
    choices: [{ index: 0, finish_reason: tool_calls ? "tool_calls" : "stop", logprobs: null, message: { role: "assistant", content: message.content ?? null, refusal: null, ...(tool_calls ? { tool_calls } : {}) } }],
    ...(usage ? { usage } : {}),
  };
}

/** The chunks of the same reply, streamed: the text word by word, each call's arguments in two pieces. */
export function chunks(id: string, message: { content?: string; calls?: [string, string, string][] }): Record<string, unknown>[] {
  const base = { id, object: "chat.completion.chunk", created: 1, model: "gpt-4.1-mini" };
  const out: Record<string, unknown>[] = [{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: message.calls ? null : "" }, finish_reason: null, logprobs: null }] }];
  for (const word of message.content?.split(/(?<= )/) ?? []) out.push({ ...base, choices: [{ index: 0, delta: { content: word }, finish_reason: null, logprobs: null }] });
  message.calls?.forEach(([callID, name, args], index) => {
    const half = Math.floor(args.length / 2);
    out.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: callID, type: "function", function: { name, arguments: args.slice(0, half) } }] }, finish_reason: null, logprobs: null }] });
    out.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, finish_reason: null, logprobs: null }] });
  });
  out.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: message.calls ? "tool_calls" : "stop", logprobs: null }] });
  return out;
}
