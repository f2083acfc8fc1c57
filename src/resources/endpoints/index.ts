// The endpoints beside chat (the model catalogue too), loaded on their first call: each checks its
// params, makes its request through the one pipeline, and shapes what comes back.
export { createEmbeddings } from "./embeddings.ts";
export { createSpeech, createTranscription, generateImages } from "./media.ts";
export { listModels, retrieveModel } from "./models.ts";
