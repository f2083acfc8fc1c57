// The helpers that a chat app may never call (the Stream's, and asResponse() on a stream),
// loaded together on first use through `loadHelpers()`.
export { install, sdk } from "./shared.ts";
export { ChatCompletionAccumulator } from "./accumulate.ts";
export { bridgeSource, decodeBridge } from "./bridge.ts";
export { teeIterator } from "./tee.ts";
export { deltaTexts } from "./delta-texts.ts";
export { rawResponse } from "./raw-response.ts";
export { buildErrorFromBody, buildErrorFromStreamEvent, buildNotAStreamError } from "../../errors/read-body.ts";
export { withinBudget, fitToBudget } from "../../budget/within-budget.ts";
export { estimatePromptTokens } from "../../budget/estimate.ts";
export { catalogueOf } from "../../budget/catalogue.ts";
export { replyRoom } from "../../budget/worst-case.ts";
export { keyFrom } from "../../pipeline/key-function.ts";
export { refusedWaitNote, withMaxTokens } from "../../pipeline/after-refusal.ts";
export { createEmbeddings, createSpeech, createTranscription, generateImages } from "../../resources/endpoints/index.ts";
export { logDebug } from "../../internal/debug-lines.ts";
