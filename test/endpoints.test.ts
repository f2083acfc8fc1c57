import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  ModelGate,
  ModelGateError,
  NotFoundError,
  RateLimitError,
  type ClientOptions,
  type Middleware,
  type RequestOptions,
} from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY, type MockGatewayOptions } from "../src/testing/index.ts";
import { streamedBody } from "./fixtures/body.ts";
import { requestRecordingClient } from "./fixtures/client.ts";
import { fromBase64, readPNG, readWAV } from "./fixtures/media.ts";

// The endpoints beside chat (API.md, "Beyond text"): client.embeddings.create,
// client.images.generate, client.audio.speech.create and client.audio.transcriptions.create,
// against the mock gateway and, where the wire case is the point, hand-made answers.

const EMBEDDER = "openai/text-embedding-3-small";
const SPEAKER = "openai/gpt-4o-audio-preview";
const PAINTER = "openai/gpt-image-1";
const wav = () => new Blob([Uint8Array.of(82, 73, 70, 70, 0, 0, 0, 0)], { type: "audio/wav" });

function mocked(options: MockGatewayOptions = {}, clientOptions: ClientOptions = {}) {
  const gateway = createMockGateway(options);
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, ...clientOptions });
  return { gateway, client };
}

/** A client whose every request gets `respond()`. */
function answering(respond: () => Response | Promise<Response>) {
  return new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => respond() });
}

/** An embeddings answer holding `vectors` as given. */
const embeddingsAnswer = (vectors: unknown[]) => () =>
  Response.json({ object: "list", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), model: EMBEDDER, usage: { prompt_tokens: 1, total_tokens: 1 } });

/** Little-endian float32 bytes of `values`, as base64. */
const float32Base64 = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString("base64");

describe("client.embeddings.create()", () => {
  it("asks for floats unless told otherwise, and resolves to one unit vector per input, in order", async () => {
    const { client, gateway } = mocked();
    const answer = await client.embeddings.create({ model: EMBEDDER, input: ["the sea", "the sky"] });
    expect(gateway.requests[0]!.body).toEqual({ model: EMBEDDER, input: ["the sea", "the sky"], encoding_format: "float" });
    expect(answer).toMatchObject({ object: "list", model: EMBEDDER, usage: { prompt_tokens: expect.any(Number) } });
    expect(answer.data.map((entry) => [entry.object, entry.index, entry.embedding.length])).toEqual([
      ["embedding", 0, 1_536],
      ["embedding", 1, 1_536],
    ]);
    expect(Math.hypot(...answer.data[0]!.embedding)).toBeCloseTo(1, 5);
  });

  it("gives vectors of the requested dimensions, and embeds one string as one vector", async () => {
    const { client } = mocked();
    const answer = await client.embeddings.create({ model: EMBEDDER, input: "the sea", dimensions: 8 });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]!.embedding).toHaveLength(8);
  });

  it("decodes base64 vectors a server sends although floats were asked for, to the same numbers", async () => {
    const floats = await mocked().client.embeddings.create({ model: EMBEDDER, input: ["a", "b"], dimensions: 16 });
    const { client, gateway } = mocked({ embeddingsAsBase64: true });
    const { data, response } = await client.embeddings.create({ model: EMBEDDER, input: ["a", "b"], dimensions: 16 }).withResponse();
    expect(gateway.requests[0]!.body).toMatchObject({ encoding_format: "float" });
    const raw = (await response.json()) as { data: { embedding: unknown }[] };
    expect(typeof raw.data[0]!.embedding, "the server did send base64").toBe("string");
    expect(data.data).toEqual(floats.data);
  });

  it("gives the base64 strings as sent to a caller who asked for base64", async () => {
    const { client, gateway } = mocked();
    const answer = await client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 4, encoding_format: "base64" });
    expect(gateway.requests[0]!.body).toMatchObject({ encoding_format: "base64" });
    const vector: string = answer.data[0]!.embedding;
    expect(vector).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const floats = await client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 4 });
    expect(Array.from(new Float32Array(fromBase64(vector).buffer))).toEqual(floats.data[0]!.embedding);
  });

  it("rejects an answer with a vector count other than the inputs' with a ModelGateError", async () => {
    const client = answering(embeddingsAnswer([[0.6, 0.8]]));
    const failure = client.embeddings.create({ model: EMBEDDER, input: ["a", "b"] });
    await expect(failure).rejects.toBeInstanceOf(ModelGateError);
    await expect(failure).rejects.toThrow("The embeddings answer has 1 vectors for 2 input(s).");
  });

  it("rejects vectors whose length is not the requested dimensions, decoded from base64 or not", async () => {
    for (const vector of [[0.6, 0.8], float32Base64([0.6, 0.8])]) {
      const failure = answering(embeddingsAnswer([vector])).embeddings.create({ model: EMBEDDER, input: "a", dimensions: 3 });
      await expect(failure).rejects.toBeInstanceOf(ModelGateError);
      await expect(failure).rejects.toThrow("Embedding 0 has 2 dimensions; 3 were asked for.");
    }
  });

  it("rejects a vector that is neither numbers nor base64 of float32 with a ModelGateError", async () => {
    for (const [vector, message] of [
      [[0.1, "x"], "Embedding 0 is not a list of numbers."],
      ["not base64!", "Embedding 0 is a string that is not valid base64."],
      [Buffer.from([1, 2, 3]).toString("base64"), "Embedding 0 holds 3 bytes of base64, not a whole number of float32 values."],
    ] as const) {
      const failure = answering(embeddingsAnswer([vector])).embeddings.create({ model: EMBEDDER, input: "a" });
      await expect(failure).rejects.toBeInstanceOf(ModelGateError);
      await expect(failure).rejects.toThrow(message);
    }
  });

  it("checks that embeddings come one per input, at their indexes, and sorts them; a sparse input is refused", async () => {
    const vector = (index: number) => ({ object: "embedding", index, embedding: [index, 1] });
    const twice = requestRecordingClient(() => Response.json({ object: "list", data: [vector(0), vector(0)], model: "e", usage: { prompt_tokens: 1, total_tokens: 1 } }));
    await expect(twice.client.embeddings.create({ model: "e", input: ["a", "b"] })).rejects.toThrow(/indexes are 0, 0/);
    const reversed = requestRecordingClient(() => Response.json({ object: "list", data: [vector(1), vector(0)], model: "e", usage: { prompt_tokens: 1, total_tokens: 1 } }));
    const sorted = await reversed.client.embeddings.create({ model: "e", input: ["a", "b"] });
    expect(sorted.data.map((entry) => entry.index)).toEqual([0, 1]);
    // eslint-disable-next-line no-sparse-arrays
    await expect(reversed.client.embeddings.create({ model: "e", input: ["a", , "b"] as string[] })).rejects.toThrow(/^`input` must be/);
  });
});

describe("client.images.generate()", () => {
  it("sends the params as given and resolves to the parsed JSON: image URLs by default", async () => {
    const { client, gateway } = mocked();
    const answer = await client.images.generate({ model: PAINTER, prompt: "A lighthouse at dusk", n: 2, size: "1024x1024" });
    expect(gateway.requests[0]!.body).toEqual({ model: PAINTER, prompt: "A lighthouse at dusk", n: 2, size: "1024x1024" });
    expect(answer).toEqual({
      created: expect.any(Number),
      data: [{ url: "https://mock.modelgate.invalid/images/1.png" }, { url: "https://mock.modelgate.invalid/images/2.png" }],
    });
  });

  it("gives b64_json, the base64 of a valid PNG, with response_format b64_json", async () => {
    const { client } = mocked();
    const answer = await client.images.generate({ model: PAINTER, prompt: "A lighthouse", response_format: "b64_json" });
    expect(readPNG(fromBase64(answer.data[0]!.b64_json!))).toMatchObject({ width: 2, height: 2 });
  });
});

describe("client.audio.speech.create()", () => {
  it("resolves to the binary Response, whose body is a valid WAV, after asking for audio", async () => {
    const { client, gateway } = mocked();
    const response = await client.audio.speech.create({ model: SPEAKER, input: "Hello there.", voice: "alloy" });
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    expect(gateway.requests[0]!.headers.accept).toBe("audio/*");
    expect(gateway.requests[0]!.body).toEqual({ model: SPEAKER, input: "Hello there.", voice: "alloy" });
    expect(readWAV(new Uint8Array(await response.arrayBuffer()))).toMatchObject({ channels: 1, sampleRate: 8_000, bitsPerSample: 16 });
  });

  it("keeps the headers the caller sets, an accept header included, as a record, pairs, Headers or another realm's Headers", async () => {
    /** What a `Headers` of another realm (an iframe, a polyfill) looks like here: iterable pairs, not `instanceof Headers`. */
    class ForeignHeaders {
      *[Symbol.iterator]() {
        yield ["accept", "audio/pcm"];
        yield ["x-trace", "7"];
      }
    }
    const layers = [{ accept: "audio/pcm", "x-trace": "7" }, [["accept", "audio/pcm"], ["x-trace", "7"]], new Headers({ accept: "audio/pcm", "x-trace": "7" }), new ForeignHeaders()];
    for (const headers of layers) {
      const { client, gateway } = mocked();
      await client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy", response_format: "pcm" }, { headers: headers as HeadersInit });
      expect(gateway.requests[0]!.headers, headers.constructor.name).toMatchObject({ accept: "audio/pcm", "x-trace": "7" });
    }
  });

  it("hands the body over as it streams: each part is readable before the next is sent", async () => {
    const parts = [Uint8Array.of(1, 2), Uint8Array.of(3, 4), Uint8Array.of(5)];
    const { body, state } = streamedBody(parts);
    const client = answering(() => new Response(body, { headers: { "content-type": "audio/mpeg" } }));
    const response = await client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" });
    const reader = response.body!.getReader();
    const received: number[][] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // The body sends a part only when read: no read-ahead means the SDK did not buffer it.
      expect(state.pulls, "parts sent when a part is received").toBeLessThanOrEqual(received.length + 2);
      received.push([...value]);
    }
    expect(received.flat()).toEqual([1, 2, 3, 4, 5]);
  });

  it("keeps the call's signal on the body: aborting mid-way ends the read with APIUserAbortError and cancels the body", async () => {
    const { body, state } = streamedBody([Uint8Array.of(1), Uint8Array.of(2)], { end: { keepAliveEveryMs: 5 } });
    const client = answering(() => new Response(body, { headers: { "content-type": "audio/mpeg" } }));
    const controller = new AbortController();
    const response = await client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect((await reader.read()).value).toEqual(Uint8Array.of(1));
    controller.abort();
    // A part already taken from the network may still be handed over; then the read fails.
    const reading = (async () => {
      for (let read = 0; read < 10; read++) await reader.read();
    })();
    await expect(reading).rejects.toBeInstanceOf(APIUserAbortError);
    expect(state.cancelled).toBe(true);
  });

  it("reads a 200 JSON answer as the error document it is, or reports it by what it is, never as an event stream", async () => {
    const refused = answering(() => Response.json({ object: "error", error: { message: "no such voice", code: 400 } }));
    await expect(refused.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "nobody" })).rejects.toBeInstanceOf(BadRequestError);
    const odd = answering(() => Response.json({ audio: "elsewhere" }));
    const error = (await odd.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/Expected binary data but got application\/json/);
  });

  it("rejects a refused request with the APIError class of its status", async () => {
    const { client } = mocked();
    await expect(client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy", response_format: "mp3" })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.audio.speech.create({ model: "no-such/model", input: "Hi", voice: "alloy" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("client.audio.transcriptions.create()", () => {
  const upload = (file: unknown) => ({ model: SPEAKER, file: file as Blob });

  it("sends a Blob as the file of a multipart form, and resolves to the parsed JSON", async () => {
    const { client, gateway } = mocked();
    const answer = await client.audio.transcriptions.create({ model: SPEAKER, file: wav(), language: "en", temperature: 0.2 });
    expect(answer).toEqual({ text: expect.stringMatching(/\w/) });
    const [request] = gateway.requests;
    expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body).toEqual({ model: SPEAKER, file: { name: "audio.wav", type: "audio/wav", size: 8 }, language: "en", temperature: "0.2" });
  });

  it("sends a File under its own name", async () => {
    const { client, gateway } = mocked();
    await client.audio.transcriptions.create({ model: SPEAKER, file: new File([wav()], "meeting.wav", { type: "audio/wav" }) });
    expect(gateway.requests[0]!.body).toMatchObject({ file: { name: "meeting.wav", type: "audio/wav", size: 8 } });
  });

  it.each([
    ["a Uint8Array", () => new Uint8Array(12)],
    ["an ArrayBuffer", () => new ArrayBuffer(12)],
    ["a view into a larger buffer (its own bytes only)", () => new Uint8Array(40).subarray(4, 16)],
    ["a DataView", () => new DataView(new ArrayBuffer(12))],
  ])("sends %s as the file's bytes", async (_name, bytes) => {
    const { client, gateway } = mocked();
    await client.audio.transcriptions.create(upload(bytes()));
    expect(gateway.requests[0]!.body).toMatchObject({ file: { name: "audio", size: 12 } });
  });

  it("resolves to the text itself for response_format text", async () => {
    const { client, gateway } = mocked();
    const text: string = await client.audio.transcriptions.create({ model: SPEAKER, file: wav(), response_format: "text" });
    const json = await client.audio.transcriptions.create({ model: SPEAKER, file: wav() });
    expect(text).toBe(json.text);
    expect(gateway.requests[0]!.headers.accept).toBe("text/plain");
    expect(gateway.requests[0]!.body).toMatchObject({ response_format: "text" });
  });

  it("retries a 503 and sends the whole form again", async () => {
    const { client, gateway } = mocked();
    gateway.inject({ type: "status", status: 503, retryAfterMs: 0 });
    const answer = await client.audio.transcriptions.create({ model: SPEAKER, file: new File([wav()], "retry.wav") });
    expect(answer.text).toMatch(/\w/);
    expect(gateway.requests).toHaveLength(2);
    expect(gateway.requests.map((request) => request.body)).toEqual([
      { model: SPEAKER, file: { name: "retry.wav", type: "application/octet-stream", size: 8 } },
      { model: SPEAKER, file: { name: "retry.wav", type: "application/octet-stream", size: 8 } },
    ]);
    expect(gateway.requests[0]!.headers["idempotency-key"]).toBe(gateway.requests[1]!.headers["idempotency-key"]);
  });

  describe("a text answer (text, srt, vtt) is a whole body", () => {
    const SRT = "1\n00:00:00,000 --> 00:00:01,000\nHello there.\n";
    const srt = { model: SPEAKER, file: wav(), response_format: "srt" as const };
    /** A client whose requests get the answers in turn; `requests` counts them. */
    function inTurn(answers: (() => Response)[], options: ClientOptions = {}) {
      const seen = { requests: 0 };
      const fetch = async () => answers[Math.min(seen.requests++, answers.length - 1)]!();
      return { client: new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", fetch, ...options }), seen };
    }
    const text = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) => new Response(body, { headers: { "content-type": "text/plain", ...headers } });

    it("runs timeout to the last byte, not the first", async () => {
      const { client } = inTurn([() => text(streamedBody(["1\n", SRT.slice(2)], { delayMs: 80 }).body)], { timeout: 120, maxRetries: 0 });
      await expect(client.audio.transcriptions.create(srt)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    });

    it("retries a body the transport reports cut, and resolves to the whole text", async () => {
      const { client, seen } = inTurn([() => text(streamedBody([SRT.slice(0, 10)], { end: "break-off" }).body), () => text(SRT)], { maxRetries: 1 });
      expect(await client.audio.transcriptions.create(srt)).toBe(SRT);
      expect(seen.requests).toBe(2);
    });

    it("retries a body shorter than its Content-Length, which the transport ended as if whole", async () => {
      const length = String(new TextEncoder().encode(SRT).length);
      const { client, seen } = inTurn([() => text(SRT.slice(0, 10), { "content-length": length }), () => text(SRT, { "content-length": length })], { maxRetries: 1 });
      expect(await client.audio.transcriptions.create(srt)).toBe(SRT);
      expect(seen.requests).toBe(2);
      const cut = inTurn([() => text(SRT.slice(0, 10), { "content-length": length })], { maxRetries: 0 });
      const error = (await cut.client.audio.transcriptions.create(srt).catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error.message).toBe(`Connection error: the body ended after 10 of its ${length} bytes (content-length).`);
    });

    it("reads a JSON answer as the error document it is, or reports it by what it is, never as an event stream", async () => {
      const limited = inTurn([() => Response.json({ id: "gen-1", error: { message: "slow down", code: 429 } })], { maxRetries: 0 });
      await expect(limited.client.audio.transcriptions.create(srt)).rejects.toBeInstanceOf(RateLimitError);
      // Portkey wraps a text answer it cannot parse as JSON.
      const wrapped = inTurn([() => Response.json({ "html-message": SRT })], { maxRetries: 0 });
      const error = (await wrapped.client.audio.transcriptions.create(srt).catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(/Expected text but got application\/json: \{"html-message"/);
      expect(error.message).not.toMatch(/event stream/);
    });
  });

  it("rejects a missing file with a ModelGateError naming it, and sends nothing", async () => {
    const { client, gateway } = mocked();
    const failure = client.audio.transcriptions.create({ model: SPEAKER } as never);
    await expect(failure).rejects.toBeInstanceOf(ModelGateError);
    await expect(failure).rejects.toThrow("`file` must be a Blob, a File, bytes (an ArrayBuffer or a typed array), a Response, or an async iterable of bytes such as fs.createReadStream(path); got nothing.");
    expect(gateway.requests).toHaveLength(0);
  });

  it("names an uploaded Blob by its type, and sends a list as repeated name[] fields", async () => {
    const { client, sent } = requestRecordingClient(() => Response.json({ text: "ok" }));
    await client.audio.transcriptions.create({ model: "t", file: new Blob([new Uint8Array(4)], { type: "audio/wav" }), timestamp_granularities: ["word", "segment"] } as never);
    const form = sent[0]!.body as FormData;
    expect((form.get("file") as File).name).toBe("audio.wav");
    expect(form.getAll("timestamp_granularities[]")).toEqual(["word", "segment"]);
  });
});

describe("bad params: a rejected promise naming the field, never a synchronous throw, nothing sent", () => {
  type Call = (client: ModelGate) => Promise<unknown>;
  const cases: [method: string, field: string, call: Call][] = [
    ["embeddings.create", "params", (client) => client.embeddings.create(undefined as never)],
    ["embeddings.create", "model", (client) => client.embeddings.create({ input: "a" } as never)],
    ["embeddings.create", "input", (client) => client.embeddings.create({ model: EMBEDDER, input: 5 } as never)],
    ["embeddings.create", "input", (client) => client.embeddings.create({ model: EMBEDDER, input: ["a", 1] } as never)],
    ["embeddings.create", "dimensions", (client) => client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 0 })],
    ["embeddings.create", "encoding_format", (client) => client.embeddings.create({ model: EMBEDDER, input: "a", encoding_format: "int8" } as never)],
    ["embeddings.create", "timeout", (client) => client.embeddings.create({ model: EMBEDDER, input: "a" }, { timeout: -1 })],
    ["images.generate", "params", (client) => client.images.generate("a lighthouse" as never)],
    ["images.generate", "prompt", (client) => client.images.generate({ model: PAINTER, prompt: "" })],
    ["images.generate", "model", (client) => client.images.generate({ prompt: "a lighthouse" } as never)],
    ["images.generate", "n", (client) => client.images.generate({ model: PAINTER, prompt: "a lighthouse", n: 1.5 })],
    ["audio.speech.create", "voice", (client) => client.audio.speech.create({ model: SPEAKER, input: "Hi" } as never)],
    ["audio.speech.create", "input", (client) => client.audio.speech.create({ model: SPEAKER, input: "", voice: "alloy" })],
    ["audio.speech.create", "maxRetries", (client) => client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }, { maxRetries: -1 })],
    ["audio.transcriptions.create", "file", (client) => client.audio.transcriptions.create({ model: SPEAKER, file: "audio.wav" } as never)],
    ["audio.transcriptions.create", "model", (client) => client.audio.transcriptions.create({ file: wav() } as never)],
  ];

  it.each(cases)("%s: `%s`", async (_method, field, call) => {
    const { client, gateway } = mocked();
    let failure: Promise<unknown> | undefined;
    expect(() => (failure = call(client)), "threw synchronously").not.toThrow();
    await expect(failure).rejects.toBeInstanceOf(ModelGateError);
    await expect(failure).rejects.toThrow(`\`${field}\` must be`);
    expect(gateway.requests).toHaveLength(0);
  });

  it("rejects bad options and headers of speech and text transcriptions with a ModelGateError naming them", async () => {
    const { client, sent } = requestRecordingClient(() => new Response(new Uint8Array([82, 73, 70, 70]), { headers: { "content-type": "audio/wav" } }));
    for (const options of ["oops", null, 42, { headers: 5 }, { headers: "x" }]) {
      const error = await client.audio.speech.create({ model: "s", input: "hi", voice: "alloy" }, options as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/^`(options|headers)` must be/);
    }
    const text = await client.audio.transcriptions.create({ model: "t", file: new Blob([new Uint8Array(4)]), response_format: "text" }, "oops" as never).catch((caught: unknown) => caught);
    expect((text as Error).message).toMatch(/^`options` must be/);
    expect(sent).toHaveLength(0);
  });
});

describe("call options are read as chat reads them, a prototype's or a getter's included", () => {
  type Call = (client: ModelGate, options: RequestOptions) => Promise<unknown>;
  const image = () => new Blob([Uint8Array.of(137, 80, 78, 71)], { type: "image/png" });
  const calls: [method: string, call: Call][] = [
    ["audio.speech.create", (client, options) => client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }, options)],
    ["audio.transcriptions.create (json)", (client, options) => client.audio.transcriptions.create({ model: SPEAKER, file: wav() }, options)],
    ["audio.transcriptions.create (text)", (client, options) => client.audio.transcriptions.create({ model: SPEAKER, file: wav(), response_format: "text" }, options)],
    ["audio.translations.create (srt)", (client, options) => client.audio.translations.create({ model: SPEAKER, file: wav(), response_format: "srt" }, options)],
    ["images.generate", (client, options) => client.images.generate({ model: PAINTER, prompt: "a lighthouse" }, options)],
    ["images.edit", (client, options) => client.images.edit({ model: PAINTER, prompt: "a lighthouse", image: image() }, options)],
    ["embeddings.create", (client, options) => client.embeddings.create({ model: EMBEDDER, input: "a" }, options)],
  ];
  /** What a middleware saw of each request: its URL, its idempotency key and the timeout the call ran with. */
  function watched() {
    const seen: { url: string; idempotencyKey: string | null; timeout: unknown }[] = [];
    const middleware: Middleware = (request, next, context) => {
      seen.push({ url: request.url, idempotencyKey: request.headers.get("idempotency-key"), timeout: context.options.timeout });
      return next(request);
    };
    return { seen, middleware };
  }

  it.each(calls)("%s keeps middleware, query, idempotencyKey and timeout given by a prototype", async (_method, call) => {
    const { client } = mocked({}, { maxRetries: 0 });
    const { seen, middleware } = watched();
    const options = Object.create({ middleware: [middleware], query: { tenant: "acme" }, idempotencyKey: "idem-42", timeout: 12_345 }) as RequestOptions;
    await call(client, options);
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0]!.url).searchParams.get("tenant")).toBe("acme");
    expect(seen[0]).toMatchObject({ idempotencyKey: "idem-42", timeout: 12_345 });
  });

  it.each(calls)("%s keeps an aborted signal given by a getter: APIUserAbortError, nothing sent", async (_method, call) => {
    const { client, gateway } = mocked({}, { maxRetries: 0 });
    class Options {
      get signal() {
        return AbortSignal.abort();
      }
    }
    await expect(call(client, new Options() as RequestOptions)).rejects.toBeInstanceOf(APIUserAbortError);
    expect(gateway.requests).toHaveLength(0);
  });
});

describe("errors keep their classes on every endpoint", () => {
  const calls: [name: string, call: (client: ModelGate) => Promise<unknown>][] = [
    ["embeddings", (client) => client.embeddings.create({ model: EMBEDDER, input: "a" })],
    ["images", (client) => client.images.generate({ model: PAINTER, prompt: "a lighthouse" })],
    ["speech", (client) => client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" })],
    ["transcriptions", (client) => client.audio.transcriptions.create({ model: SPEAKER, file: wav() })],
  ];

  it.each(calls)("%s: 401, 429, 500 and a failed connection", async (_name, call) => {
    const wrongKey = new ModelGate({ apiKey: "wrong", baseURL: "https://mock.test", fetch: createMockGateway() });
    await expect(call(wrongKey)).rejects.toBeInstanceOf(AuthenticationError);
    for (const [status, errorClass] of [
      [429, RateLimitError],
      [500, InternalServerError],
    ] as const) {
      const { client, gateway } = mocked({}, { maxRetries: 0 });
      gateway.inject({ type: "status", status });
      await expect(call(client)).rejects.toBeInstanceOf(errorClass);
    }
    const offline = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", maxRetries: 0, fetch: async () => Promise.reject(new TypeError("fetch failed")) });
    await expect(call(offline)).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("a model without the endpoint's capability is a BadRequestError", async () => {
    const { client } = mocked();
    await expect(client.embeddings.create({ model: "openai/gpt-4.1-mini", input: "a" })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe("withResponse() and asResponse()", () => {
  it("give the data with the response and its request id", async () => {
    const { client } = mocked();
    const embedded = await client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 2 }).withResponse();
    expect(embedded.data.data[0]!.embedding).toHaveLength(2);
    expect(embedded.requestID).toBe("req_mock_000001");
    expect(((await embedded.response.json()) as { object: string }).object).toBe("list");

    const images = await client.images.generate({ model: PAINTER, prompt: "a lighthouse" }).withResponse();
    expect(images.data.data).toHaveLength(1);
    expect(images.requestID).toBe("req_mock_000002");

    const transcribed = await client.audio.transcriptions.create({ model: SPEAKER, file: wav() }).withResponse();
    expect(await transcribed.response.json()).toEqual(transcribed.data);

    const spoken = await client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }).withResponse();
    expect(spoken.response).toBe(spoken.data);
    expect(spoken.requestID).toBe("req_mock_000004");
  });

  it("asResponse() gives the raw response, base64 vectors undecoded", async () => {
    const { client } = mocked({ embeddingsAsBase64: true });
    const raw = await client.embeddings.create({ model: EMBEDDER, input: "a", dimensions: 2 }).asResponse();
    expect(typeof ((await raw.json()) as { data: { embedding: unknown }[] }).data[0]!.embedding).toBe("string");
    const audio = await client.audio.speech.create({ model: SPEAKER, input: "Hi", voice: "alloy" }).asResponse();
    expect(readWAV(new Uint8Array(await audio.arrayBuffer())).samples).toHaveLength(400);
  });
});
