import { describe, expect, it } from "vitest";
import { fromBase64, readPNG } from "./fixtures/media.ts";
import { mockGateway, postForm, type FormFields } from "./fixtures/mock.ts";

// The mock's image endpoints: generations and edits (a multipart upload), answered as URLs,
// as b64_json, or streamed as OpenAI's image events (partial images, then the final one).

/** One server-sent event of an image stream: its `event:` name and its JSON. */
interface ImageEvent {
  event: string;
  data: Record<string, unknown> & { type: string };
}

/**
 * Reads an image stream strictly: comments (keep-alives) aside, each event is an `event:` line
 * and one `data:` line of JSON whose `type` is the event's name; `[DONE]` is reported apart.
 */
function readImageStream(text: string): { events: ImageEvent[]; done: boolean } {
  expect(text.endsWith("\n\n")).toBe(true);
  const blocks = text.slice(0, -2).split("\n\n").map((block) => block.split("\n").filter((line) => !line.startsWith(":")));
  const done = blocks.some((lines) => lines.length === 1 && lines[0] === "data: [DONE]");
  const events = blocks
    .filter((lines) => lines.length > 0 && !(lines.length === 1 && lines[0] === "data: [DONE]"))
    .map((lines) => {
      expect(lines).toHaveLength(2);
      const [eventLine, dataLine] = lines as [string, string];
      expect(eventLine).toMatch(/^event: \S+$/);
      expect(dataLine).toMatch(/^data: \{/);
      return { event: eventLine.slice("event: ".length), data: JSON.parse(dataLine.slice("data: ".length)) };
    });
  return { events, done };
}

/** The PNG an event's `b64_json` holds, checked by an independent reader. */
const pngOf = (event: ImageEvent) => readPNG(fromBase64(event.data.b64_json as string));

const png = (name = "photo.png", size = 64, type = "image/png") => new File([new Uint8Array(size).fill(7)], name, { type });

describe("mock gateway images: /v1/images/generations", () => {
  it("answers b64_json with the base64 of a valid PNG for response_format b64_json", async () => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a cat", n: 2, response_format: "b64_json" } });
    const body = await response.json();
    expect(body).toEqual({ created: expect.any(Number), data: [{ b64_json: expect.any(String) }, { b64_json: expect.any(String) }] });
    expect(readPNG(fromBase64(body.data[0].b64_json))).toMatchObject({ width: 2, height: 2 });
  });

  it("keeps numbering URLs for response_format url, the default", async () => {
    const { call } = mockGateway();
    await call("/v1/images/generations", { body: { prompt: "a cat" } });
    const body = await (await call("/v1/images/generations", { body: { prompt: "a dog", response_format: "url" } })).json();
    expect(body.data).toEqual([{ url: "https://mock.modelgate.invalid/images/2.png" }]);
  });

  it("takes an image model, and answers 400 or 404 naming model for another", async () => {
    const { call } = mockGateway();
    expect((await call("/v1/images/generations", { body: { prompt: "a cat", model: "openai/gpt-image-1" } })).status).toBe(200);
    const other = await call("/v1/images/generations", { body: { prompt: "a cat", model: "openai/gpt-4.1" } });
    expect(other.status).toBe(400);
    expect((await other.json()).error).toMatchObject({ param: "model", message: expect.stringContaining("image_generation") });
    expect((await call("/v1/images/generations", { body: { prompt: "a cat", model: "acme/paint" } })).status).toBe(404);
  });

  it("answers 400 naming response_format for an unknown one", async () => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a cat", response_format: "svg" } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe("response_format");
  });

  it("streams image_generation.partial_image events, then image_generation.completed with b64_json and usage, and no [DONE]", async () => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a sea otter", stream: true, partial_images: 2 } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events, done } = readImageStream(await response.text());
    expect(done).toBe(false);
    expect(events.map((event) => event.event)).toEqual(["image_generation.partial_image", "image_generation.partial_image", "image_generation.completed"]);
    expect(events.every((event) => event.event === event.data.type)).toBe(true);
    expect(events.slice(0, 2).map((event) => event.data.partial_image_index)).toEqual([0, 1]);
    const pictures = events.map((event) => pngOf(event));
    expect(pictures.every((picture) => picture.width === 2 && picture.height === 2)).toBe(true);
    // Each partial differs from the others and from the final image.
    expect(new Set(pictures.map((picture) => Buffer.from(picture.scanlines).toString("hex"))).size).toBe(3);
    expect(events[2]!.data).toEqual({
      type: "image_generation.completed",
      b64_json: expect.any(String),
      created_at: expect.any(Number),
      size: "1024x1024",
      quality: "auto",
      background: "auto",
      output_format: "png",
      usage: { total_tokens: expect.any(Number), input_tokens: expect.any(Number), output_tokens: expect.any(Number), input_tokens_details: { text_tokens: 3, image_tokens: 0 } },
    });
    const usage = events[2]!.data.usage as { total_tokens: number; input_tokens: number; output_tokens: number };
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it("streams each of n images as its partials and then its completed event, one completed event for partial_images 0", async () => {
    const { call } = mockGateway();
    const two = readImageStream(await (await call("/v1/images/generations", { body: { prompt: "a cat", n: 2, stream: true, partial_images: 1 } })).text());
    expect(two.events.map((event) => event.event)).toEqual([
      "image_generation.partial_image",
      "image_generation.completed",
      "image_generation.partial_image",
      "image_generation.completed",
    ]);
    const one = readImageStream(await (await call("/v1/images/generations", { body: { prompt: "a cat", stream: true } })).text());
    expect(one.events.map((event) => event.event)).toEqual(["image_generation.completed"]);
  });

  it("echoes the size, quality and background asked for in every event", async () => {
    const body = { prompt: "a cat", stream: true, partial_images: 1, size: "1536x1024", quality: "high", background: "opaque" };
    const { events } = readImageStream(await (await mockGateway().call("/v1/images/generations", { body })).text());
    for (const event of events) expect(event.data).toMatchObject({ size: "1536x1024", quality: "high", background: "opaque", output_format: "png" });
  });

  it("cuts a stream after afterChunks events, and reports a stream-error fault as an error event, never [DONE]", async () => {
    const { gateway, call } = mockGateway();
    gateway.inject({ type: "cut", afterChunks: 1 });
    const cut = await call("/v1/images/generations", { body: { prompt: "a cat", stream: true, partial_images: 2 } });
    await expect(cut.text()).rejects.toThrow(/connection cut/);
    gateway.inject({ type: "stream-error", afterChunks: 1, status: 503, message: "The painter left." });
    const failed = readImageStream(await (await call("/v1/images/generations", { body: { prompt: "a cat", stream: true, partial_images: 2 } })).text());
    expect(failed.done).toBe(false);
    expect(failed.events.map((event) => event.event)).toEqual(["image_generation.partial_image", "error"]);
    expect(failed.events[1]!.data).toEqual({ type: "error", error: { code: 503, message: "The painter left." } });
    expect(gateway.activeStreams).toBe(0);
  });

  it.each([
    ["partial_images above 3", { stream: true, partial_images: 4 }, "partial_images"],
    ["a stream that is not a boolean", { stream: "yes" }, "stream"],
    ["a size that is not WIDTHxHEIGHT", { size: "big" }, "size"],
    ["an output_format the mock cannot write", { output_format: "jpeg" }, "output_format"],
    ["an unknown quality", { quality: "ultra" }, "quality"],
  ])("answers 400 naming the field for %s", async (_, extra, param) => {
    const response = await mockGateway().call("/v1/images/generations", { body: { prompt: "a cat", ...extra } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe(param);
  });
});

describe("mock gateway images: /v1/images/edits", () => {
  const edit = (fields: FormFields, gateway = mockGateway().gateway) => postForm(gateway, "/v1/images/edits", fields);

  it("answers an edit of one image with a URL, numbered with the generations'", async () => {
    const { gateway, call } = mockGateway();
    await call("/v1/images/generations", { body: { prompt: "a cat" } });
    const response = await edit({ image: png(), prompt: "make it blue" }, gateway);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ created: expect.any(Number), data: [{ url: "https://mock.modelgate.invalid/images/2.png" }] });
  });

  it("takes several pictures as image[] and a PNG mask, and logs each upload", async () => {
    const { gateway } = mockGateway();
    const response = await edit({ "image[]": [png("a.png"), png("b.jpg", 32, "image/jpeg")], mask: png("mask.png", 16), prompt: "merge them", model: "openai/gpt-image-1", n: "2" }, gateway);
    expect((await response.json()).data).toHaveLength(2);
    expect(gateway.requests[0]!.body).toEqual({
      "image[]": [
        { name: "a.png", type: "image/png", size: 64 },
        { name: "b.jpg", type: "image/jpeg", size: 32 },
      ],
      mask: { name: "mask.png", type: "image/png", size: 16 },
      prompt: "merge them",
      model: "openai/gpt-image-1",
      n: "2",
    });
  });

  it("answers b64_json with valid PNGs for response_format b64_json", async () => {
    const body = await (await edit({ image: png(), prompt: "make it blue", response_format: "b64_json" })).json();
    expect(body.data).toHaveLength(1);
    expect(readPNG(fromBase64(body.data[0].b64_json))).toMatchObject({ width: 2, height: 2 });
  });

  it("streams image_edit.partial_image and image_edit.completed events for stream true, the image counted in usage", async () => {
    const response = await edit({ image: [png("a.png"), png("b.png")], prompt: "make it blue", stream: "true", partial_images: "1" });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const { events, done } = readImageStream(await response.text());
    expect(done).toBe(false);
    expect(events.map((event) => event.event)).toEqual(["image_edit.partial_image", "image_edit.completed"]);
    expect(pngOf(events[0]!)).toMatchObject({ width: 2, height: 2 });
    expect((events[1]!.data.usage as { input_tokens_details: { image_tokens: number } }).input_tokens_details.image_tokens).toBeGreaterThan(0);
  });

  it.each([
    ["no image", { prompt: "blue" }, "image"],
    ["an image sent as text", { image: "photo.png", prompt: "blue" }, "image"],
    ["an empty image", { image: png("a.png", 0), prompt: "blue" }, "image"],
    ["an image that is not a picture", { image: png("notes.txt", 8, "text/plain"), prompt: "blue" }, "image"],
    ["more than 16 images", { "image[]": Array.from({ length: 17 }, () => png()), prompt: "blue" }, "image"],
    ["a mask that is not a PNG", { image: png(), mask: png("mask.jpg", 8, "image/jpeg"), prompt: "blue" }, "mask"],
    ["no prompt", { image: png() }, "prompt"],
    ["a model that cannot draw", { image: png(), prompt: "blue", model: "openai/gpt-4.1" }, "model"],
    ["n of 5", { image: png(), prompt: "blue", n: "5" }, "n"],
    ["an unknown response_format", { image: png(), prompt: "blue", response_format: "svg" }, "response_format"],
  ])("answers 400 naming the field for %s", async (_, fields, param) => {
    const response = await edit(fields as FormFields);
    expect(response.status).toBe(400);
    expect((await response.json()).error.param).toBe(param);
  });

  it("answers 400 saying to send a multipart form for a JSON body", async () => {
    const response = await mockGateway().call("/v1/images/edits", { body: { prompt: "blue", images: [{ image_url: "https://example.com/a.png" }] } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/multipart\/form-data/);
  });
});
