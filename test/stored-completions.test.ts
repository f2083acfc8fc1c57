import { describe, expect, it } from "vitest";
import { ModelGate, ModelGateError, NotFoundError, type ChatCompletion } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Stored completions as openai's `chat.completions.retrieve/update/list/delete` and
// `chat.completions.messages.list` read them: thin methods through the one pipeline, served by
// the mock for completions created with `store: true`.

const MODEL = "openai/gpt-4.1-mini";

function mocked() {
  const gateway = createMockGateway();
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0 });
  const store = (content: string, metadata?: Record<string, string>) =>
    client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content }], store: true, ...(metadata && { metadata }) });
  return { gateway, client, store };
}

describe("chat.completions.retrieve / update / delete", () => {
  it("retrieves a completion created with store: true, as it was answered", async () => {
    const { client, store } = mocked();
    const created = await store("Hello");
    const retrieved = await client.chat.completions.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect(retrieved.choices[0]?.message.content).toBe(created.choices[0]?.message.content);
    expect(retrieved.gateway.requestID).toMatch(/^req_mock_/);
  });

  it("updates its metadata and deletes it, after which it is a NotFoundError", async () => {
    const { client, store, gateway } = mocked();
    const { id } = await store("Hello", { team: "search" });
    const updated = await client.chat.completions.update(id, { metadata: { team: "ads" } });
    expect((updated as ChatCompletion & { metadata?: unknown }).metadata).toEqual({ team: "ads" });
    expect(gateway.requests.at(-1)).toMatchObject({ method: "POST", url: `https://mock.test/v1/chat/completions/${id}`, body: { metadata: { team: "ads" } } });
    expect(await client.chat.completions.delete(id)).toEqual({ id, deleted: true, object: "chat.completion.deleted" });
    await expect(client.chat.completions.retrieve(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("does not keep a completion created without store: true", async () => {
    const { client } = mocked();
    const created = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hi" }] });
    await expect(client.chat.completions.retrieve(created.id)).rejects.toThrow(/store: true/);
  });

  it("keeps a streamed completion too", async () => {
    const { client } = mocked();
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Hi" }], store: true, stream: true });
    const text = await stream.text();
    const page = await client.chat.completions.list();
    expect(page.data[0]?.choices[0]?.message.content).toBe(text);
  });

  it("path-encodes the id, and rejects a missing one without sending anything", async () => {
    const { client, gateway } = mocked();
    await client.chat.completions.retrieve("a/b").catch(() => undefined);
    expect(gateway.requests.at(-1)?.url).toBe("https://mock.test/v1/chat/completions/a%2Fb");
    const sent = gateway.requests.length;
    const error = await client.chat.completions.retrieve("").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/`completionID`/);
    expect(gateway.requests).toHaveLength(sent);
  });
});

describe("chat.completions.list()", () => {
  it("resolves to the first cursor page, filtered by model and metadata (sent as metadata[key]=value)", async () => {
    const { client, store, gateway } = mocked();
    const a = await store("one", { team: "search" });
    await store("two", { team: "ads" });
    const page = await client.chat.completions.list({ metadata: { team: "search" }, model: MODEL, limit: 5 });
    expect(page).toMatchObject({ object: "list", has_more: false, first_id: a.id, last_id: a.id });
    expect(page.data.map((completion) => completion.id)).toEqual([a.id]);
    const url = new URL(gateway.requests.at(-1)!.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ "metadata[team]": "search", model: MODEL, limit: "5" });
  });

  it("iterates every completion of every page with for await, asking for the next after the last id", async () => {
    const { client, store, gateway } = mocked();
    const ids: string[] = [];
    for (const content of ["1", "2", "3", "4", "5"]) ids.push((await store(content)).id);
    const before = gateway.requests.length;
    const seen: string[] = [];
    for await (const completion of client.chat.completions.list({ limit: 2 })) seen.push(completion.id);
    expect(seen).toEqual(ids);
    const asked = gateway.requests.slice(before).map((request) => new URL(request.url).searchParams.get("after"));
    expect(asked).toEqual([null, ids[1], ids[3]]);
    const descending: string[] = [];
    for await (const completion of client.chat.completions.list({ order: "desc", limit: 3 })) descending.push(completion.id);
    expect(descending).toEqual([...ids].reverse());
  });
});

describe("chat.completions.messages.list(id)", () => {
  it("lists the messages of a stored completion's request, each with an id", async () => {
    const { client } = mocked();
    const created = await client.chat.completions.create({
      model: MODEL,
      store: true,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Hi" }] },
      ],
    });
    const page = await client.chat.completions.messages.list(created.id);
    expect(page.data).toEqual([
      { role: "system", id: `${created.id}-0`, content: "Be brief.", content_parts: null },
      { role: "user", id: `${created.id}-1`, content: null, content_parts: [{ type: "text", text: "Hi" }] },
    ]);
    const roles: string[] = [];
    for await (const message of client.chat.completions.messages.list(created.id, { limit: 1 })) roles.push(message.role);
    expect(roles).toEqual(["system", "user"]);
  });
});

describe("a gateway that stores no completions", () => {
  it("answers each with NotFoundError", async () => {
    const fetch = async () => Response.json({ error: { message: "Not found" } }, { status: 404 });
    const client = new ModelGate({ apiKey: "mg-test-key-0123456789", baseURL: "https://gateway.test", fetch, maxRetries: 0 });
    const calls = [
      client.chat.completions.retrieve("chatcmpl-1"),
      client.chat.completions.update("chatcmpl-1", { metadata: null }),
      client.chat.completions.list(),
      client.chat.completions.delete("chatcmpl-1"),
      client.chat.completions.messages.list("chatcmpl-1"),
    ];
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(NotFoundError);
  });
});
