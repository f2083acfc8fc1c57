// The endpoints beside chat, loaded on their first call: each checks its
// params, makes its request through the one pipeline, and shapes what comes back. The client's
// methods (resources/endpoint-resources.ts) delegate to these by name.
export { createEmbeddings } from "./embeddings.ts";
export { editImages, generateImages } from "./images.ts";
export { createSpeech, createTranscription, createTranslation } from "./media.ts";
export { makeFile } from "./uploads.ts";
