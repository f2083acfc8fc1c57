import { describe, expect, it } from "vitest";
import { fromBase64, readPNG } from "./fixtures/media.ts";
import { mockGateway } from "./fixtures/mock.ts";

// The mock's endpoints besides chat: image generation.

describe("mock gateway endpoints: /v1/images/generations", () => {
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
});
