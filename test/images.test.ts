import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  BadRequestError,
  InternalServerError,
  ModelGate,
  ModelGateError,
  toFile,
  type ImageGenStreamEvent,
  type Stream,
} from "../src/index.ts";
import { createMockGateway, MOCK_API_KEY } from "../src/testing/index.ts";
import { streamedBody } from "./fixtures/body.ts";
import { fromBase64, readPNG } from "./fixtures/media.ts";

// client.images.edit (a multipart upload) and streamed image requests (API.md, "Coming from
// openai-node"): a Stream of image events that ends at [DONE] or once every requested image
// has its `completed` event, and throws APIConnectionError when cut before that.

const PAINTER = "openai/gpt-image-1";
/** The bytes of a picture to edit: the mock checks only that an upload is a non-empty image. */
const PICTURE = new Uint8Array(48).fill(9);

let folder: string;
let picturePath: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "modelgate-images-"));
  picturePath = join(folder, "lighthouse.png");
  writeFileSync(picturePath, PICTURE);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function mocked(clientOptions: { maxRetries?: number; streamIdleTimeout?: number } = {}) {
  const gateway = createMockGateway();
  const client = new ModelGate({ apiKey: MOCK_API_KEY, baseURL: "https://mock.test", fetch: gateway, maxRetries: 0, ...clientOptions });
  return { gateway, client };
}

const png = (name = "photo.png") => new File([PICTURE], name, { type: "image/png" });

/** Every event of a stream, and what ended it: `"end"` or the error thrown. */
async function drain<T>(stream: AsyncIterable<T>): Promise<{ events: T[]; ending: unknown }> {
  const events: T[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, ending: "end" };
  } catch (error) {
    return { events, ending: error };
  }
}

/** One image event as OpenAI frames it: an `event:` line naming its type, then its JSON. */
const frame = (type: string, extra: Record<string, unknown> = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, b64_json: "AA==", ...extra })}\n\n`;

/** A client whose every request is answered by an event stream of `parts`; `state` tells whether the SDK let go of the body. */
function streaming(parts: string[], end: "close" | "break-off" = "close") {
  const { body, state } = streamedBody(parts, { end });
  const client = new ModelGate({
    apiKey: "sk-test",
    baseURL: "https://gateway.test",
    maxRetries: 0,
    fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream", "x-request-id": "req_images" } }),
  });
  return { client, state };
}

const generateStream = (client: ModelGate, n?: number) => client.images.generate({ model: PAINTER, prompt: "a lighthouse", stream: true, partial_images: 1, ...(n && { n }) });

describe("client.images.edit()", () => {
  it("uploads a picture from toFile(fs.createReadStream()) and a mask, and resolves to the image URLs", async () => {
    const { client, gateway } = mocked();
    const answer = await client.images.edit({
      model: PAINTER,
      image: await toFile(createReadStream(picturePath), "lighthouse.png", { type: "image/png" }),
      mask: png("mask.png"),
      prompt: "Paint the lighthouse red",
      n: 2,
    });
    expect(answer.data).toEqual([{ url: "https://mock.modelgate.invalid/images/1.png" }, { url: "https://mock.modelgate.invalid/images/2.png" }]);
    const [request] = gateway.requests;
    expect(request!.url).toMatch(/\/v1\/images\/edits$/);
    expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body).toEqual({
      model: PAINTER,
      image: { name: "lighthouse.png", type: "image/png", size: PICTURE.length },
      mask: { name: "mask.png", type: "image/png", size: PICTURE.length },
      prompt: "Paint the lighthouse red",
      n: "2",
    });
  });

  it("sends a list of pictures as image[] (a stream among them), and answers b64_json with valid PNGs", async () => {
    const { client, gateway } = mocked();
    const answer = await client.images.edit({ image: [png("a.png"), createReadStream(picturePath)], prompt: "Merge them", response_format: "b64_json" });
    expect(readPNG(fromBase64(answer.data[0]!.b64_json!))).toMatchObject({ width: 2, height: 2 });
    expect(gateway.requests[0]!.body).toMatchObject({
      "image[]": [
        { name: "a.png", type: "image/png", size: PICTURE.length },
        { name: "lighthouse.png", size: PICTURE.length },
      ],
    });
  });

  it("names an unnamed picture by its type, as servers tell the format by the extension", async () => {
    const sent: FormData[] = [];
    const client = new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", fetch: async (_url, init) => (sent.push(init!.body as FormData), Response.json({ created: 1, data: [] })) });
    await client.images.edit({ image: new Blob([PICTURE], { type: "image/webp" }), mask: PICTURE, prompt: "Blue" });
    expect([(sent[0]!.get("image") as File).name, (sent[0]!.get("mask") as File).name]).toEqual(["image.webp", "image"]);
  });

  it("streams image_edit events until the requested image is complete", async () => {
    const { client, gateway } = mocked();
    const stream = await client.images.edit({ image: png(), prompt: "Blue", stream: true, partial_images: 2 });
    const { events, ending } = await drain(stream);
    expect(ending).toBe("end");
    expect(events.map((event) => event.type)).toEqual(["image_edit.partial_image", "image_edit.partial_image", "image_edit.completed"]);
    expect(gateway.requests[0]!.body).toMatchObject({ stream: "true", partial_images: "2" });
    expect(gateway.activeStreams).toBe(0);
  });

  it.each([
    ["no image", { prompt: "Blue" }, "image", /^`image` must be a Blob, a File, bytes .*; got nothing\.$/],
    ["a path as the image", { image: "photo.png", prompt: "Blue" }, "image", /^`image` must be .*; got "photo\.png"\.$/],
    ["an empty list", { image: [], prompt: "Blue" }, "image", /^`image` must be one file or a list of 1 to 16; got an array\.$/],
    ["17 pictures", { image: Array.from({ length: 17 }, () => png()), prompt: "Blue" }, "image", /list of 1 to 16/],
    ["a list holding a number", { image: [png(), 5], prompt: "Blue" }, "image[1]", /^`image\[1\]` must be .*; got number 5\.$/],
    ["a mask that is text", { image: png(), mask: "mask.png", prompt: "Blue" }, "mask", /^`mask` must be/],
    ["no prompt", { image: png() }, "prompt", /^`prompt` must be a non-empty string/],
    ["a model that is not a string", { image: png(), prompt: "Blue", model: 4 }, "model", /^`model` must be/],
    ["n of 0", { image: png(), prompt: "Blue", n: 0 }, "n", /^`n` must be a positive whole number/],
    ["stream as text", { image: png(), prompt: "Blue", stream: "yes" }, "stream", /^`stream` must be a boolean/],
  ])("refuses %s with a ModelGateError naming %s, and sends nothing", async (_name, params, param, message) => {
    const { client, gateway } = mocked();
    let result: Promise<unknown> | undefined;
    expect(() => (result = client.images.edit(params as never))).not.toThrow();
    const error = (await result!.catch((caught: unknown) => caught)) as ModelGateError;
    expect(error).toBeInstanceOf(ModelGateError);
    expect(error.message).toMatch(message);
    expect(error.param).toBe(param);
    expect(gateway.requests).toHaveLength(0);
  });

  it("keeps the server's refusals as APIErrors of their status", async () => {
    const { client } = mocked();
    const picture = new File([PICTURE], "notes.txt", { type: "text/plain" });
    await expect(client.images.edit({ image: picture, prompt: "Blue" })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe("streamed images.generate()", () => {
  it("yields each image's partial and completed events, and ends after the last requested image (the mock sends no [DONE])", async () => {
    const { client, gateway } = mocked();
    const stream: Stream<ImageGenStreamEvent> = await generateStream(client, 2);
    expect(stream.requestID).toMatch(/^req_mock_/);
    const { events, ending } = await drain(stream);
    expect(ending).toBe("end");
    expect(events.map((event) => event.type)).toEqual([
      "image_generation.partial_image",
      "image_generation.completed",
      "image_generation.partial_image",
      "image_generation.completed",
    ]);
    for (const event of events) expect(readPNG(fromBase64(event.b64_json))).toMatchObject({ width: 2, height: 2 });
    expect(events[1]).toMatchObject({ usage: { total_tokens: expect.any(Number) }, output_format: "png" });
    expect(gateway.requests[0]!.headers.accept).toBe("text/event-stream");
    expect(gateway.activeStreams).toBe(0);
  });

  it("ends normally at [DONE], even before every image completed", async () => {
    const { client, state } = streaming([frame("image_generation.partial_image", { partial_image_index: 0 }), "data: [DONE]\n\n", frame("image_generation.completed")]);
    const { events, ending } = await drain(await generateStream(client, 2));
    expect(ending).toBe("end");
    expect(events.map((event) => event.type)).toEqual(["image_generation.partial_image"]);
    expect(state.cancelled, "the rest of the body is let go").toBe(true);
  });

  it("ends once every requested image completed, without waiting for the body to close", async () => {
    const { client, state } = streaming([frame("image_generation.completed"), frame("image_generation.completed"), ": PROCESSING\n\n", frame("image_generation.partial_image")]);
    const { events, ending } = await drain(await generateStream(client, 2));
    expect([ending, events.length]).toEqual(["end", 2]);
    expect(state.pulls, "nothing is read past the last completed image").toBe(2);
    expect(state.cancelled).toBe(true);
  });

  it("throws APIConnectionError, after the events that arrived, when the body closes before every image completed", async () => {
    const { client } = streaming([frame("image_generation.partial_image", { partial_image_index: 0 }), frame("image_generation.completed")]);
    const { events, ending } = await drain(await generateStream(client, 2));
    expect(events.map((event) => event.type)).toEqual(["image_generation.partial_image", "image_generation.completed"]);
    expect(ending).toBeInstanceOf(APIConnectionError);
    expect((ending as Error).message).toBe(
      "The image stream ended before it finished (no [DONE], and 1 of the 2 image(s) asked for completed): the connection was probably cut.",
    );
    expect((ending as APIConnectionError).requestID).toBe("req_images");
  });

  it("counts a repeated completed event for the same image_index once: image 1 never completing is a cut", async () => {
    const { client } = streaming([frame("image_generation.completed", { image_index: 0 }), frame("image_generation.completed", { image_index: 0 })]);
    const { events, ending } = await drain(await generateStream(client, 2));
    expect(events).toHaveLength(2);
    expect(ending).toBeInstanceOf(APIConnectionError);
    expect((ending as Error).message).toMatch(/1 of the 2 image\(s\) asked for completed/);
    const whole = streaming([frame("image_generation.completed", { image_index: 0 }), frame("image_generation.completed", { image_index: 1 })]);
    expect((await drain(await generateStream(whole.client, 2))).ending).toBe("end");
  });

  it.each([
    ["indexes 7 and 9, outside the 2 asked for", [7, 9]],
    ["index 0 twice", [0, 0]],
    ["an index that is no whole number, and a negative one", [0.5, -1]],
    ["an index given as text", ["1", 0]],
  ])("counts only distinct indexes in [0, n): completed events for %s, then a close, are a cut", async (_, indexes) => {
    const { client } = streaming(indexes.map((image_index) => frame("image_generation.completed", { image_index })));
    const { events, ending } = await drain(await generateStream(client, 2));
    expect(events).toHaveLength(2);
    expect(ending).toBeInstanceOf(APIConnectionError);
    expect((ending as Error).message).toMatch(/no \[DONE\], and [01] of the 2 image\(s\) asked for completed/);
  });

  it("counts an event that names no image as the lowest image not yet completed", async () => {
    const named = streaming([frame("image_generation.completed", { image_index: 1 }), frame("image_generation.completed")]);
    expect((await drain(await generateStream(named.client, 2))).ending).toBe("end");
    const repeated = streaming([frame("image_generation.completed"), frame("image_generation.completed", { image_index: 0 })]);
    expect((await drain(await generateStream(repeated.client, 2))).ending).toBeInstanceOf(APIConnectionError);
  });

  it("throws APIConnectionError when the connection breaks off, and for the mock's cut fault", async () => {
    const { client } = streaming([frame("image_generation.partial_image")], "break-off");
    const broken = await drain(await generateStream(client));
    expect([broken.events.length, broken.ending]).toEqual([1, expect.any(APIConnectionError)]);

    const { client: mockClient, gateway } = mocked();
    gateway.inject({ type: "cut", afterChunks: 1 });
    const cut = await drain(await generateStream(mockClient));
    expect(cut.events.map((event) => event.type)).toEqual(["image_generation.partial_image"]);
    expect(cut.ending).toBeInstanceOf(APIConnectionError);
  });

  it("throws a half-sent last event as a cut, not as bad JSON", async () => {
    const { client } = streaming(['event: image_generation.completed\ndata: {"type":"image_generation.comp']);
    const { ending } = await drain(await generateStream(client));
    expect(ending).toBeInstanceOf(APIConnectionError);
    expect((ending as Error).message).toMatch(/^The image stream ended in the middle of an event/);
  });

  it("throws the APIError an error event describes, after the events before it", async () => {
    const { client, gateway } = mocked();
    gateway.inject({ type: "stream-error", afterChunks: 1, status: 503, message: "The painter left." });
    const { events, ending } = await drain(await generateStream(client));
    expect(events).toHaveLength(1);
    expect(ending).toBeInstanceOf(InternalServerError);
    expect((ending as Error).message).toMatch(/The painter left\./);
  });

  it("keeps the API key out of an error event that quotes it, and out of a bad event's excerpt", async () => {
    const key = "sk-image-stream-secret-0123456789";
    for (const part of [
      `event: error\ndata: ${JSON.stringify({ type: "error", error: { code: 400, message: `bad key ${key}` } })}\n\n`,
      `event: image_generation.partial_image\ndata: {"key": "${key}", oops\n\n`,
    ]) {
      const { body } = streamedBody([part]);
      const client = new ModelGate({ apiKey: key, baseURL: "https://gateway.test", maxRetries: 0, fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) });
      const { ending } = await drain(await generateStream(client));
      expect(ending).toBeInstanceOf(ModelGateError);
      expect(JSON.stringify({ message: (ending as Error).message, error: (ending as { error?: unknown }).error })).not.toContain(key.slice(4, 12));
    }
  });

  it("throws APIConnectionTimeoutError when the server sends only keep-alives past streamIdleTimeout", async () => {
    const { client, gateway } = mocked({ streamIdleTimeout: 150 });
    gateway.inject({ type: "stall", afterChunks: 1, keepAliveMs: 20 });
    const { events, ending } = await drain(await generateStream(client));
    expect(events).toHaveLength(1);
    expect(ending).toBeInstanceOf(APIConnectionTimeoutError);
    expect(gateway.activeStreams).toBe(0);
  });

  it("throws APIConnectionTimeoutError when the server sends only skipped events with data (data: null) past streamIdleTimeout", async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          // One image event, then `data: null` every 20 ms until the reader lets go.
          if (sent++ > 0) await new Promise((resolve) => setTimeout(resolve, 20));
          if (!cancelled) controller.enqueue(encoder.encode(sent === 1 ? frame("image_generation.partial_image") : "data: null\n\n"));
        },
        cancel: () => void (cancelled = true),
      },
      { highWaterMark: 0 },
    );
    const client = new ModelGate({ apiKey: "sk-test", baseURL: "https://gateway.test", maxRetries: 0, streamIdleTimeout: 150, fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) });
    const { events, ending } = await drain(await generateStream(client));
    expect(events).toHaveLength(1);
    expect(ending).toBeInstanceOf(APIConnectionTimeoutError);
    expect(cancelled).toBe(true);
  });

  it("lets go of the body when the consumer stops early", async () => {
    const { client, state } = streaming([frame("image_generation.partial_image"), frame("image_generation.partial_image"), frame("image_generation.completed")]);
    for await (const event of await generateStream(client)) {
      expect(event.type).toBe("image_generation.partial_image");
      break;
    }
    expect(state.cancelled).toBe(true);
  });

  it("still resolves to the JSON answer without stream", async () => {
    const { client } = mocked();
    const answer = await client.images.generate({ model: PAINTER, prompt: "a lighthouse", stream: false, response_format: "b64_json" });
    expect(readPNG(fromBase64(answer.data[0]!.b64_json!))).toMatchObject({ width: 2 });
  });
});
