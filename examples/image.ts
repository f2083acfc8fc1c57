// Generating an image through chat: `modalities: ["image", "text"]` asks for one, and the
// reply's `message.images` holds it, here as a `data:` URL that decodeDataURL() turns into
// bytes (an `https:` URL is downloaded instead).
import "./offline.ts";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ModelGate, { decodeDataURL } from "modelgate";

const client = new ModelGate();

const completion = await client.chat.completions.create({
  model: "auto", // with modalities asking for an image, auto picks a model that draws
  modalities: ["image", "text"],
  messages: [{ role: "user", content: "Draw a lighthouse at dusk." }],
});
const message = completion.choices[0]?.message;
if (!message) throw new Error("the reply has no choice");
const { content, images = [] } = message;
console.log(`${completion.model}: ${content}`);

const folder = await mkdtemp(join(tmpdir(), "modelgate-image-"));
for (const [index, image] of images.entries()) {
  const { url } = image.image_url;
  if (!url.startsWith("data:")) {
    console.log(`image ${index + 1}: ${url} (download it)`);
    continue;
  }
  const { mediaType, bytes } = decodeDataURL(url);
  const path = join(folder, `image-${index + 1}.${mediaType.split(/[/;+]/)[1] ?? "bin"}`);
  await writeFile(path, bytes);
  console.log(`saved ${path} (${mediaType}, ${bytes.length} bytes)`);
}
