import { createReadStream, mkdtempSync, openAsBlob, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, ModelGate, ModelGateError, toFile } from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";

// Uploads as openai's users write them (API.md, "Coming from openai-node"): toFile(), and an
// endpoint's file given as a Node fs.ReadStream, a Response or an async iterable of bytes,
// read into a Blob once before the first attempt; a Blob or File is sent as it is.

const SPEAKER = "openai/gpt-4o-audio-preview";
/** A WAV's first bytes: what the mock needs is a non-empty file. */
const AUDIO = Uint8Array.of(82, 73, 70, 70, 36, 0, 0, 0, 87, 65, 86, 69);

let folder: string;
let audioPath: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "modelgate-uploads-"));
  audioPath = join(folder, "meeting.wav");
  writeFileSync(audioPath, AUDIO);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function mocked(maxRetries = 0) {
  const gateway = createMockGateway();
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries });
  return { gateway, client };
}

/** An async iterable of `parts` that counts how often it was iterated and how many parts it gave. */
function countedParts(parts: Uint8Array[]) {
  const counts = { iterations: 0, parts: 0 };
  const iterable = {
    async *[Symbol.asyncIterator]() {
      counts.iterations++;
      for (const part of parts) {
        counts.parts++;
        yield part;
      }
    },
  };
  return { iterable, counts };
}

/** A client whose first `failures` requests get a 503, and that keeps the bytes and name of every uploaded `file`. */
function failingThenRecording(failures: number) {
  const uploads: { name: string; bytes: number[] }[] = [];
  let calls = 0;
  const client = new ModelGate({
    apiKey: "sk-test",
    baseURL: "https://gateway.test",
    maxRetries: failures,
    fetch: async (_url, init) => {
      const file = (init!.body as FormData).get("file") as File;
      uploads.push({ name: file.name, bytes: [...new Uint8Array(await file.arrayBuffer())] });
      return ++calls <= failures ? Response.json({ error: { message: "busy" } }, { status: 503, headers: { "retry-after-ms": "0" } }) : Response.json({ text: "ok" });
    },
  });
  return { client, uploads };
}

const bytesOf = async (blob: Blob) => [...new Uint8Array(await blob.arrayBuffer())];

describe("toFile()", () => {
  it("makes a File of bytes with the name and type given", async () => {
    const file = await toFile(AUDIO, "talk.wav", { type: "audio/wav" });
    expect(file).toBeInstanceOf(File);
    expect([file.name, file.type, file.size]).toEqual(["talk.wav", "audio/wav", AUDIO.length]);
    expect(await bytesOf(file)).toEqual([...AUDIO]);
  });

  it("reads a Node fs.ReadStream to its end, named by its path unless a name is given", async () => {
    const file = await toFile(createReadStream(audioPath));
    expect([file.name, await bytesOf(file)]).toEqual(["meeting.wav", [...AUDIO]]);
    expect((await toFile(createReadStream(audioPath), "renamed.wav")).name).toBe("renamed.wav");
  });

  it("reads a Response's body, typed by its content type and named by its URL's last segment", async () => {
    const response = new Response(AUDIO, { headers: { "content-type": "audio/wav" } });
    Object.defineProperty(response, "url", { value: "https://files.test/calls/call%201.wav?token=x" });
    const file = await toFile(response);
    expect([file.name, file.type, await bytesOf(file)]).toEqual(["call 1.wav", "audio/wav", [...AUDIO]]);
  });

  it("reads a Response-like object (node-fetch's, another realm's, a test double): its url and blob() alone", async () => {
    const double = { url: "https://files.test/voice/memo.wav", blob: async () => new Blob([AUDIO], { type: "audio/wav" }) };
    const file = await toFile(double);
    expect([file.name, file.type, await bytesOf(file)]).toEqual(["memo.wav", "audio/wav", [...AUDIO]]);
    expect((await toFile(double, "named.wav")).name).toBe("named.wav");
  });

  it("reads an async iterable of mixed byte chunks and a ReadableStream, each once", async () => {
    const { iterable, counts } = countedParts([AUDIO.subarray(0, 4), AUDIO.subarray(4)]);
    const file = await toFile(iterable, "parts.wav");
    expect(await bytesOf(file)).toEqual([...AUDIO]);
    expect(counts).toEqual({ iterations: 1, parts: 2 });
    const stream = new Blob([AUDIO]).stream();
    expect(await bytesOf(await toFile(stream, "stream.wav"))).toEqual([...AUDIO]);
  });

  it("takes a string as its text, and a promise of a value", async () => {
    expect(await (await toFile("héllo", "note.txt", { type: "text/plain" })).text()).toBe("héllo");
    const file = await toFile(Promise.resolve(new Blob([AUDIO])), "later.wav");
    expect([file.name, file.size]).toEqual(["later.wav", AUDIO.length]);
  });

  it("returns a File that already has the name and type as it is, and names an unnamed value upload", async () => {
    const original = new File([AUDIO], "same.wav", { type: "audio/wav" });
    expect(await toFile(original)).toBe(original);
    expect(await toFile(original, "same.wav")).toBe(original);
    expect((await toFile(original, "other.wav")).name).toBe("other.wav");
    expect((await toFile(new Uint8Array(2))).name).toBe("upload");
  });

  it("rejects what it cannot read with a ModelGateError naming value, and never throws synchronously", async () => {
    const numbers = {
      async *[Symbol.asyncIterator]() {
        yield 1;
      },
    };
    for (const [value, message] of [
      [42, /^toFile\(\): `value` must be a Blob, a File, bytes .*; got number 42\.$/],
      [{ name: "x.wav" }, /`value` must be a Blob, .*; got an object\./],
      [numbers, /^toFile\(\): `value` must be a stream of bytes \(Uint8Array chunks\); got number 1\.$/],
    ] as const) {
      let result: Promise<File> | undefined;
      expect(() => (result = toFile(value as never, "x.wav"))).not.toThrow();
      const error = (await result!.catch((caught: unknown) => caught)) as ModelGateError;
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(message);
      expect(error.param).toBe("value");
    }
    await expect(toFile(AUDIO, 7 as never)).rejects.toThrow("toFile(): `name` must be a string; got number 7.");
  });

  it("reports a stream that fails to read (a missing file) as a ModelGateError with the reason as cause", async () => {
    const error = (await toFile(createReadStream(join(folder, "missing.wav"))).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(/^toFile\(\): Could not read `value`: ENOENT/);
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });
});

describe("an endpoint's file from a stream, a Response or an iterable", () => {
  it("sends an fs.ReadStream under its path's name, with every byte", async () => {
    const { client, gateway } = mocked();
    const answer = await client.audio.transcriptions.create({ model: SPEAKER, file: createReadStream(audioPath) });
    expect(answer.text).toMatch(/\w/);
    expect(gateway.requests[0]!.body).toMatchObject({ file: { name: "meeting.wav", size: AUDIO.length } });
  });

  it("says a toFile() passed without await is a Promise, and sends nothing", async () => {
    const { client, gateway } = mocked();
    const notAwaited = toFile(AUDIO, "a.wav");
    const error = await client.audio.transcriptions.create({ model: SPEAKER, file: notAwaited as never }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/`file` must be a Blob, .*; got a Promise \(is an `await` missing\?\)\./);
    expect(gateway.requests).toHaveLength(0);
  });

  it("sends a Response's body and an async iterable's bytes, named from their type or as audio", async () => {
    const { client, gateway } = mocked();
    await client.audio.transcriptions.create({ model: SPEAKER, file: new Response(AUDIO, { headers: { "content-type": "audio/wav" } }) });
    await client.audio.transcriptions.create({ model: SPEAKER, file: countedParts([AUDIO]).iterable });
    await client.audio.transcriptions.create({ model: SPEAKER, file: await toFile(countedParts([AUDIO]).iterable, "named.mp3") });
    expect(gateway.requests.map((request) => (request.body as { file: unknown }).file)).toEqual([
      { name: "audio.wav", type: "audio/wav", size: AUDIO.length },
      { name: "audio", type: "application/octet-stream", size: AUDIO.length },
      { name: "named.mp3", type: "application/octet-stream", size: AUDIO.length },
    ]);
  });

  it("reads a streamed upload once, before the first attempt, and sends the same bytes on every retry", async () => {
    const { client, uploads } = failingThenRecording(2);
    const { iterable, counts } = countedParts([AUDIO.subarray(0, 5), AUDIO.subarray(5)]);
    expect(await client.audio.transcriptions.create({ model: "t", file: iterable })).toEqual({ text: "ok" });
    expect(counts).toEqual({ iterations: 1, parts: 2 });
    expect(uploads).toEqual(Array.from({ length: 3 }, () => ({ name: "audio", bytes: [...AUDIO] })));
  });

  it("resends an fs.ReadStream's bytes on a retry, under its name", async () => {
    const { client, uploads } = failingThenRecording(1);
    await client.audio.translations.create({ model: "t", file: createReadStream(audioPath) });
    expect(uploads).toEqual([
      { name: "meeting.wav", bytes: [...AUDIO] },
      { name: "meeting.wav", bytes: [...AUDIO] },
    ]);
  });

  it("reads a Blob or File of another realm or a polyfill (not instanceof Blob) by its bytes, keeping its name and type", async () => {
    const { client, gateway } = mocked();
    const foreign = { size: AUDIO.length, type: "audio/wav", name: "polyfilled.wav", arrayBuffer: async () => AUDIO.slice().buffer };
    expect(foreign instanceof Blob).toBe(false);
    await client.audio.transcriptions.create({ model: SPEAKER, file: foreign as unknown as Blob });
    expect(gateway.requests[0]!.body).toMatchObject({ file: { name: "polyfilled.wav", type: "audio/wav", size: AUDIO.length } });
  });

  it("sends a Blob from openAsBlob() as it is: the SDK never reads or copies it", async () => {
    const blob = await openAsBlob(audioPath, { type: "audio/wav" });
    const reads: string[] = [];
    for (const method of ["arrayBuffer", "bytes", "stream", "text", "slice"] as const) {
      const original = (blob as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
      Object.defineProperty(blob, method, { value: (...args: unknown[]) => (reads.push(method), original?.apply(blob, args)) });
    }
    const seen: Blob[] = [];
    const client = new ModelGate({
      apiKey: "sk-test",
      baseURL: "https://gateway.test",
      fetch: async (_url, init) => {
        const file = (init!.body as FormData).get("file") as File;
        seen.push(file);
        return Response.json({ text: `${file.name}:${file.size}` });
      },
    });
    expect(await client.audio.transcriptions.create({ model: "t", file: blob })).toEqual({ text: `audio.wav:${AUDIO.length}` });
    expect(reads).toEqual([]);
    expect(await bytesOf(seen[0]!)).toEqual([...AUDIO]);
  });

  it.each([
    ["a path string", "meeting.wav", /^`file` must be a Blob, a File, bytes .*; got "meeting\.wav"\.$/],
    ["a number", 42, /^`file` must be .*; got number 42\.$/],
    ["a plain object", { path: "meeting.wav" }, /^`file` must be .*; got an object\.$/],
    ["an iterable of objects", { async *[Symbol.asyncIterator]() { yield { bytes: 1 }; } }, /^`file` must be a stream of bytes \(Uint8Array chunks\); got an object\.$/],
  ])("refuses %s as the file with a ModelGateError naming file, and sends nothing", async (_name, file, message) => {
    const { client, gateway } = mocked();
    for (const call of [
      () => client.audio.transcriptions.create({ model: SPEAKER, file: file as never }),
      () => client.audio.translations.create({ model: SPEAKER, file: file as never }),
    ]) {
      let result: Promise<unknown> | undefined;
      expect(() => (result = call())).not.toThrow();
      const error = (await result!.catch((caught: unknown) => caught)) as ModelGateError;
      expect(error).toBeInstanceOf(ModelGateError);
      expect(error.message).toMatch(message);
      expect(error.param).toBe("file");
    }
    expect(gateway.requests).toHaveLength(0);
  });

  it("stops reading a streamed upload when the call's signal aborts: APIUserAbortError, the source closed, nothing sent", async () => {
    const { client, gateway } = mocked();
    const controller = new AbortController();
    const state = { parts: 0, closed: false };
    let more: () => void = () => {};
    const endless = {
      async *[Symbol.asyncIterator]() {
        try {
          for (;;) {
            state.parts++;
            yield AUDIO;
            await new Promise<void>((resolve) => (more = resolve));
          }
        } finally {
          state.closed = true;
        }
      },
    };
    const call = client.audio.transcriptions.create({ model: SPEAKER, file: endless }, { signal: controller.signal });
    await vi.waitFor(() => expect(state.parts).toBe(1));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    more();
    await vi.waitFor(() => expect(state.closed).toBe(true));
    expect(state.parts).toBe(2);
    expect(gateway.requests).toHaveLength(0);
  });

  it("cuts the client's key out of a failing source's error: message, cause and stack", async () => {
    const { client, gateway } = mocked();
    const failing = new ReadableStream({
      pull(controller) {
        controller.error(new Error(`GET https://files.example/a.wav?key=${MOCK_API_KEY} failed: socket hang up`));
      },
    });
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: failing }).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(/^Could not read `file`: GET https:\/\/files.example\/a.wav\?key=\[redacted\] failed/);
    const cause = error.cause as Error;
    for (const text of [error.message, error.stack, cause.message, cause.stack, String(cause)]) {
      for (let i = 0; i + 8 <= MOCK_API_KEY.length; i++) expect(text).not.toContain(MOCK_API_KEY.slice(i, i + 8));
    }
    expect(gateway.requests).toHaveLength(0);
  });

  it("bounds the reading of a stalled upload by the call's timeout: APIConnectionTimeoutError, the source stopped, nothing sent", async () => {
    vi.useFakeTimers();
    try {
      const { client, gateway } = mocked();
      let destroyed = 0;
      const stalled = {
        async *[Symbol.asyncIterator]() {
          yield AUDIO;
          await new Promise(() => {});
        },
        destroy: () => destroyed++,
      };
      const call = client.audio.transcriptions.create({ model: SPEAKER, file: stalled }, { timeout: 300 }).catch((caught: unknown) => caught);
      await vi.advanceTimersByTimeAsync(299);
      expect(destroyed).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      const error = await call;
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect((error as Error).message).toMatch(/Reading `file` took longer than the call's timeout \(300 ms\)/);
      expect(destroyed).toBe(1);
      expect(gateway.requests).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("on an abort while a read of the source is pending, destroys a Node stream and cancels a ReadableStream", async () => {
    const { client, gateway } = mocked();
    const pending = () => new Promise<never>(() => {});
    let destroyed = 0;
    let yielded = 0;
    const nodeLike = {
      async *[Symbol.asyncIterator]() {
        yield AUDIO;
        yielded++;
        await pending();
      },
      destroy: () => destroyed++,
      path: "/tmp/talk.wav",
    };
    let cancelled = 0;
    let pulls = 0;
    const web = new ReadableStream<Uint8Array>({
      pull: (controller) => (pulls++ === 0 ? controller.enqueue(AUDIO) : pending()),
      cancel: () => void cancelled++,
    });
    for (const file of [nodeLike, web]) {
      const controller = new AbortController();
      const call = client.audio.transcriptions.create({ model: SPEAKER, file }, { signal: controller.signal });
      // Aborted while the second read is pending.
      await vi.waitFor(() => expect(file === web ? pulls : yielded + 1).toBe(2));
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    }
    expect(destroyed).toBe(1);
    expect(cancelled).toBe(1);
    expect(gateway.requests).toHaveLength(0);
  });

  it("reports a source that errors with a value whose message getter throws (quoting the key) as a ModelGateError without the key", async () => {
    const { client, gateway } = mocked();
    const unreadable = Object.defineProperty(new Error("x"), "message", { get: () => { throw new Error(`getter ${MOCK_API_KEY}`); } });
    const failing = new ReadableStream({ pull: (controller) => controller.error(unreadable) });
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: failing }).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.param).toBe("file");
    const cause = error.cause as Error;
    for (const text of [error.message, error.stack, cause.message, cause.stack, String(cause)]) {
      for (let i = 0; i + 8 <= MOCK_API_KEY.length; i++) expect(text).not.toContain(MOCK_API_KEY.slice(i, i + 8));
    }
    expect(gateway.requests).toHaveLength(0);
  });

  it.each([
    ["a stream yielding it", (key: string) => (async function* () { yield Symbol(key); })()],
    ["the file itself", (key: string) => Symbol(key)],
  ])("names a Symbol whose description is the key (%s) without the key", async (_, file) => {
    const { client, gateway } = mocked();
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: file(MOCK_API_KEY) as never }).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    // By its kind only: a symbol's description may be anything (here the key).
    expect(error.message).toContain("got a symbol");
    expect(error.message).not.toContain(MOCK_API_KEY.slice(0, 8));
    expect(gateway.requests).toHaveLength(0);
  });

  it("reports a ReadStream of a missing file as a ModelGateError naming file, and sends nothing", async () => {
    const { client, gateway } = mocked();
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: createReadStream(join(folder, "gone.wav")) }).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(/^Could not read `file`: ENOENT/);
    expect(error.param).toBe("file");
    expect(gateway.requests).toHaveLength(0);
  });
});

describe("an upload source that is visibly used up", () => {
  const webStream = () => new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(AUDIO), controller.close()) });
  const sources: [string, () => Promise<unknown>, RegExp][] = [
    [
      "an fs.ReadStream read to its end",
      async () => {
        const stream = createReadStream(audioPath);
        for await (const _chunk of stream) void _chunk;
        return stream;
      },
      /is a stream that has already ended/,
    ],
    [
      "an fs.ReadStream read from",
      async () => {
        const stream = createReadStream(audioPath, { highWaterMark: 4 });
        await new Promise<void>((resolve) => stream.once("readable", () => resolve()));
        stream.read(4);
        return stream;
      },
      /is a stream that has already been read from/,
    ],
    ["a destroyed fs.ReadStream", async () => createReadStream(audioPath).destroy(), /is a stream that has been destroyed/],
    [
      "a ReadableStream read from",
      async () => {
        const stream = webStream();
        const reader = stream.getReader();
        await reader.read();
        reader.releaseLock();
        return stream;
      },
      /is a ReadableStream that has already been read from or cancelled/,
    ],
    [
      "a cancelled ReadableStream",
      async () => {
        const stream = webStream();
        await stream.cancel();
        return stream;
      },
      /is a ReadableStream that has already been read from or cancelled/,
    ],
    [
      "a locked ReadableStream",
      async () => {
        const stream = webStream();
        stream.getReader();
        return stream;
      },
      /is a ReadableStream that is locked/,
    ],
    [
      "a Response whose body was read",
      async () => {
        const response = new Response(AUDIO);
        await response.arrayBuffer();
        return response;
      },
      /is a Response whose body has already been read/,
    ],
  ];

  it.each(sources)("refuses %s with a ModelGateError naming file, before anything is sent", async (_, make, problem) => {
    const { client, gateway } = mocked();
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: (await make()) as never }).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/^`file` .*: what it held is no longer there to send \(pass a new one\)\.$/);
    expect(error.param).toBe("file");
    expect(gateway.requests).toHaveLength(0);
  });

  it.each(sources)("refuses %s in toFile(), naming value", async (_, make, problem) => {
    const error = (await toFile((await make()) as never, "talk.wav").catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(problem);
    expect(error.param).toBe("value");
  });

  it("still reads a fresh stream of each kind, and an empty one as the empty file it is", async () => {
    const { client, gateway } = mocked();
    await client.audio.transcriptions.create({ model: SPEAKER, file: createReadStream(audioPath) });
    await client.audio.transcriptions.create({ model: SPEAKER, file: webStream() });
    expect((await toFile(new ReadableStream({ start: (controller) => controller.close() }), "empty.wav")).size).toBe(0);
    expect(gateway.requests.map((request) => (request.body as { file: { size: number } }).file.size)).toEqual([AUDIO.length, AUDIO.length]);
  });
});

describe("upload mistakes", () => {
  /** A Proxy every trap of which throws, quoting the key. */
  const hostile = () => new Proxy({}, { get: () => { throw new Error(`trap ${MOCK_API_KEY}`); }, getPrototypeOf: () => { throw new Error(`trap ${MOCK_API_KEY}`); }, ownKeys: () => { throw new Error(`trap ${MOCK_API_KEY}`); } });
  const circular = () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = value;
    return value;
  };
  const mistakes: [string, Record<string, unknown>, string, RegExp][] = [
    ["a BigInt field", { temperature: 10n }, "temperature", /^`temperature` must be text, a number, a boolean, or a list or object of them; got bigint 10\.$/],
    ["a BigInt inside an object field", { metadata: { n: 1n } }, "metadata", /^`metadata` cannot be sent as a form field \(as JSON\): .*BigInt/],
    ["a circular field", { metadata: circular() }, "metadata", /^`metadata` cannot be sent as a form field \(as JSON\): .*circular/i],
    ["a Symbol field", { language: Symbol("en") }, "language", /^`language` must be text, .*; got a symbol\.$/],
    ["a function field", { prompt: () => "hi" }, "prompt", /^`prompt` must be text, .*; got a function\.$/],
    ["undefined in a list field", { timestamp_granularities: ["word", undefined] }, "timestamp_granularities[1]", /^`timestamp_granularities\[1\]` must be text, .*; got nothing\.$/],
    ["a throwing Proxy as a field", { metadata: hostile() }, "metadata", /^`metadata` cannot be sent as a form field \(as JSON\): trap \[redacted\]$/],
    ["a throwing Proxy as the file", { file: hostile() }, "file", /^Could not read `file`: trap \[redacted\]$/],
  ];

  it.each(mistakes)("rejects %s with a ModelGateError naming it, without the key, and sends nothing", async (_, fields, param, message) => {
    const { client, gateway } = mocked();
    const error = (await client.audio.transcriptions.create({ model: SPEAKER, file: new Blob([AUDIO]), ...fields } as never).catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(message);
    expect(error.param).toBe(param);
    expect(JSON.stringify(error) + String(error.stack) + String((error.cause as Error | undefined)?.message)).not.toContain(MOCK_API_KEY);
    expect(gateway.requests).toHaveLength(0);
  });

  it("rejects toFile() of a rejected promise with a ModelGateError naming value, its reason as cause", async () => {
    const reason = new Error("download failed");
    const error = (await toFile(Promise.reject(reason), "talk.wav").catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toBe("toFile(): Could not read `value`: download failed");
    expect(error.param).toBe("value");
    expect(error.cause).toMatchObject({ message: reason.message });
  });

  it("sends a list's objects as JSON items, and numbers and booleans as written", async () => {
    const forms: FormData[] = [];
    const client = new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", maxRetries: 0, fetch: async (_url, init) => (forms.push(init!.body as FormData), Response.json({ text: "ok" })) });
    await client.audio.transcriptions.create({ model: "t", file: new Blob([AUDIO]), temperature: 0.5, stream: false, include: ["logprobs", { a: 1 }, 2] } as never);
    expect([forms[0]!.get("temperature"), forms[0]!.get("stream"), forms[0]!.getAll("include[]")]).toEqual(["0.5", "false", ["logprobs", '{"a":1}', "2"]]);
  });
});

describe("client.audio.translations.create()", () => {
  it("posts the multipart form to /v1/audio/translations and resolves to the English text", async () => {
    const { client, gateway } = mocked();
    const answer = await client.audio.translations.create({ model: SPEAKER, file: new File([AUDIO], "talk.wav", { type: "audio/wav" }), prompt: "Names: Ada." });
    expect(answer.text).toMatch(/\w/);
    const [request] = gateway.requests;
    expect(request!.url).toMatch(/\/v1\/audio\/translations$/);
    expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body).toEqual({ model: SPEAKER, file: { name: "talk.wav", type: "audio/wav", size: AUDIO.length }, prompt: "Names: Ada." });
  });

  it("resolves to the text itself for text, srt and vtt, and to the verbose JSON for verbose_json", async () => {
    const { client, gateway } = mocked();
    const file = () => new File([AUDIO], "talk.wav");
    const json = await client.audio.translations.create({ model: SPEAKER, file: file() });
    const text: string = await client.audio.translations.create({ model: SPEAKER, file: file(), response_format: "text" });
    expect(text).toBe(json.text);
    expect(gateway.requests[1]!.headers.accept).toBe("text/plain");
    expect(await client.audio.translations.create({ model: SPEAKER, file: file(), response_format: "srt" })).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    const verbose = await client.audio.translations.create({ model: SPEAKER, file: file(), response_format: "verbose_json" });
    expect(verbose).toMatchObject({ task: "translate", language: "english", text: json.text });
  });

  it("rejects a missing model with a ModelGateError naming it", async () => {
    const { client, gateway } = mocked();
    await expect(client.audio.translations.create({ file: new Blob([AUDIO]) } as never)).rejects.toThrow(/^`model` must be/);
    expect(gateway.requests).toHaveLength(0);
  });
});
