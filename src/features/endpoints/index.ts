// The endpoints beside chat, loaded on their first call: each checks its
// params, makes its request through the one pipeline, and shapes what comes back.
//
// Each is exported under the name of the client property that delegates to it
// (`client.audio.translations.create` → `translations`): the delegates in the first load then
// repeat a name the minifier already wrote, which gzip stores in a few bytes.
export { createEmbeddings as embeddings } from "./embeddings.ts";
export { editImages as edit, generateImages as generate } from "./images.ts";
export { createSpeech as speech, createTranscription as transcriptions, createTranslation as translations } from "./media.ts";
export { makeFile } from "./uploads.ts";
